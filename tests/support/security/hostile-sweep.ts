import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentEngine } from '../test-database.js';
import { createTestApp } from '../test-app.js';
import { createScannerDevice } from '../../../src/server/attendance/scanner-devices.service.js';
import { SESSION_COOKIE } from '../../../src/server/http/session.js';
import { changedBetween, installChangeCounter, readChangeCounts } from './change-counter.js';
import {
  Agent,
  createSession,
  errorShapeProblem,
  OWN_STUDENT,
  routeRows,
  userIdOfAdmin,
  userIdOfGuardian,
  userIdOfStudent,
  type AgentRequest,
  type RouteRow,
} from './harness.js';
import { fromPlain, hostileKey, hostileString, hostileValue, RAW_BODIES, toJson, toQueryText, type HostileValue } from './hostile-values.js';
import { sampleFor } from './route-samples.js';

/**
 * Property-based hostile input over every route that takes a body, path parameters
 * or a query (generated from Fastify's route table, so new routes join by themselves). For every
 * generated call: never a 5xx; every refusal has the error shape; a refusal changes no stored
 * data (row triggers count every write, see change-counter.ts); no call outside the password
 * routes touches credentials; no student call touches a read-only column; and nothing pollutes
 * Object.prototype.
 *
 * HOSTILE_CASES (default 10,000 on SQLite; 1,000 on PostgreSQL, where the sweep checks the
 * engine rather than the routes' parsing again) is the total per run, HOSTILE_SEED (default fixed)
 * makes a run repeatable; a failure prints the seed and the shrunk case to replay. Every route is
 * called at least once by each of its callers on either engine.
 *
 * The sweep is split into `parts` files (tests/security/hostile-input-N.test.ts), each taking every
 * `parts`-th route, so Vitest runs them side by side; the budget is shared out over all routes as
 * one sweep would.
 */

const TOTAL_CASES = Number(process.env.HOSTILE_CASES ?? (currentEngine() === 'postgres' ? 1_000 : 10_000));
const SEED = Number(process.env.HOSTILE_SEED ?? 20_261_122);

/** Routes allowed to change a user's password or flags, create accounts (import, Add Student) or remove them (erasure). */
const CREDENTIAL_ROUTES = new Set([
  'POST /api/change-password-student',
  'POST /api/reset-password-student',
  'POST /api/students',
  'POST /api/students/import',
  // Finalising the new Form 1 makes each child a student with a first-login account.
  'POST /api/intake/finalise',
  // Its undo the same day deletes those students and their never-used accounts (D79).
  'POST /api/intake/finalises/:id/undo',
  'DELETE /api/privacy/students/:studentId',
  'POST /api/staff',
  'PATCH /api/staff/:id',
  'POST /api/change-password-staff',
  // Family accounts: opening a registration's link creates the account; a reset link sets its password.
  'POST /api/family/verify',
  'POST /api/family/reset-password',
  // A student's reset link sets the student's password (D77).
  'POST /api/student-password/reset',
]);

/**
 * Routes that check the caller's current password: a wrong one is refused and rightly audited
 * (`password-change-failed`, auth.service.ts `requireCurrentPassword`), as a refused sign-in is.
 */
const CURRENT_PASSWORD_ROUTES = new Set(['POST /api/change-password-student', 'POST /api/change-password-staff', 'POST /api/staff-2fa/enrol']);

const isTarget = (row: RouteRow) => {
  if (row.method === 'HEAD' || row.method === 'OPTIONS' || !row.access) return false;
  if (row.url.startsWith('/api/docs')) return false;
  const schema = (row.route.schema ?? {}) as Record<string, unknown>;
  return Boolean(schema.body || schema.params || schema.querystring) || row.method !== 'GET';
};
type Caller = 'visitor' | 'admin' | 'own' | 'parent';
function callersOf(row: RouteRow): Caller[] {
  if (row.access === 'public' || row.access === 'visitor' || row.access === 'device') return ['visitor'];
  // A family account's own calls are called by the demo family.
  if (row.access === 'family') return ['parent'];
  // Staff-only routes (a school action) are called by the administrator, who reaches them all.
  if (typeof row.access === 'object' && !('student' in row.access)) return ['admin'];
  return ['admin', 'own', 'parent'];
}

