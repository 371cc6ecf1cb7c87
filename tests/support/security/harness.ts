import crypto from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse, RouteOptions } from 'fastify';
import { z } from 'zod';
import { ApiErrorSchema } from '../../../src/shared/api-error.js';
import type { Db } from '../../../src/server/db/database.js';
import { isPostgres } from '../../../src/server/db/database.js';
import { DEMO_ADMIN, DEMO_FAMILY, DEMO_STAFF, DEMO_STUDENTS, demoTeacherUsername } from '../../../src/server/db/demo-data/demo-accounts.js';
import type { Access } from '../../../src/server/http/access.js';
import { CSRF_COOKIE, CSRF_HEADER } from '../../../src/server/http/csrf.js';
import { hashToken, SESSION_COOKIE } from '../../../src/server/http/session.js';

/**
 * Shared pieces of the security suites: who calls (sessions made directly in the
 * table, as epic-stack's fixtures do, so hundreds of cells cost no argon2), the route table as
 * one row per method, the error-shape check, and fingerprints of the stored data.
 */

/**
 * Who calls: a visitor; a student on their own id and on another's; each staff role (D49), the
 * form teacher both of the named students' class (5A) and of another class (1A); the demo
 * family's parent on their child's id and on another child's.
 */
export type CallerKind = 'visitor' | 'own' | 'other' | 'admin' | 'office' | 'principal' | 'teacher' | 'teacher-other' | 'parent' | 'parent-other';
export const CALLER_KINDS: readonly CallerKind[] = ['visitor', 'own', 'other', 'admin', 'office', 'principal', 'teacher', 'teacher-other', 'parent', 'parent-other'];
export type StaffCaller = Extract<CallerKind, 'admin' | 'office' | 'principal' | 'teacher' | 'teacher-other'>;
export type ParentCaller = Extract<CallerKind, 'parent' | 'parent-other'>;
export const isParentCaller = (caller: CallerKind): caller is ParentCaller => caller === 'parent' || caller === 'parent-other';
export const isStaffCaller = (caller: CallerKind): caller is StaffCaller => caller !== 'visitor' && caller !== 'own' && caller !== 'other' && !isParentCaller(caller);
/** Callers that name another student than OWN_STUDENT (a student's or a parent's other child). */
export const namesOtherStudent = (caller: CallerKind): boolean => caller === 'other' || caller === 'parent-other';

/** The demo account each staff caller signs in as. */
export const STAFF_CALLER_USERNAMES: Record<StaffCaller, string> = {
  admin: DEMO_ADMIN.username,
  office: DEMO_STAFF.office.username,
  principal: DEMO_STAFF.principal.username,
  teacher: demoTeacherUsername('5A'),
  'teacher-other': demoTeacherUsername('1A'),
};

/** The student who calls as "own" and the one whose id "other" names (demo school). */
export const OWN_STUDENT = DEMO_STUDENTS.registered.student_id;
/** A second fully registered student in 5A (has documents, reports and attendance like OWN_STUDENT). */
export const OTHER_STUDENT = '20220002';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface RouteRow {
  method: Method;
  url: string;
  /** `METHOD /url`, the key of the sample table. */
  key: string;
  access: Access | undefined;
  csrf: boolean;
  route: RouteOptions;
}

/** Fastify's route table as one row per method (a route may declare several). */
export function routeRows(app: FastifyInstance): RouteRow[] {
  const rows: RouteRow[] = [];
  for (const route of app.routeTable) {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]) as Method[];
    for (const method of methods) {
      rows.push({
        method,
        url: route.url,
        key: `${method} ${route.url}`,
        access: route.config?.access,
        csrf: route.config?.csrf !== false,
        route,
      });
    }
  }
  return rows;
}

export function accessLabel(access: Access | undefined): string {
  if (access === undefined) return 'undeclared';
  if (typeof access === 'string') return access;
  if ('student' in access) return `${access.can} of ${typeof access.student === 'string' ? 'a looked-up student' : `student:${Object.values(access.student).join('')}`}`;
  return access.class ? `${access.can} of class:${Object.values(access.class).join('')}` : access.can;
}

