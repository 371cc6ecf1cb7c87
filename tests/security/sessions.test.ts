import { afterAll, describe, expect, it } from 'vitest';
import { ApiErrorSchema } from '../../src/shared/api-error.js';
import { SessionAnswerSchema } from '../../src/shared/auth.schemas.js';
import { createTestApp, TestClient } from '../support/test-app.js';
import { testConfig } from '../support/test-config.js';
import { DEMO_ADMIN, DEMO_STAFF, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { CSRF_COOKIE, CSRF_HEADER } from '../../src/server/http/csrf.js';
import { hashToken, SESSION_COOKIE } from '../../src/server/http/session.js';
import { accessLabel, createSession, errorShapeProblem, freshAddress, OWN_STUDENT, routeRows, userIdOfAdmin, userIdOfGuardian, userIdOfStudent } from '../support/security/harness.js';
import { sampleFor } from '../support/security/route-samples.js';
import { accessRowFor } from './access-table.js';

/**
 * Sessions. Already covered in src/server/auth/auth.routes.test.ts and not repeated
 * here: the id changes when the same browser signs in again, logout ends the session server-side,
 * idle and absolute expiry, a password change and an office reset end the other sessions, the
 * student cookie is httpOnly + SameSite=Lax. This file adds what those leave open: fixation with
 * an attacker-chosen id on every sign-in path, only hashes stored, Secure behind TLS
 * (TRUST_PROXY), and CSRF refused on every state-changing route of the route table.
 */

const t = await createTestApp();
afterAll(() => t.close());
const db = t.database.db;
const { registered, firstLogin } = DEMO_STUDENTS;

const SIGN_INS = [
  { url: '/api/login-student', body: { student_id: registered.student_id, password: registered.password } },
  { url: '/api/admin-login', body: { username: DEMO_ADMIN.username, password: DEMO_ADMIN.password } },
  { url: '/api/first-login', body: { identifier: firstLogin.sea_no, date_of_birth: firstLogin.date_of_birth.replaceAll('-', '') } },
];

describe('session fixation', () => {
  it.each(SIGN_INS)('$url ignores an id the attacker planted and issues a new one', async ({ url, body }) => {
    const planted = 'A'.repeat(43);
    const c = new TestClient(t.app, freshAddress());
    c.cookies.set(SESSION_COOKIE, planted);
    const response = await c.post(url, body);
    expect(response.statusCode, response.body).toBe(200);
    const issued = response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value;
    expect(issued).toBeDefined();
    expect(issued).not.toBe(planted);
    // The planted id never became a session.
    expect(await db.selectFrom('sessions').select('id_hash').where('id_hash', '=', hashToken(planted)).executeTakeFirst()).toBeUndefined();
    const attacker = new TestClient(t.app, freshAddress());
    attacker.cookies.set(SESSION_COOKIE, planted);
    expect(SessionAnswerSchema.parse((await attacker.get('/api/session')).json()).user).toBeNull();
  });

  it('a signed-in session that signs in again (another account) loses the old id', async () => {
    const c = new TestClient(t.app, freshAddress());
    const before = await createSession(db, await userIdOfStudent(db, OWN_STUDENT));
    c.cookies.set(SESSION_COOKIE, before);
    await c.signInAdmin();
    expect(c.cookies.get(SESSION_COOKIE)).not.toBe(before);
    expect(await db.selectFrom('sessions').select('id_hash').where('id_hash', '=', hashToken(before)).executeTakeFirst()).toBeUndefined();
    expect(SessionAnswerSchema.parse((await c.get('/api/session')).json()).user).toMatchObject({ role: 'staff' });
  });
});

describe('what the sessions table keeps', () => {
  it('only the sha256 of the id, never the id itself', async () => {
    const c = await new TestClient(t.app, freshAddress()).signInStudent(registered.student_id, registered.password);
    const token = c.cookies.get(SESSION_COOKIE)!;
    expect(token).toMatch(/^[\w-]{43}$/);
    const rows = await db.selectFrom('sessions').selectAll().execute();
    expect(rows.some((row) => row.id_hash === hashToken(token))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('a cookie longer than any real id is ignored without a lookup error', async () => {
    const c = new TestClient(t.app, freshAddress());
    c.cookies.set(SESSION_COOKIE, 'x'.repeat(5000));
    const response = await c.get('/api/session');
    expect(response.statusCode).toBe(200);
    expect(SessionAnswerSchema.parse(response.json()).user).toBeNull();
  });
});

describe('cookie flags', () => {
  const flagsOf = (response: { cookies: { name: string; httpOnly?: boolean; secure?: boolean; sameSite?: string; path?: string }[] }, name: string) =>
    response.cookies.find((cookie) => cookie.name === name);

  it('the admin session cookie is httpOnly, SameSite=Lax, path /, and not Secure over plain HTTP', async () => {
    const response = await new TestClient(t.app, freshAddress()).post('/api/admin-login', SIGN_INS[1]!.body);
    const cookie = flagsOf(response, SESSION_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
  });

  it('a forged X-Forwarded-Proto is not believed without TRUST_PROXY', async () => {
    const response = await new TestClient(t.app, freshAddress()).post('/api/admin-login', SIGN_INS[1]!.body, { headers: { 'x-forwarded-proto': 'https' } });
    expect(flagsOf(response, SESSION_COOKIE)?.secure).toBeFalsy();
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('behind a TLS proxy (TRUST_PROXY names it, X-Forwarded-Proto: https) both cookies are Secure and HSTS is sent', async () => {
    const proxy = freshAddress();
    const proxied = await createTestApp({ trustProxy: [proxy] });
    try {
      const c = new TestClient(proxied.app, proxy);
      const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' };
      const csrf = await proxied.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie', headers, remoteAddress: c.ip });
      expect(flagsOf(csrf, CSRF_COOKIE)).toMatchObject({ secure: true, sameSite: 'Lax' });
      expect(flagsOf(csrf, CSRF_COOKIE)?.httpOnly).toBeFalsy();
      for (const sign of SIGN_INS) {
        const response = await c.post(sign.url, sign.body, { headers });
        expect(response.statusCode, response.body).toBe(200);
        expect(flagsOf(response, SESSION_COOKIE)).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax' });
        expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      }
      // The session row records the client's address from X-Forwarded-For, not the proxy's.
      const row = await proxied.database.db.selectFrom('sessions').select('ip').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
      expect(row.ip).toBe('203.0.113.9');
      const logout = await c.post('/logout', undefined, { headers });
      expect(flagsOf(logout, SESSION_COOKIE)).toMatchObject({ secure: true, httpOnly: true });
    } finally {
      await proxied.close();
    }
  });
});

describe('"Keep me signed in on this device" (D47): the cookie ends with the browser unless ticked', () => {
  /** The raw Set-Cookie line of the session cookie, to read Max-Age and Expires as the browser does. */
  const sessionSetCookie = (response: { headers: { 'set-cookie'?: string | string[] } }) =>
    [response.headers['set-cookie'] ?? []].flat().find((line) => line.startsWith(`${SESSION_COOKIE}=`));
  // A staff sign-in's cookie lasts SESSION_TTL_HOURS; a student's REMEMBER_DAYS from each use (D71).
  const maxAgeOf = (url: string) => (url === '/api/admin-login' ? testConfig().sessionTtlMs : testConfig().rememberedSessionMs) / 1000;

  it.each(SIGN_INS)('$url without remember: a browser-session cookie (no Max-Age, no Expires)', async ({ url, body }) => {
    for (const sent of [body, { ...body, remember: false }]) {
      const response = await new TestClient(t.app, freshAddress()).post(url, sent);
      expect(response.statusCode, response.body).toBe(200);
      const line = sessionSetCookie(response);
      expect(line).toBeDefined();
      expect(line).not.toMatch(/max-age/i);
      expect(line).not.toMatch(/expires/i);
    }
  });

  it.each(SIGN_INS)('$url with remember: the cookie lasts the session’s lifetime (staff SESSION_TTL_HOURS, students REMEMBER_DAYS)', async ({ url, body }) => {
    const c = new TestClient(t.app, freshAddress());
    const response = await c.post(url, { ...body, remember: true });
    expect(response.statusCode, response.body).toBe(200);
    const line = sessionSetCookie(response);
    expect(line).toMatch(new RegExp(`Max-Age=${maxAgeOf(url)}(;|$)`));
    const row = await db.selectFrom('sessions').select('remember').where('id_hash', '=', hashToken(c.cookies.get(SESSION_COOKIE)!)).executeTakeFirstOrThrow();
    expect(row.remember).toBe(1);
  });

  it.each(SIGN_INS)('$url refuses a remember that is not true or false, with 400 and no session', async ({ url, body }) => {
    for (const remember of ['yes', 1, 'true', null, {}]) {
      const c = new TestClient(t.app, freshAddress());
      const response = await c.post(url, { ...body, remember });
      expect(response.statusCode, response.body).toBe(400);
      expect(errorShapeProblem(response)).toBeNull();
      expect(ApiErrorSchema.parse(response.json()).errors?.remember).toEqual(['Keep me signed in is true or false.']);
      expect(sessionSetCookie(response)).toBeUndefined();
    }
  });
});

describe('CSRF on every state-changing route (from the route table)', () => {
  const stateChanging = routeRows(t.app).filter((row) => !['GET', 'HEAD', 'OPTIONS'].includes(row.method) && row.access);
  // The second factor's samples turn the caller's second factor on to make their calls valid; the
  // tests after these sign the administrator in with a password alone.
  afterAll(async () => {
    await db.updateTable('users').set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null }).where('role', '=', 'staff').execute();
  });

  it('finds the state-changing routes, and only gate scanners and the mail program’s one-click unsubscribe opt out', () => {
    expect(stateChanging.length).toBeGreaterThan(20);
    // Neither is authenticated by the session cookie: a scanner's key, a message's signed token (D84).
    expect(stateChanging.filter((row) => !row.csrf).map((row) => `${row.key} ${accessLabel(row.access)}`).sort()).toEqual([
      'POST /api/attendance/scans device',
      'POST /api/mail/unsubscribe public',
    ]);
  });

  describe.each(stateChanging.filter((row) => row.csrf).map((row) => [row.key, row] as const))('%s', (_key, row) => {
    it.each(['no header', 'wrong header', 'header without cookie', 'empty cookie and header'] as const)(
      'refuses with 403 csrf_failed (%s), as a caller the route admits (the administrator, else the office, else a parent), changing nothing',
      async (variant) => {
        const sample = sampleFor(row.method, row.url)!;
        // The administrator where the table admits them; the office where it admits staff but not
        // the administrator (an absence note's decision, D93); a parent on the family's routes.
        const admits = accessRowFor(row.method, row.url)?.callers;
        const caller = row.access === 'family' ? 'parent' : admits?.admin === 'allowed' ? 'admin' : admits?.office === 'allowed' ? 'office' : 'parent';
        const request = await sample.request({ db, caller, student: OWN_STUDENT });
        const userId = caller === 'parent' ? await userIdOfGuardian(db) : await userIdOfAdmin(db, caller === 'office' ? DEMO_STAFF.office.username : DEMO_ADMIN.username);
        const token = await createSession(db, userId);
        const csrf = 'c'.repeat(43);
        const cookies = [`${SESSION_COOKIE}=${token}`];
        if (variant !== 'header without cookie') cookies.push(`${CSRF_COOKIE}=${variant === 'empty cookie and header' ? '' : csrf}`);
        const headers: Record<string, string> = { ...request.headers, cookie: cookies.join('; ') };
        if (variant === 'wrong header') headers[CSRF_HEADER] = 'd'.repeat(43);
        if (variant === 'header without cookie') headers[CSRF_HEADER] = csrf;
        if (variant === 'empty cookie and header') headers[CSRF_HEADER] = '';
        let payload = request.payload;
        if (payload === undefined && request.body !== undefined) {
          payload = JSON.stringify(request.body);
          headers['content-type'] = 'application/json';
        }
        const studentsBefore = await db.selectFrom('students').select(['id', 'updated_at']).orderBy('updated_at', 'desc').limit(1).executeTakeFirst();
        const response = await t.app.inject({ method: row.method, url: request.url, headers, payload, remoteAddress: freshAddress() });
        expect(response.statusCode, response.body).toBe(403);
        expect(ApiErrorSchema.parse(response.json()).code).toBe('csrf_failed');
        expect(errorShapeProblem(response)).toBeNull();
        const studentsAfter = await db.selectFrom('students').select(['id', 'updated_at']).orderBy('updated_at', 'desc').limit(1).executeTakeFirst();
        expect(studentsAfter).toEqual(studentsBefore);
      },
    );
  });

  it('the same call with the matching header passes the CSRF check (so the refusals above are CSRF, not something else)', async () => {
    const c = new TestClient(t.app, freshAddress());
    const token = await createSession(db, await userIdOfAdmin(db));
    c.cookies.set(SESSION_COOKIE, token);
    const response = await c.post('/api/scanner-devices', { name: 'CSRF control' });
    expect(response.statusCode).toBe(201);
  });
});

describe('the CSRF token is bound to the session (an HMAC of its id) and rotates at sign-in and sign-out', () => {
  /** A state-changing call with this session cookie and this token in both the XSRF cookie and the header. */
  const callWith = (sessionToken: string | undefined, csrf: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/scanner-devices',
      payload: { name: 'CSRF binding' },
      headers: {
        cookie: [sessionToken ? `${SESSION_COOKIE}=${sessionToken}` : '', `${CSRF_COOKIE}=${csrf}`].filter(Boolean).join('; '),
        [CSRF_HEADER]: csrf,
      },
      remoteAddress: freshAddress(),
    });

  it('a value the browser made up is refused even when cookie and header agree', async () => {
    const c = await new TestClient(t.app, freshAddress()).signInAdmin();
    const response = await callWith(c.cookies.get(SESSION_COOKIE), 'c'.repeat(43));
    expect(response.statusCode, response.body).toBe(403);
    expect(ApiErrorSchema.parse(response.json()).code).toBe('csrf_failed');
    expect((await callWith(c.cookies.get(SESSION_COOKIE), c.cookies.get(CSRF_COOKIE)!)).statusCode).toBe(201);
  });

  it("a token from one session is refused with another session's cookie", async () => {
    const one = await new TestClient(t.app, freshAddress()).signInAdmin();
    const other = await new TestClient(t.app, freshAddress()).signInAdmin();
    expect(one.cookies.get(CSRF_COOKIE)).not.toBe(other.cookies.get(CSRF_COOKIE));
    const crossed = await callWith(one.cookies.get(SESSION_COOKIE), other.cookies.get(CSRF_COOKIE)!);
    expect(crossed.statusCode, crossed.body).toBe(403);
    expect(ApiErrorSchema.parse(crossed.json()).code).toBe('csrf_failed');
  });

  it('a token from before sign-in is refused after it; sign-in and sign-out each issue a new one', async () => {
    const c = new TestClient(t.app, freshAddress());
    await c.fetchCsrf();
    const before = c.cookies.get(CSRF_COOKIE)!;
    const signIn = await c.post('/api/admin-login', SIGN_INS[1]!.body);
    expect(signIn.statusCode).toBe(200);
    const during = signIn.cookies.find((cookie) => cookie.name === CSRF_COOKIE)?.value;
    expect(during).toBeDefined();
    expect(during).not.toBe(before);
    const session = c.cookies.get(SESSION_COOKIE)!;
    const stale = await callWith(session, before);
    expect(stale.statusCode, stale.body).toBe(403);
    expect(ApiErrorSchema.parse(stale.json()).code).toBe('csrf_failed');

    const logout = await c.post('/logout');
    const after = logout.cookies.find((cookie) => cookie.name === CSRF_COOKIE)?.value;
    expect(after).toBeDefined();
    expect(after).not.toBe(during);
    // The signed-out session's token no longer works for a visitor call; the new one does.
    const signInAgain = (csrf: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin-login',
        payload: SIGN_INS[1]!.body,
        headers: { cookie: `${CSRF_COOKIE}=${csrf}`, [CSRF_HEADER]: csrf },
        remoteAddress: freshAddress(),
      });
    const withOld = await signInAgain(during!);
    expect(withOld.statusCode, withOld.body).toBe(403);
    expect((await signInAgain(after!)).statusCode).toBe(200);
  });
});

describe('sign-out', () => {
  it('ends the server-side row even when the browser keeps the cookie, and is harmless without a session', async () => {
    const c = await new TestClient(t.app, freshAddress()).signInAdmin();
    const token = c.cookies.get(SESSION_COOKIE)!;
    expect((await c.post('/logout')).statusCode).toBe(204);
    expect(await db.selectFrom('sessions').select('id_hash').where('id_hash', '=', hashToken(token)).executeTakeFirst()).toBeUndefined();
    const stale = new TestClient(t.app, freshAddress());
    stale.cookies.set(SESSION_COOKIE, token);
    expect((await stale.get('/api/students')).statusCode).toBe(401);
    expect((await new TestClient(t.app, freshAddress()).post('/logout')).statusCode).toBe(204);
  });
});
