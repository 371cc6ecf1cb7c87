import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { testConfig } from '../../../tests/support/test-config.js';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { nowIso } from '../db/database.js';
import { DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { hashPassword } from '../auth/password.js';
import { PENDING_SIGN_IN_COOKIE } from '../auth/pending-sign-in.js';
import { SESSION_COOKIE } from '../http/session.js';
import { AdminLoginAnswerSchema, SessionAnswerSchema } from '../../shared/auth.schemas.js';
import { EnrolmentAnswerSchema, RecoveryCodesAnswerSchema, SecondFactorStatusSchema } from '../../shared/staff-2fa.schemas.js';
import { StaffAccountWithPasswordSchema } from '../../shared/staff.schemas.js';
import type { StaffRole } from '../../shared/staff.js';
import { secondFactorRule } from './staff-2fa.service.js';

/**
 * The staff second factor through the API, with real codes computed here by the same
 * library the server uses. A code is taken once, so each test uses its own staff account and at
 * most the codes of the current and the next time step (both inside the server's tolerance).
 */

const PASSWORD = 'staff-2fa-passphrase';
let t: TestApp;
let ipCounter = 0;
const others: FastifyInstance[] = [];

beforeAll(async () => {
  t = await createTestApp({ staff2fa: 'optional' });
});
afterAll(async () => {
  for (const app of others) await app.close();
  await t.close();
});

/** A second app over the same database with another STAFF_2FA (a restart with a changed variable). */
async function appWith(overrides: Partial<Config>): Promise<FastifyInstance> {
  const app = await buildApp(testConfig(overrides), { db: t.database.db }, { logger: false, webRoot: '/nonexistent' });
  await app.ready();
  others.push(app);
  return app;
}

const client = (app: FastifyInstance = t.app) => new TestClient(app, `10.16.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);

let staffCounter = 0;
/** A fresh staff account with a known password. */
async function addStaff(role: StaffRole = 'administrator'): Promise<string> {
  const username = `tfa.${role}.${++staffCounter}`;
  const iso = nowIso();
  await t.database.db
    .insertInto('users')
    .values({ role: 'staff', staff_role: role, username, display_name: `Test ${role}`, password_hash: await hashPassword(PASSWORD), created_at: iso, updated_at: iso })
    .execute();
  return username;
}

/** The app's code now, or `stepsAhead` time steps later (the server takes the next step's code too). */
const codeFor = (secret: string, stepsAhead = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * stepsAhead });

async function sessionOf(c: TestClient) {
  return SessionAnswerSchema.parse((await c.get('/api/session')).json()).user;
}

/** Signs in with the password and sets the second factor up; answers the secret and recovery codes (the current step is used). */
async function enrolled(username: string, app: FastifyInstance = t.app) {
  const c = await client(app).signInAdmin(username, PASSWORD);
  const enrolment = EnrolmentAnswerSchema.parse((await c.post('/api/staff-2fa/enrol', { current_password: PASSWORD })).json());
  const confirmed = await c.post('/api/staff-2fa/confirm', { code: await codeFor(enrolment.secret) });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  await c.post('/logout');
  return { secret: enrolment.secret, recoveryCodes: RecoveryCodesAnswerSchema.parse(confirmed.json()).recovery_codes };
}

/** The password step of an account with a second factor: no session, the pending cookie set. */
async function passwordStep(username: string, app: FastifyInstance = t.app, remember = false) {
  const c = client(app);
  const response = await c.post('/api/admin-login', { username, password: PASSWORD, remember });
  expect(response.statusCode, response.body).toBe(200);
  expect(AdminLoginAnswerSchema.parse(response.json())).toEqual({ second_factor: 'totp' });
  return c;
}

describe('enrolment', () => {
  it('shows a new secret as text, otpauth URI and QR code; a first code turns it on and answers ten recovery codes once', async () => {
    const username = await addStaff();
    const c = await client().signInAdmin(username, PASSWORD);
    expect(SecondFactorStatusSchema.parse((await c.get('/api/staff-2fa')).json())).toEqual({ rule: 'optional', enabled: false, recovery_codes_left: 0 });

    const enrolment = EnrolmentAnswerSchema.parse((await c.post('/api/staff-2fa/enrol', { current_password: PASSWORD })).json());
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.otpauth_uri).toContain(`otpauth://totp/`);
    expect(enrolment.otpauth_uri).toContain(`:${username}?secret=${enrolment.secret}`);
    expect(enrolment.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(enrolment.qr_code.split(',')[1]!, 'base64').toString()).toContain('<svg');

    // Stored sealed: the table never holds the secret as the app reads it.
    const row = await t.database.db.selectFrom('users').select(['totp_secret', 'totp_enabled_at']).where('username', '=', username).executeTakeFirstOrThrow();
    expect(row.totp_secret).toMatch(/^v1\./);
    expect(row.totp_secret).not.toContain(enrolment.secret);
    expect(row.totp_enabled_at).toBeNull();

    const wrong = String((Number(await codeFor(enrolment.secret)) + 1) % 1_000_000).padStart(6, '0');
    expect(expectError(await c.post('/api/staff-2fa/confirm', { code: wrong }), 400, 'validation_failed').errors?.code?.[0]).toMatch(/not right/);
    expectError(await c.post('/api/staff-2fa/confirm', { code: '12345' }), 400, 'validation_failed');

    const confirmed = await c.post('/api/staff-2fa/confirm', { code: await codeFor(enrolment.secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const codes = RecoveryCodesAnswerSchema.parse(confirmed.json()).recovery_codes;
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(new Set(codes).size).toBe(10);
    const stored = await t.database.db.selectFrom('staff_recovery_codes').select('code_hash').innerJoin('users', 'users.id', 'staff_recovery_codes.user_id').where('users.username', '=', username).execute();
    expect(stored).toHaveLength(10);
    expect(stored.map((s) => s.code_hash)).not.toContain(codes[0]);

    expect(SecondFactorStatusSchema.parse((await c.get('/api/staff-2fa')).json())).toEqual({ rule: 'optional', enabled: true, recovery_codes_left: 10 });
    // Never shown again: a new enrolment is refused while it is on.
    expectError(await c.post('/api/staff-2fa/enrol', { current_password: PASSWORD }), 409, 'conflict');
  });

  it('is for staff: a student is refused', async () => {
    const c = await client().signInStudent(DEMO_STUDENTS.registered.student_id, DEMO_STUDENTS.registered.password);
    expectError(await c.post('/api/staff-2fa/enrol', { current_password: DEMO_STUDENTS.registered.password }), 403, 'forbidden');
    expectError(await c.get('/api/staff-2fa'), 403, 'forbidden');
  });
});

describe('enrolment asks for the password', () => {
  it('starting enrolment needs the current password: none or a wrong one is a field error and stores no secret', async () => {
    const username = await addStaff();
    const c = await client().signInAdmin(username, PASSWORD);
    const secretOf = async () => (await t.database.db.selectFrom('users').select('totp_secret').where('username', '=', username).executeTakeFirstOrThrow()).totp_secret;

    expectError(await c.post('/api/staff-2fa/enrol'), 400, 'validation_failed');
    const missing = expectError(await c.post('/api/staff-2fa/enrol', {}), 400, 'validation_failed');
    expect(missing.errors?.current_password?.[0]).toBe('Enter your current password.');
    expectError(await c.post('/api/staff-2fa/enrol', { current_password: '' }), 400, 'validation_failed');
    const wrong = expectError(await c.post('/api/staff-2fa/enrol', { current_password: `${PASSWORD}-not` }), 400, 'validation_failed');
    expect(wrong.errors?.current_password?.[0]).toBe('Current password is incorrect.');
    expect(await secretOf()).toBeNull();

    const started = await c.post('/api/staff-2fa/enrol', { current_password: PASSWORD });
    expect(started.statusCode, started.body).toBe(200);
    expect(await secretOf()).toMatch(/^v1\./);
  });

  it('wrong passwords at enrolment are throttled like a password change: past the free ones, 429', async () => {
    const username = await addStaff();
    const c = await client().signInAdmin(username, PASSWORD);
    const statuses: number[] = [];
    for (let i = 0; i < 8 && !statuses.includes(429); i++) statuses.push((await c.post('/api/staff-2fa/enrol', { current_password: `wrong-${i}` })).statusCode);
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses).toContain(429);
  });
});

