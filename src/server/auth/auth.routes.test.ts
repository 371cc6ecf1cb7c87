import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { DEMO_ADMIN, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { listUndeclaredRoutes } from '../http/access.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { SESSION_COOKIE } from '../http/session.js';

const { registered, inProgress, firstLogin, passwordReset } = DEMO_STUDENTS;
const compact = (iso: string) => iso.replaceAll('-', '');

let t: TestApp;
let ipCounter = 0;
/** Each test signs in from its own address so address throttles of one test never touch another. */
const client = () => new TestClient(t.app, `10.2.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function expectError(response: { statusCode: number; json(): unknown }, status: number, code?: string) {
  expect(response.statusCode).toBe(status);
  const body = ApiErrorSchema.parse(response.json());
  if (code) expect(body.code).toBe(code);
  return body;
}

describe('route access declarations', () => {
  it('every registered route declares who may call it', () => {
    expect(t.app.routeTable.length).toBeGreaterThan(5);
    expect(listUndeclaredRoutes(t.app.routeTable)).toEqual([]);
  });

  it('the walk reports a route without a declaration', () => {
    expect(listUndeclaredRoutes([{ method: 'GET', url: '/api/oops', handler: () => undefined }])).toEqual(['GET /api/oops']);
  });
});

describe('CSRF and malformed input', () => {
  it('issues the XSRF-TOKEN cookie readable by the page', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
    expect(response.statusCode).toBe(204);
    const cookie = response.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(cookie?.value).toMatch(/^[\w-]{40,}$/);
    expect(cookie?.httpOnly).toBeFalsy();
  });

  it('refuses a state-changing call without the matching header', async () => {
    const c = client();
    await c.fetchCsrf();
    const missing = await c.post('/api/login-student', { student_id: registered.student_id, password: registered.password }, { csrf: false });
    expectError(missing, 403, 'csrf_failed');
    const wrong = await c.post('/api/login-student', { student_id: registered.student_id, password: registered.password }, {
      csrf: false,
      headers: { 'x-xsrf-token': 'not-the-token' },
    });
    expectError(wrong, 403, 'csrf_failed');
  });

  it('answers malformed JSON with 400 and the error shape', async () => {
    const c = client();
    const response = await c.post('/api/login-student', '{"student_id": ', { headers: { 'content-type': 'application/json' } });
    expectError(response, 400, 'bad_request');
  });

  it('answers missing fields with every field message', async () => {
    const response = await client().post('/api/login-student', { student_id: '' });
    const body = expectError(response, 400, 'validation_failed');
    expect(Object.keys(body.errors ?? {})).toEqual(expect.arrayContaining(['student_id', 'password']));
  });
});

describe('student sign-in', () => {
  it('signs in with ID and password, sets an httpOnly SameSite cookie, and knows the user', async () => {
    const c = client();
    const response = await c.post('/api/login-student', { student_id: registered.student_id, password: registered.password });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      name: `${registered.first_name} ${registered.last_name}`,
      student_id: registered.student_id,
      first_login: 0,
      password_reset: 0,
    });
    const cookie = response.cookies.find((x) => x.name === SESSION_COOKIE);
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(response.body).not.toMatch(/argon2|password_hash/);
    const session = await c.get('/api/session');
    expect(session.json().user).toMatchObject({ role: 'student', student_id: registered.student_id, initials: 'AM' });
  });

  it('gives one message for a wrong password and an unknown ID', async () => {
    const wrong = expectError(await client().post('/api/login-student', { student_id: inProgress.student_id, password: 'wrong-password' }), 401, 'invalid_credentials');
    const unknown = expectError(await client().post('/api/login-student', { student_id: '99999999', password: 'wrong-password' }), 401, 'invalid_credentials');
    expect(wrong.message).toBe(unknown.message);
  });

  it('changes the session id at sign-in (no fixation) and ends it at logout', async () => {
    const c = client();
    await c.signInStudent(registered.student_id, registered.password);
    const first = c.cookies.get(SESSION_COOKIE);
    await c.signInStudent(registered.student_id, registered.password);
    const second = c.cookies.get(SESSION_COOKIE);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    // The replaced session no longer works.
    const replay = new TestClient(t.app);
    replay.cookies.set(SESSION_COOKIE, first!);
    expect((await replay.get('/api/session')).json().user).toBeNull();

    const out = await c.post('/logout');
    expect(out.statusCode).toBe(204);
    expect((await c.get('/api/session')).json().user).toBeNull();
    const replaySecond = new TestClient(t.app);
    replaySecond.cookies.set(SESSION_COOKIE, second!);
    expect((await replaySecond.get('/api/session')).json().user).toBeNull();
  });

  it('locks an account after five failures, even for the right password', async () => {
    const { db } = t.database;
    const target = await db.selectFrom('students').select('id').where('id', 'like', '2023%').orderBy('id').limit(1).offset(3).executeTakeFirstOrThrow();
    const ip = client();
    for (let i = 0; i < 5; i++) {
      expectError(await ip.post('/api/login-student', { student_id: target.id, password: `bad-${i}` }), 401);
    }
    const locked = expectError(await ip.post('/api/login-student', { student_id: target.id, password: 'portal-demo-2026' }), 429, 'account_locked');
    expect(locked.message).toMatch(/locked/);
  });

  it('throttles one address after many failures across accounts', async () => {
    const c = client();
    let last = 0;
    for (let i = 0; i < 30; i++) {
      last = (await c.post('/api/login-student', { student_id: `8888${String(i).padStart(4, '0')}`, password: 'nope-nope' })).statusCode;
    }
    expect(last).toBe(401);
    const refused = await c.post('/api/login-student', { student_id: registered.student_id, password: registered.password });
    expectError(refused, 429, 'too_many_requests');
    expect(refused.headers['retry-after']).toBeDefined();
  });
});

describe('user status before sign-in', () => {
  it('answers the flags, and the same shape for an unknown ID', async () => {
    expect((await client().get(`/api/user/${passwordReset.student_id}`)).json()).toEqual([
      { student_id: passwordReset.student_id, first_login: 0, password_reset: 1 },
    ]);
    expect((await client().get('/api/user/00000000')).json()).toEqual([{ student_id: '00000000', first_login: 0, password_reset: 0 }]);
    expectError(await client().get('/api/user/bad%20id!'), 400);
  });
});

describe('first login and the forced change', () => {
  it('refuses a wrong date of birth and a malformed one', async () => {
    expectError(await client().post('/api/first-login', { identifier: firstLogin.sea_no, date_of_birth: '20000101' }), 401, 'invalid_credentials');
    expectError(await client().post('/api/first-login', { identifier: firstLogin.sea_no, date_of_birth: '2000-01-01' }), 401, 'invalid_credentials');
    for (const malformed of ['2014-3-9', '09/03/2014', '2014-02-30', '201403']) {
      const body = expectError(await client().post('/api/first-login', { identifier: firstLogin.sea_no, date_of_birth: malformed }), 400, 'validation_failed');
      expect(body.errors?.date_of_birth).toEqual(['Enter the date of birth as yyyy-MM-dd.']);
    }
  });

  it('takes the date of birth as yyyy-MM-dd, as the screen shows it, and still as yyyymmdd', async () => {
    for (const dateOfBirth of [firstLogin.date_of_birth, compact(firstLogin.date_of_birth)]) {
      const response = await client().post('/api/first-login', { identifier: firstLogin.sea_no, date_of_birth: dateOfBirth });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ student_id: firstLogin.student_id, first_login: 1 });
    }
  });

  it('signs in with the SEA number, must change the password, then uses it', async () => {
    const c = client();
    const response = await c.post('/api/first-login', { identifier: firstLogin.sea_no.toLowerCase(), date_of_birth: compact(firstLogin.date_of_birth) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ student_id: firstLogin.student_id, first_login: 1 });
    expect((await c.get('/api/session')).json().user).toMatchObject({ first_login: 1 });

    const tooShort = await c.post('/api/change-password-student', { student_id: firstLogin.student_id, reset_password: 'short' });
    expectError(tooShort, 400, 'validation_failed');
    const isBirthDate = await c.post('/api/change-password-student', { student_id: firstLogin.student_id, reset_password: compact(firstLogin.date_of_birth) });
    expect(expectError(isBirthDate, 400).errors?.reset_password?.[0]).toMatch(/date of birth/);
    const other = await c.post('/api/change-password-student', { student_id: registered.student_id, reset_password: 'a-good-new-password' });
    expectError(other, 403, 'forbidden');

    const changed = await c.post('/api/change-password-student', { student_id: firstLogin.student_id, reset_password: 'a-good-new-password' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ name: `${firstLogin.first_name} ${firstLogin.last_name}` });
    expect((await c.get('/api/session')).json().user).toMatchObject({ first_login: 0, password_reset: 0 });

    await client().signInStudent(firstLogin.student_id, 'a-good-new-password');
    const again = await client().post('/api/first-login', { identifier: firstLogin.birth_certificate_no, date_of_birth: compact(firstLogin.date_of_birth) });
    expectError(again, 409, 'conflict');
  });
});

describe('password reset by the office', () => {
  it('is refused to visitors and students', async () => {
    expectError(await client().post('/api/reset-password-student', { student_id: inProgress.student_id }), 401, 'unauthenticated');
    const student = await client().signInStudent(registered.student_id, registered.password);
    expectError(await student.post('/api/reset-password-student', { student_id: inProgress.student_id }), 403, 'forbidden');
  });

  it('sets the date of birth as password, ends the student’s sessions, and forces a change', async () => {
    const student = await client().signInStudent(inProgress.student_id, inProgress.password);
    const admin = await client().signInAdmin();
    const reset = await admin.post('/api/reset-password-student', { student_id: inProgress.student_id });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ message: 'password reset successfully' });
    expect((await student.get('/api/session')).json().user).toBeNull();

    const dob = await t.database.db.selectFrom('students').select('date_of_birth').where('id', '=', inProgress.student_id).executeTakeFirstOrThrow();
    expectError(await client().post('/api/login-student', { student_id: inProgress.student_id, password: inProgress.password }), 401);
    const c = client();
    const signIn = await c.post('/api/login-student', { student_id: inProgress.student_id, password: compact(dob.date_of_birth!) });
    expect(signIn.json()).toMatchObject({ password_reset: 1 });
    const changed = await c.post('/api/change-password-student', { student_id: inProgress.student_id, reset_password: inProgress.password });
    expect(changed.statusCode).toBe(200);
    await client().signInStudent(inProgress.student_id, inProgress.password);
  });

  it('answers 404 for an unknown student', async () => {
    const admin = await client().signInAdmin();
    expectError(await admin.post('/api/reset-password-student', { student_id: '77777777' }), 404, 'not_found');
  });
});

describe('own password change', () => {
  it('needs the current password and ends the other sessions', async () => {
    const demoReset = await client().post('/api/login-student', { student_id: passwordReset.student_id, password: compact(passwordReset.date_of_birth) });
    expect(demoReset.json()).toMatchObject({ password_reset: 1 });

    const { db } = t.database;
    const target = await db.selectFrom('students').select('id').where('id', 'like', '2024%').orderBy('id').limit(1).offset(5).executeTakeFirstOrThrow();
    const first = await client().signInStudent(target.id, 'portal-demo-2026');
    const second = await client().signInStudent(target.id, 'portal-demo-2026');
    const noCurrent = await first.post('/api/change-password-student', { student_id: target.id, password: 'brand-new-password' });
    expect(expectError(noCurrent, 400).errors?.current_password).toBeDefined();
    const wrongCurrent = await first.post('/api/change-password-student', { student_id: target.id, password: 'brand-new-password', current_password: 'nope' });
    expect(expectError(wrongCurrent, 400).errors?.current_password).toEqual(['Current password is incorrect.']);
    const ok = await first.post('/api/change-password-student', { student_id: target.id, password: 'brand-new-password', current_password: 'portal-demo-2026' });
    expect(ok.statusCode).toBe(200);
    expect((await first.get('/api/session')).json().user).toMatchObject({ student_id: target.id });
    expect((await second.get('/api/session')).json().user).toBeNull();
  });

  it('throttles wrong current passwords without locking the account\'s sign-in', async () => {
    const { db } = t.database;
    const target = await db.selectFrom('students').select('id').where('id', 'like', '2024%').orderBy('id').limit(1).offset(6).executeTakeFirstOrThrow();
    const session = await client().signInStudent(target.id, 'portal-demo-2026');
    const change = (current_password: string) =>
      session.post('/api/change-password-student', { student_id: target.id, password: 'brand-new-password', current_password });
    for (let i = 0; i < 5; i++) expect(expectError(await change(`guess-${i}`), 400).errors?.current_password).toEqual(['Current password is incorrect.']);
    const refused = expectError(await change('portal-demo-2026'), 429);
    expect(refused.message).toMatch(/wait/);
    const user = await db.selectFrom('users').select('id').where('student_id', '=', target.id).executeTakeFirstOrThrow();
    const failures = await db.selectFrom('audit_log').select('id').where('action', '=', 'password-change-failed').where('entity_id', '=', String(user.id)).execute();
    expect(failures).toHaveLength(5);
    // The password is unchanged and sign-in still works: the guesses held back only the change.
    const again = await client().post('/api/login-student', { student_id: target.id, password: 'portal-demo-2026' });
    expect(again.statusCode).toBe(200);
  });
});

describe('admin sign-in', () => {
  it('says "Username field empty" for a blank name', async () => {
    const body = expectError(await client().post('/api/admin-login', { username: '  ', password: 'x' }), 400);
    expect(body.errors?.username).toEqual(['Username field empty']);
  });

  it('refuses a wrong password and signs in with the right one', async () => {
    expectError(await client().post('/api/admin-login', { username: DEMO_ADMIN.username, password: 'wrong' }), 401, 'invalid_credentials');
    const c = client();
    const response = await c.post('/api/admin-login', { username: DEMO_ADMIN.username.toUpperCase(), password: DEMO_ADMIN.password });
    expect(response.json()).toEqual({ name: 'Admin', role: 'admin' });
    expect((await c.get('/api/session')).json().user).toMatchObject({ role: 'admin', username: DEMO_ADMIN.username });
  });
});

describe('find my Student ID', () => {
  it('answers only the matching ID, 404 otherwise, and throttles', async () => {
    const row = await t.database.db
      .selectFrom('students')
      .select(['id', 'first_name', 'last_name', 'date_of_birth'])
      .where('id', '=', registered.student_id)
      .executeTakeFirstOrThrow();
    const c = client();
    const found = await c.post('/api/find-student-id', { first_name: row.first_name!.toUpperCase(), last_name: row.last_name, date_of_birth: row.date_of_birth });
    expect(found.json()).toEqual({ student_id: registered.student_id });
    expectError(await c.post('/api/find-student-id', { first_name: 'Nobody', last_name: 'Here', date_of_birth: '2010-01-01' }), 404, 'not_found');
    let status = 0;
    for (let i = 0; i < 10; i++) {
      status = (await c.post('/api/find-student-id', { first_name: `N${i}`, last_name: 'Here', date_of_birth: '2010-01-01' })).statusCode;
    }
    expect(status).toBe(429);
  });
});

describe('session expiry', () => {
  it('ends a session idle for too long and one past its absolute lifetime', async () => {
    const { db } = t.database;
    const idle = await client().signInStudent(registered.student_id, registered.password);
    const old = new Date(Date.now() - 2 * 3_600_000).toISOString();
    await db.updateTable('sessions').set({ last_seen_at: old }).where('user_id', 'in', db.selectFrom('users').select('id').where('student_id', '=', registered.student_id)).execute();
    expect((await idle.get('/api/session')).json().user).toBeNull();

    const absolute = await client().signInStudent(registered.student_id, registered.password);
    await db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('user_id', 'in', db.selectFrom('users').select('id').where('student_id', '=', registered.student_id)).execute();
    expect((await absolute.get('/api/session')).json().user).toBeNull();
  });
});