/** One generated call: how to change the route's valid sample. */
type Mutation =
  | { part: 'body-field'; index: number; value: HostileValue }
  | { part: 'body-extra'; entries: [string, HostileValue][] }
  | { part: 'body-whole'; value: HostileValue }
  | { part: 'body-raw'; raw: number }
  | { part: 'param'; index: number; value: string; encode: boolean }
  | { part: 'query-value'; index: number; value: HostileValue }
  | { part: 'query-extra'; entries: [string, HostileValue][]; encode: boolean }
  | { part: 'multipart'; cut: number; field: string; value: string; filename: string };

const bodyField = fc.record({ part: fc.constant('body-field' as const), index: fc.nat(), value: hostileValue });
const bodyExtra = fc.record({ part: fc.constant('body-extra' as const), entries: fc.array(fc.tuple(hostileKey, hostileValue), { minLength: 1, maxLength: 3 }) });
const bodyWhole = fc.record({ part: fc.constant('body-whole' as const), value: hostileValue });
const bodyRaw = fc.record({ part: fc.constant('body-raw' as const), raw: fc.nat({ max: RAW_BODIES.length - 1 }) });
const param = fc.record({ part: fc.constant('param' as const), index: fc.nat(), value: hostileString, encode: fc.boolean() });
const queryValue = fc.record({ part: fc.constant('query-value' as const), index: fc.nat(), value: hostileValue });
const queryExtra = fc.record({
  part: fc.constant('query-extra' as const),
  entries: fc.array(fc.tuple(hostileKey, hostileValue), { minLength: 1, maxLength: 3 }),
  encode: fc.boolean(),
});
const multipart = fc.record({
  part: fc.constant('multipart' as const),
  cut: fc.double({ min: 0, max: 1.2, noNaN: true }),
  field: hostileKey,
  value: hostileString.filter((s) => s.length < 2000),
  filename: hostileString.filter((s) => s.length < 2000),
});

/**
 * The mutations that mean something for a route: bodies only where a body is read, path
 * parameters where the path has them (weighted up: they reach the handler's lookups), the
 * query always (unknown keys must be harmless everywhere).
 */
function mutationsFor(row: RouteRow, multipartSample: boolean): fc.Arbitrary<Mutation> {
  const schema = (row.route.schema ?? {}) as Record<string, unknown>;
  const options: fc.WeightedArbitrary<Mutation>[] = [{ weight: 1, arbitrary: queryExtra }];
  if (schema.querystring) options.push({ weight: 3, arbitrary: queryValue });
  if (/[:*]/.test(row.url)) options.push({ weight: 6, arbitrary: param });
  if (schema.body || (row.method !== 'GET' && row.method !== 'DELETE')) {
    options.push({ weight: 2, arbitrary: bodyRaw });
    if (multipartSample) options.push({ weight: 6, arbitrary: multipart });
    else options.push({ weight: 3, arbitrary: bodyField }, { weight: 3, arbitrary: bodyExtra }, { weight: 2, arbitrary: bodyWhole });
  }
  return fc.oneof(...options);
}

/**
 * A multipart body gone wrong: the sample's fields with a hostile extra field and file name,
 * then cut short at some point (or left whole when cut > 1).
 */