/** A session row made directly (the token's sha256 is what the table keeps). */
export async function createSession(db: Db, userId: number, options: { ageMs?: number; idleMs?: number } = {}): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = Date.now();
  const created = new Date(now - (options.ageMs ?? 0)).toISOString();
  await db
    .insertInto('sessions')
    .values({
      id_hash: hashToken(token),
      user_id: userId,
      created_at: created,
      updated_at: created,
      last_seen_at: new Date(now - (options.idleMs ?? 0)).toISOString(),
      expires_at: new Date(now + 3_600_000).toISOString(),
      ip: '127.0.0.1',
      user_agent: 'security-suite',
    })
    .execute();
  return token;
}

export async function userIdOfStudent(db: Db, studentId: string): Promise<number> {
  const row = await db.selectFrom('users').select('id').where('student_id', '=', studentId).executeTakeFirstOrThrow();
  return row.id;
}

/** The demo family's account: linked to OWN_STUDENT (and two children in other forms), not to OTHER_STUDENT. */
export async function userIdOfGuardian(db: Db, email: string = DEMO_FAMILY.email): Promise<number> {
  const row = await db.selectFrom('users').select('id').where('role', '=', 'guardian').where('email', '=', email).executeTakeFirstOrThrow();
  return row.id;
}

export async function userIdOfAdmin(db: Db, username: string = DEMO_ADMIN.username): Promise<number> {
  const row = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
  return row.id;
}

let addressCounter = 0;
/** A fresh client address, so the per-address throttles of one call never touch another. */
export function freshAddress(): string {
  addressCounter++;
  return `10.${80 + ((addressCounter >> 16) & 0x3f)}.${(addressCounter >> 8) & 0xff}.${addressCounter & 0xff}`;
}

export interface AgentRequest {
  url: string;
  body?: unknown;
  /** Raw payload (multipart buffers, strings that are not JSON). */
  payload?: InjectOptions['payload'];
  headers?: Record<string, string>;
  /** false leaves the X-XSRF-TOKEN header out. */
  csrf?: boolean;
}

/**
 * One caller: an optional session token, the CSRF token the server issues to it (bound to that
 * session, fetched on the first call), an address. Cheap to make, so every cell of a matrix gets
 * its own and no call's side effects (sign-out, a password change ending other sessions) reach
 * the next.
 */
export class Agent {
  private token: string | undefined;
  constructor(
    readonly app: FastifyInstance,
    readonly sessionToken: string | null,
    readonly ip: string = freshAddress(),
  ) {}

  /** The caller's CSRF token, as `GET /sanctum/csrf-cookie` issues it to this session (or visitor). */
  async csrf(): Promise<string> {
    if (this.token === undefined) {
      const headers: Record<string, string> = this.sessionToken ? { cookie: `${SESSION_COOKIE}=${this.sessionToken}` } : {};
      const response = await this.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie', headers, remoteAddress: this.ip });
      const cookie = response.cookies.find((c) => c.name === CSRF_COOKIE);
      if (!cookie) throw new Error(`no ${CSRF_COOKIE} cookie: ${response.statusCode} ${response.body}`);
      this.token = cookie.value;
    }
    return this.token;
  }

  /** The token after the first call (or `csrf()`). */
  get csrfToken(): string {
    if (this.token === undefined) throw new Error('call agent.csrf() first');
    return this.token;
  }

  async request(method: Method, request: AgentRequest): Promise<LightMyRequestResponse> {
    const csrf = await this.csrf();
    const headers: Record<string, string> = { ...request.headers };
    const cookies = [`${CSRF_COOKIE}=${csrf}`];
    if (this.sessionToken) cookies.push(`${SESSION_COOKIE}=${this.sessionToken}`);
    // A sample's own cookies (the half-done staff sign-in) go along with the caller's.
    if (request.headers?.cookie) cookies.push(request.headers.cookie);
    headers.cookie = cookies.join('; ');
    if (request.csrf !== false) headers[CSRF_HEADER] = csrf;
    let payload = request.payload;
    if (payload === undefined && request.body !== undefined) {
      payload = JSON.stringify(request.body);
      headers['content-type'] ??= 'application/json';
    }
    return this.app.inject({ method, url: request.url, headers, payload, remoteAddress: this.ip });
  }
}