describe('turning the second factor on', () => {
  it('ends every other session of the account, full ones too; the caller goes on under a new id', async () => {
    const username = await addStaff('principal');
    const elsewhere = await client().signInAdmin(username, PASSWORD);
    const c = await client().signInAdmin(username, PASSWORD);
    expect((await elsewhere.get('/api/staff-2fa')).statusCode).toBe(200);
    const before = c.cookies.get(SESSION_COOKIE);

    const { secret } = EnrolmentAnswerSchema.parse((await c.post('/api/staff-2fa/enrol', { current_password: PASSWORD })).json());
    const confirmed = await c.post('/api/staff-2fa/confirm', { code: await codeFor(secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    expect(c.cookies.get(SESSION_COOKIE)).toBeDefined();
    expect(c.cookies.get(SESSION_COOKIE)).not.toBe(before);
    expect((await sessionOf(c))?.username).toBe(username);
    expect((await c.get('/api/staff-2fa')).json()).toMatchObject({ enabled: true });
    // The session opened with the password alone is over: the factor now guards the account.
    expect(await sessionOf(elsewhere)).toBeNull();
    expectError(await elsewhere.get('/api/staff-2fa'), 401, 'unauthenticated');
    const userId = (await t.database.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
    const rows = await t.database.db.selectFrom('sessions').select('id_hash').where('user_id', '=', userId).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('sign-in with a second factor', () => {
  it('the password alone starts no session; the code from the app does, keeping "Keep me signed in"', async () => {
    const username = await addStaff('office');
    const { secret } = await enrolled(username);
    const c = client();
    const first = await c.post('/api/admin-login', { username, password: PASSWORD, remember: true });
    expect(first.json()).toEqual({ second_factor: 'totp' });
    expect(first.cookies.find((cookie) => cookie.name === SESSION_COOKIE)).toBeUndefined();
    const pending = first.cookies.find((cookie) => cookie.name === PENDING_SIGN_IN_COOKIE);
    expect(pending).toMatchObject({ httpOnly: true, path: '/api/admin-login', maxAge: 300 });
    expect(await sessionOf(c)).toBeNull();
    expectError(await c.get('/api/students'), 401, 'unauthenticated');

    const second = await c.post('/api/admin-login/totp', { code: await codeFor(secret, 1) });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toEqual({ name: 'Test office', role: 'staff', staff_role: 'office' });
    const session = second.cookies.find((cookie) => cookie.name === SESSION_COOKIE);
    expect(session?.maxAge).toBeGreaterThan(0);
    expect(second.cookies.find((cookie) => cookie.name === PENDING_SIGN_IN_COOKIE)?.value).toBe('');
    expect((await sessionOf(c))?.staff_role).toBe('office');
    expect((await c.get('/api/students')).statusCode).toBe(200);
  });

  it('a code is taken once: the same code again is refused', async () => {
    const username = await addStaff();
    const { secret } = await enrolled(username);
    const code = await codeFor(secret, 1);
    const c = await passwordStep(username);
    expect((await c.post('/api/admin-login/totp', { code })).statusCode).toBe(200);
    await c.post('/logout');

    const again = await passwordStep(username);
    const refused = expectError(await again.post('/api/admin-login/totp', { code }), 400, 'validation_failed');
    expect(refused.errors?.code?.[0]).toMatch(/used already/);
    // The code of the step used at enrolment is older still: refused too.
    expectError(await again.post('/api/admin-login/totp', { code: await codeFor(secret, -1) }), 400, 'validation_failed');
    expect(await sessionOf(again)).toBeNull();
  });

  it('wrong codes count against the password throttle of the account: past the free ones, 429, and the password waits too', async () => {
    const username = await addStaff();
    const { secret } = await enrolled(username);
    const c = await passwordStep(username);
    const wrong = String((Number(await codeFor(secret)) + 500_000) % 1_000_000).padStart(6, '0');
    const statuses: number[] = [];
    for (let i = 0; i < 8 && !statuses.includes(429); i++) statuses.push((await c.post('/api/admin-login/totp', { code: wrong })).statusCode);
    // The password step was the first attempt; five failures are free (D37), so the sixth waits.
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    const throttled = expectError(await c.post('/api/admin-login/totp', { code: await codeFor(secret, 1) }), 429, 'account_throttled');
    expect(throttled.message).toMatch(/wait/);
    expectError(await client().post('/api/admin-login', { username, password: PASSWORD }), 429, 'account_throttled');
    expect(await sessionOf(c)).toBeNull();
  });

  it('a recovery code signs in once, in any case and with or without its dash', async () => {
    const username = await addStaff();
    const { recoveryCodes } = await enrolled(username);
    const [code] = recoveryCodes as [string];
    const c = await passwordStep(username);
    const used = await c.post('/api/admin-login/totp', { recovery_code: ` ${code.replace('-', '').toUpperCase()} ` });
    expect(used.statusCode, used.body).toBe(200);
    expect(SecondFactorStatusSchema.parse((await c.get('/api/staff-2fa')).json()).recovery_codes_left).toBe(9);
    await c.post('/logout');

    const again = await passwordStep(username);
    const refused = expectError(await again.post('/api/admin-login/totp', { recovery_code: code }), 400, 'validation_failed');
    expect(refused.errors?.recovery_code?.[0]).toMatch(/used before/);
    expect((await again.post('/api/admin-login/totp', { recovery_code: recoveryCodes[1] })).statusCode).toBe(200);
  });

  it('the second step needs the half-done sign-in: none, a forged one or one of another account is refused', async () => {
    const username = await addStaff();
    const { secret } = await enrolled(username);
    expectError(await client().post('/api/admin-login/totp', { code: await codeFor(secret, 1) }), 401, 'unauthenticated');
    const c = await passwordStep(username);
    const real = c.cookies.get(PENDING_SIGN_IN_COOKIE)!;
    const [id, remember, expires, mac] = real.split('.');
    c.cookies.set(PENDING_SIGN_IN_COOKIE, `${Number(id) - 1}.${remember}.${expires}.${mac}`);
    expectError(await c.post('/api/admin-login/totp', { code: await codeFor(secret, 1) }), 401, 'unauthenticated');
    c.cookies.set(PENDING_SIGN_IN_COOKIE, `${id}.1.${expires}.${mac}`);
    expectError(await c.post('/api/admin-login/totp', { code: await codeFor(secret, 1) }), 401, 'unauthenticated');
    expectError(await c.post('/api/admin-login/totp', { code: '123456', recovery_code: 'abcde-23456' }), 400, 'validation_failed');
  });

  it('turning it off asks a current code, and the password alone signs in again', async () => {
    const username = await addStaff('principal');
    const { secret } = await enrolled(username);
    const c = await passwordStep(username);
    expectError(await c.post('/api/admin-login/totp', { recovery_code: 'zzzzz-zzzzz' }), 400, 'validation_failed');
    expect((await c.post('/api/admin-login/totp', { code: await codeFor(secret, 1) })).statusCode).toBe(200);
    expectError(await c.request('DELETE', '/api/staff-2fa', { body: {} }), 400, 'validation_failed');
    expectError(await c.request('DELETE', '/api/staff-2fa', { body: { code: await codeFor(secret, 1) } }), 400, 'validation_failed');
    expect((await c.get('/api/staff-2fa')).json()).toMatchObject({ enabled: true });
    await t.database.db.updateTable('users').set({ totp_last_step: null }).where('username', '=', username).execute();
    expect((await c.request('DELETE', '/api/staff-2fa', { body: { code: await codeFor(secret) } })).statusCode).toBe(204);
    expect((await c.get('/api/staff-2fa')).json()).toEqual({ rule: 'optional', enabled: false, recovery_codes_left: 0 });
    const rows = await t.database.db.selectFrom('users').select(['totp_secret', 'totp_enabled_at']).where('username', '=', username).executeTakeFirstOrThrow();
    expect(rows).toEqual({ totp_secret: null, totp_enabled_at: null });
    expect(AdminLoginAnswerSchema.parse((await client().post('/api/admin-login', { username, password: PASSWORD })).json())).toMatchObject({ role: 'staff' });
  });
});

describe('STAFF_2FA=required', () => {
  it('a staff member without a second factor gets a session that reaches only the enrolment until it is set up', async () => {
    const required = await appWith({ staff2fa: 'required' });
    const username = await addStaff('form_teacher');
    const c = client(required);
    const signIn = await c.post('/api/admin-login', { username, password: PASSWORD });
    expect(signIn.json()).toEqual({ name: 'Test form_teacher', role: 'staff', staff_role: 'form_teacher', second_factor_setup: true });
    expect((await sessionOf(c))?.second_factor_setup).toBe(true);
    expectError(await c.get('/api/students'), 403, 'second_factor_setup_required');
    expectError(await c.get('/api/registration-periods'), 403, 'second_factor_setup_required');
    expect(SecondFactorStatusSchema.parse((await c.get('/api/staff-2fa')).json())).toEqual({ rule: 'required', enabled: false, recovery_codes_left: 0 });

    const oldSession = c.cookies.get(SESSION_COOKIE);
    const { secret } = EnrolmentAnswerSchema.parse((await c.post('/api/staff-2fa/enrol', { current_password: PASSWORD })).json());
    const confirmed = await c.post('/api/staff-2fa/confirm', { code: await codeFor(secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // A new session id now that the session may do more.
    expect(c.cookies.get(SESSION_COOKIE)).not.toBe(oldSession);
    expect((await sessionOf(c))?.second_factor_setup).toBe(false);
    expect((await c.get('/api/students')).statusCode).toBe(200);
    // Required: it cannot be turned off.
    expectError(await c.request('DELETE', '/api/staff-2fa', { body: { code: await codeFor(secret, 1) } }), 403, 'forbidden');

    await c.post('/logout');
    const next = await passwordStep(username, required);
    expect((await next.post('/api/admin-login/totp', { code: await codeFor(secret, 1) })).statusCode).toBe(200);
    expect((await sessionOf(next))?.second_factor_setup).toBe(false);
  });
});

describe('a session made any way other than the sign-in stays limited to enrolment (STAFF_2FA=required)', () => {
  const NEW_PASSWORD = 'office-own-passphrase';

  /** An administrator with the factor set up, signed in on the required portal. */
  async function administrator(app: FastifyInstance) {
    const c = await client(app).signInAdmin(await addStaff('administrator'), PASSWORD);
    const { secret } = EnrolmentAnswerSchema.parse((await c.post('/api/staff-2fa/enrol', { current_password: PASSWORD })).json());
    expect((await c.post('/api/staff-2fa/confirm', { code: await codeFor(secret) })).statusCode).toBe(200);
    expect((await c.get('/api/staff')).statusCode).toBe(200);
    return c;
  }

  /** Signs in with a one-time password and makes the forced change; answers the client, still signed in. */
  async function forcedChange(app: FastifyInstance, username: string, oneTimePassword: string) {
    const c = client(app);
    const signIn = await c.post('/api/admin-login', { username, password: oneTimePassword });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(signIn.json()).toMatchObject({ second_factor_setup: true });
    expectError(await c.get('/api/students'), 403, 'password_change_required');
    const changed = await c.post('/api/change-password-staff', { current_password: oneTimePassword, password: NEW_PASSWORD });
    expect(changed.statusCode, changed.body).toBe(200);
    return c;
  }

  /** What the session after the change may reach: only the enrolment, until a code confirms it. */
  async function expectLimitedUntilEnrolled(c: TestClient) {
    expect((await sessionOf(c))?.second_factor_setup).toBe(true);
    for (const url of ['/api/students', '/api/review/documents', '/api/intake']) {
      expectError(await c.get(url), 403, 'second_factor_setup_required');
    }
    const { secret } = EnrolmentAnswerSchema.parse((await c.post('/api/staff-2fa/enrol', { current_password: NEW_PASSWORD })).json());
    expect((await c.post('/api/staff-2fa/confirm', { code: await codeFor(secret) })).statusCode).toBe(200);
    expect((await sessionOf(c))?.second_factor_setup).toBe(false);
    expect((await c.get('/api/students')).statusCode).toBe(200);
  }

  it('an office account an administrator created: the forced password change does not skip the enrolment', async () => {
    const required = await appWith({ staff2fa: 'required' });
    const admin = await administrator(required);
    const created = await admin.post('/api/staff', { username: `tfa.new.office.${++staffCounter}`, name: 'New Office', role: 'office' });
    expect(created.statusCode, created.body).toBe(201);
    const account = StaffAccountWithPasswordSchema.parse(created.json());
    const c = await forcedChange(required, account.username, account.one_time_password!);
    await expectLimitedUntilEnrolled(c);
  });

  it('an account whose password an administrator reset: the forced change does not skip the enrolment either', async () => {
    const required = await appWith({ staff2fa: 'required' });
    const admin = await administrator(required);
    const username = await addStaff('office');
    const id = (await t.database.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
    const reset = await admin.patch(`/api/staff/${id}`, { reset_password: true });
    expect(reset.statusCode, reset.body).toBe(200);
    const c = await forcedChange(required, username, StaffAccountWithPasswordSchema.parse(reset.json()).one_time_password!);
    await expectLimitedUntilEnrolled(c);
  });
});

describe('STAFF_2FA=off', () => {
  it('skips the code even for an account that has a second factor, and offers no enrolment', async () => {
    const off = await appWith({ staff2fa: 'off' });
    const username = await addStaff();
    await enrolled(username);
    const c = client(off);
    const signIn = await c.post('/api/admin-login', { username, password: PASSWORD });
    expect(signIn.json()).toEqual({ name: 'Test administrator', role: 'staff', staff_role: 'administrator' });
    expect((await c.get('/api/students')).statusCode).toBe(200);
    expect((await c.get('/api/staff-2fa')).json()).toMatchObject({ rule: 'off' });
    const fresh = await client(off).signInAdmin(await addStaff(), PASSWORD);
    expectError(await fresh.post('/api/staff-2fa/enrol', { current_password: PASSWORD }), 409, 'conflict');
  });
});

describe('the default rule (STAFF_2FA unset)', () => {
  it('requires it of administrators and the office on a real school, never on the demo school', async () => {
    const config = testConfig({ staff2fa: undefined });
    const db = t.database.db;
    expect(await secondFactorRule(db, config, 'administrator')).toBe('optional');
    const mark = await db.selectFrom('settings').selectAll().where('key', '=', 'demo_school').executeTakeFirstOrThrow();
    await db.deleteFrom('settings').where('key', '=', 'demo_school').execute();
    try {
      expect(await secondFactorRule(db, config, 'administrator')).toBe('required');
      expect(await secondFactorRule(db, config, 'office')).toBe('required');
      expect(await secondFactorRule(db, config, 'principal')).toBe('optional');
      expect(await secondFactorRule(db, config, 'form_teacher')).toBe('optional');
    } finally {
      await db.insertInto('settings').values(mark).execute();
    }
    expect(await secondFactorRule(db, testConfig({ staff2fa: 'off' }), 'administrator')).toBe('off');
  });
});
