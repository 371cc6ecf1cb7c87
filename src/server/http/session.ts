import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { reachesByClass } from '../access/roles.js';
import type { Config } from '../config.js';
import * as repo from './session.repository.js';
import type { Db } from '../db/database.js';
import type { UserRole } from '../db/schema.js';
import type { SessionAccount } from '../access/session-account.js';

export type { SessionAccount } from '../access/session-account.js';

/**
 * Server-side sessions on our own `sessions` table (docs/decisions.md D1): an opaque random id in an
 * httpOnly SameSite=Lax cookie, only its sha256 stored, idle and absolute expiry, a new id at
 * every sign-in (OWASP session fixation) and the row deleted at sign-out. Written here rather
 * than with @fastify/session: see docs/decisions.md (hashed ids, absolute expiry, no shared secret).
 * The cookie ends with the browser unless the person ticked "Keep me signed in on this device"
 * (D47): a shared or school computer must not stay signed in after the window closes. Ticked, a
 * student's or a family's session lasts REMEMBER_DAYS after its last use, sliding (cookie and
 * row): a parent on their own phone signs in once a month, not every visit. A staff account's
 * ticked session keeps the cookie for SESSION_TTL_HOURS and the idle limit, as before (D71).
 */

export const SESSION_COOKIE = 'portal_session';
/** last_seen_at is written at most this often, so a signed-in read costs one indexed SELECT. */
const TOUCH_INTERVAL_MS = 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionAccount | null;
    sessionIdHash: string | null;
    /** Whether the current session's cookie outlives the browser ("Keep me signed in"). */
    sessionRemember: boolean;
    /** The request's session ended on it because its staff account is disabled (D84): refusals say so. */
    sessionEnded: 'account_disabled' | null;
  }
  interface FastifyInstance {
    sessions: SessionManager;
  }
}

/** sha256 in hex; every signed-in request hashes its cookie (one-shot `crypto.hash`: a third of createHash's cost). */
export function hashToken(token: string): string {
  return crypto.hash('sha256', token, 'hex');
}

export interface SessionManager {
  /**
   * Ends any current session and starts a new one for the user (new id: no fixation). `remember`
   * gives the cookie the session's absolute lifetime; without it the cookie ends with the browser.
   * A re-issue (password change) passes `request.sessionRemember` to keep the person's choice.
   * Whether the session may only set up the second factor is decided here, from the account, for
   * every session however it is made (a sign-in, a password change, a confirmed enrolment): no
   * caller can leave it out. Answers that decision. The one thing a caller may say is that a
   * second factor was already proven elsewhere: a sign-in through the school's provider that
   * used more than a password (`secondFactorByProvider`, docs/decisions.md D96).
   */
  start(request: FastifyRequest, reply: FastifyReply, userId: number, remember: boolean, proof?: { secondFactorByProvider: boolean }): Promise<{ secondFactorSetup: boolean }>;
  /** Deletes the current session row and clears the cookie. */
  end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Deletes every session of a user except the given one (after a password change or reset). */
  endAllForUser(userId: number, exceptIdHash?: string | null): Promise<void>;
}