function hostileMultipart(base: AgentRequest, mutation: Extract<Mutation, { part: 'multipart' }>): AgentRequest {
  const contentType = base.headers?.['content-type'] ?? '';
  const boundary = /boundary=(.+)$/.exec(contentType)?.[1] ?? 'x';
  const original = Buffer.isBuffer(base.payload) ? base.payload : Buffer.from('');
  const quoted = (s: string) => s.replace(/["\r\n]/g, '_');
  const extra = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(mutation.field)}"\r\n\r\n${mutation.value}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(mutation.filename)}"\r\nContent-Type: image/png\r\n\r\n`,
    'utf8',
  );
  const whole = Buffer.concat([extra, original]);
  const payload = mutation.cut > 1 ? original.length > 0 ? Buffer.concat([original.subarray(0, original.length - `--${boundary}--\r\n`.length), extra, Buffer.from(`x\r\n--${boundary}--\r\n`)]) : whole : whole.subarray(0, Math.floor(whole.length * mutation.cut));
  return { ...base, payload, headers: { ...base.headers, 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * Percent-encodes the UTF-8 bytes of a string (lone surrogates become U+FFFD, as a browser would
 * send them). `loose` leaves printable ASCII punctuation as typed, so a raw `%`, `'` or `<`
 * reaches the router's own decoding.
 */
function percentEncode(text: string, loose = false): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    const keep = /[A-Za-z0-9\-_.~]/.test(char) || (loose && byte > 0x20 && byte < 0x7f && !/[/?#&=+]/.test(char));
    out += keep ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Applies a mutation to the sample request of a route. */
function mutate(row: RouteRow, base: AgentRequest, mutation: Mutation): AgentRequest {
  const [path = '', query = ''] = base.url.split('?');
  const request: AgentRequest = { ...base, headers: { ...base.headers } };
  const plainBody = base.body && typeof base.body === 'object' && !Array.isArray(base.body) ? (base.body as Record<string, unknown>) : undefined;
  const bodyEntries = plainBody ? (fromPlain(plainBody) as { entries: [string, HostileValue][] }).entries : [];
  const jsonBody = (text: string) => {
    delete request.body;
    request.payload = text;
    request.headers = { ...request.headers, 'content-type': 'application/json' };
  };
  switch (mutation.part) {
    case 'body-field': {
      const entries = [...bodyEntries];
      if (entries.length === 0) entries.push(['value', mutation.value]);
      else entries[mutation.index % entries.length] = [entries[mutation.index % entries.length]![0], mutation.value];
      jsonBody(toJson({ kind: 'object', entries }));
      break;
    }
    case 'body-extra':
      jsonBody(toJson({ kind: 'object', entries: [...bodyEntries, ...mutation.entries] }));
      break;
    case 'body-whole':
      jsonBody(toJson(mutation.value));
      break;
    case 'body-raw': {
      const raw = RAW_BODIES[mutation.raw]!;
      delete request.body;
      request.payload = raw.text;
      request.headers = { ...request.headers, 'content-type': raw.contentType };
      if (!raw.contentType) delete request.headers['content-type'];
      break;
    }
    case 'param': {
      const pattern = row.url.split('/');
      const segments = path.split('/');
      const paramIndexes = pattern.flatMap((segment, i) => (segment.startsWith(':') || segment === '*' ? [i] : []));
      if (paramIndexes.length > 0) {
        const at = paramIndexes[mutation.index % paramIndexes.length]!;
        segments[at] = percentEncode(mutation.value, !mutation.encode);
      }
      request.url = segments.join('/') + (query ? `?${query}` : '');
      break;
    }
    case 'query-value': {
      const pairs = query ? query.split('&').map((pair) => pair.split('=') as [string, string]) : [];
      const text = percentEncode(toQueryText(mutation.value));
      if (pairs.length === 0) pairs.push(['q', text]);
      else pairs[mutation.index % pairs.length] = [pairs[mutation.index % pairs.length]![0], text];
      request.url = `${path}?${pairs.map((pair) => pair.join('=')).join('&')}`;
      break;
    }
    case 'multipart':
      if (Buffer.isBuffer(base.payload)) return hostileMultipart(base, mutation);
      jsonBody(toJson({ kind: 'object', entries: [...bodyEntries, [mutation.field, { kind: 'string', value: mutation.value }]] }));
      break;
    case 'query-extra': {
      const extra = mutation.entries.map(([key, value]) =>
        `${percentEncode(key, !mutation.encode)}=${percentEncode(toQueryText(value), !mutation.encode)}`,
      );
      request.url = `${path}?${[query, ...extra].filter(Boolean).join('&')}`;
      break;
    }
  }
  return request;
}

function describeCase(row: RouteRow, request: AgentRequest, response: LightMyRequestResponse): string {
  const payload = typeof request.payload === 'string' ? request.payload.slice(0, 300) : request.body ? JSON.stringify(request.body).slice(0, 300) : '';
  return `${row.method} ${request.url.slice(0, 300)} ${payload} → ${response.statusCode} ${response.body.slice(0, 300)}`;
}

/**
 * Registers one part of the sweep: the routes at `part`, `part + parts`, … of the route table, on
 * an app of the file's own.
 */
export async function defineHostileSweep(part: number, parts: number): Promise<void> {
  const t = await createTestApp();
  const db = t.database.db;
  afterAll(() => t.close());

  let deviceKey = '';
  let executed = 0;
  const timings: [string, number][] = [];
  const cpuAtStart = process.cpuUsage();
  beforeAll(async () => {
    await installChangeCounter(db);
    // The server's secret is made on its first use; made here, no generated call is charged with that write.
    await new Agent(t.app, null).csrf();
    deviceKey = (await createScannerDevice(db, 'Hostile-input gate', { actor_user_id: null, actor_label: 'test', ip: null, request_id: null })).key;
  });

  const allTargets = routeRows(t.app).filter(isTarget);
    /** This file's share of the routes; the budget below is shared out over all of them. */
    const targets = allTargets.filter((_row, index) => index % parts === part);
  /** Cases per route: costly routes (PDFs, spreadsheets, argon2) get a quarter share. */
  const isCostly = (row: RouteRow) => Boolean(sampleFor(row.method, row.url)?.costly);
  const shareUnit = TOTAL_CASES / allTargets.reduce((sum, row) => sum + (isCostly(row) ? 0.25 : 1), 0);
  /** At least one call per caller of the route. */
  const casesFor = (row: RouteRow) => Math.max(callersOf(row).length, Math.ceil(isCostly(row) ? shareUnit / 4 : shareUnit));
  const plannedCases = targets.reduce((sum, row) => sum + casesFor(row), 0);
  const allPlannedCases = allTargets.reduce((sum, row) => sum + casesFor(row), 0);

  async function agentOf(caller: Caller): Promise<Agent> {
    if (caller === 'visitor') return new Agent(t.app, null);
    const userId = caller === 'admin' ? await userIdOfAdmin(db) : caller === 'parent' ? await userIdOfGuardian(db) : await userIdOfStudent(db, OWN_STUDENT);
    return new Agent(t.app, await createSession(db, userId));
  }

  describe(`hostile input, generated over the route table (part ${part + 1} of ${parts})`, () => {
    it('has routes to attack and a case budget that reaches the total over all parts', () => {
      expect(allTargets.length).toBeGreaterThan(30);
      expect(targets.length).toBeGreaterThanOrEqual(Math.floor(allTargets.length / parts));
      expect(allPlannedCases).toBeGreaterThanOrEqual(TOTAL_CASES);
    });

    it('the change detector sees a write (so the "unchanged" checks can fail)', async () => {
      const before = await readChangeCounts(db);
      const agent = await agentOf('own');
      const saved = await agent.request('POST', { url: '/api/student', body: { id: OWN_STUDENT, middle_name: 'Detector' } });
      expect(saved.statusCode).toBe(200);
      expect(changedBetween(before, await readChangeCounts(db))).toMatchObject({ students: 1 });
    });

    it('keys that name Object.prototype members are plain unknown fields on every JSON body route', { timeout: 60_000 }, async () => {
      const keys = ['valueOf', 'toString', 'constructor', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__', 'prototype'];
      for (const row of targets.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method))) {
        const caller = callersOf(row)[0]!;
        const base = await sampleFor(row.method, row.url)!.request({ db, caller, student: OWN_STUDENT });
        if (!base.body || typeof base.body !== 'object') continue;
        for (const key of keys) {
          const agent = await agentOf(caller);
          const payload = JSON.stringify(base.body).replace(/^\{/, `{${JSON.stringify(key)}:"x",`);
          const headers: Record<string, string> = { ...base.headers, 'content-type': 'application/json' };
          if (row.access === 'device') headers.authorization = `Bearer ${deviceKey}`;
          const response = await agent.request(row.method, { url: base.url, payload, headers });
          expect(response.statusCode, `${row.key} with "${key}": ${response.body}`).toBeLessThan(500);
          expect(errorShapeProblem(response)).toBeNull();
        }
      }
    });

    describe.each(targets.map((row) => [row.key, row] as const))('%s', (_key, row) => {
      it(`${casesFor(row)} generated calls: no 5xx, the error shape, nothing stored on refusal`, { timeout: 120_000 }, async () => {
        const sample = sampleFor(row.method, row.url);
        expect(sample, `${row.key} has no sample in route-samples.ts`).toBeDefined();
        const callers = callersOf(row);
        const started = performance.now();
        const agents = new Map<Caller, Agent>();
        let turn = 0;
        const probe = await sample!.request({ db, caller: callers[0] === 'visitor' ? 'visitor' : callers[0]!, student: OWN_STUDENT });
        await fc.assert(
          // Each caller in turn, so every caller of the route is exercised however few the runs.
          fc.asyncProperty(mutationsFor(row, Buffer.isBuffer(probe.payload)), async (mutation) => {
            const caller = callers[turn++ % callers.length]!;
            const agent = agents.get(caller) ?? (await agentOf(caller));
            agents.set(caller, agent);
            const base = await sample!.request({ db, caller: caller === 'visitor' ? 'visitor' : caller, student: OWN_STUDENT });
            const request = mutate(row, base, mutation);
            if (row.access === 'device') request.headers = { ...request.headers, authorization: `Bearer ${deviceKey}` };
            const before = await readChangeCounts(db);
            const response = await agent.request(row.method, request);
            const after = await readChangeCounts(db);
            executed++;
            // A call that replaced or ended the session (sign-in, password change, sign-out, a reset
            // of this very account) gets the next call a fresh agent; the rest reuse theirs.
            if (response.statusCode === 401 || response.statusCode === 403 || response.cookies.some((c) => c.name === SESSION_COOKIE)) agents.delete(caller);
            const detail = describeCase(row, request, response);
            expect(response.statusCode, detail).toBeLessThan(500);
            expect(errorShapeProblem(response), detail).toBeNull();
            // A refusal stores nothing. A refused sign-in or current password rightly writes the
            // audit row of a failed attempt (its count lives in rate_limits, which is not stored data).
            const ignore = row.access === 'visitor' || CURRENT_PASSWORD_ROUTES.has(row.key) ? ['audit_log'] : [];
            if (response.statusCode >= 400) expect(changedBetween(before, after, ignore), detail).toEqual({});
            const moved = changedBetween(before, after);
            if (!CREDENTIAL_ROUTES.has(row.key)) expect(moved['users.credentials'], detail).toBeUndefined();
            if (caller === 'own' || caller === 'parent') expect(moved['students.readonly'], detail).toBeUndefined();
            expect(Object.keys(Object.prototype), 'Object.prototype polluted').toEqual([]);
            expect(({} as Record<string, unknown>).polluted, 'Object.prototype polluted').toBeUndefined();
          }),
          { numRuns: casesFor(row), seed: SEED },
        );
        timings.push([row.key, performance.now() - started]);
      });
    });

    it(`ran at least this part's ${plannedCases} generated calls`, () => {
      expect(executed).toBeGreaterThanOrEqual(plannedCases);
      const cpu = process.cpuUsage(cpuAtStart);
      process.stdout.write(
        `hostile input, part ${part + 1} of ${parts}: ${executed} generated calls over ${targets.length} routes (seed ${SEED}), ${Math.round((cpu.user + cpu.system) / 1000)} ms of CPU\n`,
      );
      if (process.env.HOSTILE_TIMINGS) for (const [key, ms] of timings.sort((a, b) => b[1] - a[1]).slice(0, 10)) process.stdout.write(`  ${Math.round(ms)} ms ${key}\n`);
    });
  });
}