/** Makes the agent of a caller kind on a database (own and other both sign in as OWN_STUDENT). */
export async function agentFor(app: FastifyInstance, db: Db, kind: CallerKind): Promise<Agent> {
  if (kind === 'visitor') return new Agent(app, null);
  if (isStaffCaller(kind)) return new Agent(app, await createSession(db, await userIdOfAdmin(db, STAFF_CALLER_USERNAMES[kind])));
  if (isParentCaller(kind)) return new Agent(app, await createSession(db, await userIdOfGuardian(db)));
  return new Agent(app, await createSession(db, await userIdOfStudent(db, OWN_STUDENT)));
}

/** Whether a body is exactly the error shape `{ message, code, errors? }` with non-empty strings. */
export function errorShapeProblem(response: LightMyRequestResponse): string | null {
  if (response.statusCode < 400) return null;
  if (!String(response.headers['content-type'] ?? '').startsWith('application/json')) {
    return `content-type ${String(response.headers['content-type'])}`;
  }
  let body: unknown;
  try {
    body = response.json();
  } catch {
    return 'body is not JSON';
  }
  const parsed = z.strictObject(ApiErrorSchema.shape).safeParse(body);
  if (!parsed.success) return `not the error shape: ${response.body.slice(0, 200)}`;
  if (!parsed.data.message || !parsed.data.code) return 'empty message or code';
  return null;
}

/** What a 5xx or an error body must never contain: stack frames, SQL, driver or engine names. */
export const LEAK_PATTERNS: readonly RegExp[] = [
  /\bat [\w$.<>]+ \(.*:\d+:\d+\)/, // a stack frame
  /node_modules|\/work\/|\.ts:\d+|\.js:\d+/,
  /\b(select|insert into|update \w+ set|delete from)\b.*\b(from|values|where)\b/i,
  /SQLITE_|sqlite3?|better-sqlite|postgres|\bpg\b|kysely|syntax error at|relation "|violates .* constraint/i,
  /\$argon2|password_hash|id_hash|key_hash/,
];

export function leakIn(text: string): RegExp | undefined {
  return LEAK_PATTERNS.find((pattern) => pattern.test(text));
}

/**
 * A content hash of the records a refusal must not touch: every column of students, users'
 * credentials, documents (metadata and sha256, not the bytes), the registration window, term
 * reports and the small settings tables. Used around batches of generated calls.
 */
export async function contentChecksum(db: Db): Promise<string> {
  const hash = crypto.createHash('sha256');
  const add = (label: string, rows: unknown[]) => {
    hash.update(label);
    for (const row of rows) hash.update(JSON.stringify(row));
  };
  add('students', await db.selectFrom('students').selectAll().orderBy('id').execute());
  add(
    'users',
    await db
      .selectFrom('users')
      .select(['id', 'role', 'username', 'student_id', 'display_name', 'password_hash', 'first_login', 'password_reset'])
      .orderBy('id')
      .execute(),
  );
  add('documents', await db.selectFrom('documents').select(['id', 'public_id', 'student_id', 'file_type', 'file_name', 'mime', 'size', 'sha256']).orderBy('id').execute());
  add('progress', await db.selectFrom('registration_progress').selectAll().orderBy('student_id').execute());
  add('periods', await db.selectFrom('registration_periods').selectAll().orderBy('id').execute());
  add('term_reports', await db.selectFrom('term_reports').selectAll().orderBy('id').execute());
  add('settings', await db.selectFrom('settings').selectAll().orderBy('key').execute());
  add('holidays', await db.selectFrom('school_holidays').selectAll().orderBy('id').execute());
  add('devices', await db.selectFrom('scanner_devices').select(['id', 'name', 'revoked_at']).orderBy('id').execute());
  return hash.digest('hex');
}

export function engineName(db: Db): 'postgres' | 'sqlite' {
  return isPostgres(db) ? 'postgres' : 'sqlite';
}