function isSecure(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

/** Whether a session slides for REMEMBER_DAYS: ticked "Keep me signed in", and not a staff account. */
const slides = (role: UserRole, remember: boolean) => remember && role !== 'staff';

/** How long a session lasts from its start or, when it slides, from its last use. */
const lifetimeMs = (config: Config, role: UserRole, remember: boolean) => (slides(role, remember) ? config.rememberedSessionMs : config.sessionTtlMs);

async function loadSessionUser(db: Db, idHash: string, config: Config, now: number) {
  const row = await repo.findSessionUser(db, idHash);
  if (!row) return { user: null, remember: false, touch: false, sliding: false, ended: null };
  const lastSeen = Date.parse(row.last_seen_at);
  const sliding = slides(row.role, row.remember === 1);
  // A sliding session's idle limit is its whole lifetime: its end moves with each use.
  const idleMs = sliding ? config.rememberedSessionMs : config.sessionIdleMs;
  if (Date.parse(row.expires_at) <= now || lastSeen + idleMs <= now || row.disabled === 1) {
    await repo.deleteSession(db, idHash);
    // A disabled account's sessions are refused from the moment it is disabled; each ends at its
    // next request, which is told why (D84). An expired one ends silently.
    const ended = row.disabled === 1 && Date.parse(row.expires_at) > now ? ('account_disabled' as const) : null;
    return { user: null, remember: false, touch: false, sliding: false, ended };
  }
  const name =
    row.role === 'staff'
      ? (row.display_name ?? row.username ?? 'Admin')
      : row.role === 'guardian'
        ? (row.display_name ?? row.email ?? '')
        : [row.first_name, row.last_name].filter(Boolean).join(' ') || (row.student_id ?? '');
  const user: SessionAccount = {
    id: row.user_id,
    role: row.role,
    staffRole: row.role === 'staff' ? (row.staff_role ?? 'administrator') : null,
    classIds: row.staff_role !== null && reachesByClass(row.staff_role) ? await repo.staffClassIds(db, row.user_id) : [],
    childIds: row.role === 'guardian' ? await repo.guardianChildIds(db, row.user_id) : [],
    studentId: row.student_id,
    username: row.username,
    email: row.role === 'guardian' ? row.email : null,
    name,
    firstLogin: row.first_login === 1,
    passwordReset: row.password_reset === 1,
    secondFactorSetup: row.second_factor_setup === 1,
  };
  return { user, remember: row.remember === 1, touch: now - lastSeen >= TOUCH_INTERVAL_MS, sliding, ended: null };
}

/**
 * Whether a new session of this account must set up the second factor before anything else: the
 * staff second factor's rule for the account's role is `required` and it has none confirmed
 * (docs/decisions.md D51, D65). Given by app.ts, so this module reads no feature's tables.
 */
export type SecondFactorSetupCheck = (userId: number) => Promise<boolean>;

export const sessionPlugin = fp(
  async (app: FastifyInstance, options: { db: Db; config: Config; needsSecondFactorSetup: SecondFactorSetupCheck }) => {
    const { db, config, needsSecondFactorSetup } = options;
    app.decorateRequest('user', null);
    app.decorateRequest('sessionIdHash', null);
    app.decorateRequest('sessionRemember', false);
    app.decorateRequest('sessionEnded', null);

    /**
     * No Max-Age and no Expires make a browser-session cookie; remembered, the cookie lasts the
     * session's lifetime. The server's own limits apply either way.
     */
    const setCookie = (request: FastifyRequest, reply: FastifyReply, token: string, remember: boolean, maxAgeMs: number) =>
      reply.setCookie(SESSION_COOKIE, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: isSecure(request),
        ...(remember ? { maxAge: Math.floor(maxAgeMs / 1000) } : {}),
      });

    const manager: SessionManager = {
      async start(request, reply, userId, remember, proof) {
        const secondFactorSetup = proof?.secondFactorByProvider ? false : await needsSecondFactorSetup(userId);
        const lifetime = lifetimeMs(config, (await repo.roleOfUser(db, userId)) ?? 'staff', remember);
        if (request.sessionIdHash) await repo.deleteSession(db, request.sessionIdHash);
        const token = crypto.randomBytes(32).toString('base64url');
        const now = new Date();
        const idHash = hashToken(token);
        await repo.insertSession(db, {
          id_hash: idHash,
          user_id: userId,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
          last_seen_at: now.toISOString(),
          expires_at: new Date(now.getTime() + lifetime).toISOString(),
          ip: request.ip,
          user_agent: (request.headers['user-agent'] ?? '').slice(0, 200),
          remember: remember ? 1 : 0,
          second_factor_setup: secondFactorSetup ? 1 : 0,
        });
        request.sessionIdHash = idHash;
        request.sessionRemember = remember;
        setCookie(request, reply, token, remember, lifetime);
        return { secondFactorSetup };
      },
      async end(request, reply) {
        if (request.sessionIdHash) await repo.deleteSession(db, request.sessionIdHash);
        request.sessionIdHash = null;
        request.sessionRemember = false;
        request.user = null;
        reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(request) });
      },
      async endAllForUser(userId, exceptIdHash) {
        await repo.deleteSessionsOfUser(db, userId, exceptIdHash);
      },
    };
    app.decorate('sessions', manager);

    app.addHook('onRequest', async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (!token || token.length > 100) return;
      const idHash = hashToken(token);
      const now = Date.now();
      const { user, remember, touch, sliding, ended } = await loadSessionUser(db, idHash, config, now);
      if (!user) {
        request.sessionEnded = ended ?? null;
        return;
      }
      request.user = user;
      request.sessionIdHash = idHash;
      request.sessionRemember = remember;
      if (!touch) return;
      if (!sliding) {
        await repo.touchSession(db, idHash, new Date(now).toISOString());
        return;
      }
      // A remembered student's or family's session: its end, and the cookie's, move with this use.
      await repo.touchSession(db, idHash, new Date(now).toISOString(), new Date(now + config.rememberedSessionMs).toISOString());
      setCookie(request, reply, token, true, config.rememberedSessionMs);
    });
  },
  { name: 'sessions', dependencies: ['@fastify/cookie'] },
);
