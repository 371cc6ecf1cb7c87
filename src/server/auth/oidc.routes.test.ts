import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generate, generateSecret } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { TEST_PUBLIC_URL, testConfig } from '../../../tests/support/test-config.js';
import { startOidcProvider, type TestOidcProvider } from '../../../tests/support/oidc-provider.js';
import { buildApp } from '../app.js';
import type { Config, OidcProviderConfig } from '../config.js';
import { nowIso } from '../db/database.js';
import { DEMO_ADMIN, DEMO_STAFF, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { hashPassword } from './password.js';
import { PENDING_SIGN_IN_COOKIE } from './pending-sign-in.js';
import { createProviderSignIn, OIDC_PENDING_COOKIE, OIDC_PENDING_TTL_MS, parsePending } from './oidc.js';
import { SESSION_COOKIE } from '../http/session.js';
import { serverSecret } from '../http/server-secret.repository.js';
import { sealTotpSecret, totpSealingKey } from '../staff-2fa/totp-secret.js';
import { SessionAnswerSchema } from '../../shared/auth.schemas.js';
import { StaffSignInOptionsSchema } from '../../shared/staff-sign-in.js';
import { StaffAccountWithPasswordSchema, StaffListSchema } from '../../shared/staff.schemas.js';
import type { StaffRole } from '../../shared/staff.js';

/**
 * Staff sign-in through the school's own provider (docs/decisions.md D96), against a real OpenID
 * provider on 127.0.0.1 (tests/support/oidc-provider.ts: discovery, its own keys, PKCE required).
 * Each test signs in its own staff account, made here with its school e-mail, and its own person
 * at the provider.
 */

const CALLBACK = '/api/oidc/school/callback';
let idp: TestOidcProvider;
let t: TestApp;
let provider: OidcProviderConfig;
const others: FastifyInstance[] = [];
let ipCounter = 0;

beforeAll(async () => {
  idp = await startOidcProvider();
  await idp.register(`${TEST_PUBLIC_URL}${CALLBACK}`);
  provider = { id: 'school', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, buttonLabel: 'Sign in with Test School', trustsMfa: false };
  t = await createTestApp({ oidcProviders: [provider] });
});
afterAll(async () => {
  for (const app of others) await app.close();
  await t?.close();
  await idp?.close();
});

/** A second app over the same database with other settings (a restart with changed variables). */
async function appWith(overrides: Partial<Config>): Promise<FastifyInstance> {
  const app = await buildApp(testConfig({ oidcProviders: [provider], ...overrides }), { db: t.database.db }, { logger: false, webRoot: '/nonexistent' });
  await app.ready();
  others.push(app);
  return app;
}

const browser = (app: FastifyInstance = t.app) => new TestClient(app, `10.35.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);

let people = 0;
/** A staff account with a school e-mail, and its person at the provider (verified unless told). */
async function addPerson(options: { role?: StaffRole; verified?: boolean; disabled?: boolean; mustChangePassword?: boolean; classId?: string } = {}) {
  const n = ++people;
  const username = `sso.${n}`;
  const email = `Teacher.${n}@School.test`;
  const iso = nowIso();
  const role = options.role ?? 'form_teacher';
  const { id } = await t.database.db
    .insertInto('users')
    .values({
      role: 'staff',
      staff_role: role,
      username,
      display_name: `Teacher ${n}`,
      password_hash: await hashPassword('a-staff-password-long'),
      password_reset: options.mustChangePassword ? 1 : 0,
      sign_in_email: email.toLowerCase(),
      disabled: options.disabled ? 1 : 0,
      created_at: iso,
      updated_at: iso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (role === 'form_teacher') await t.database.db.insertInto('staff_classes').values({ user_id: id, class_id: options.classId ?? '1A' }).execute();
  const login = `person-${n}`;
  idp.accounts.set(login, { email, email_verified: options.verified ?? true, name: `Teacher ${n}` });
  return { id, username, email, login };
}

/** The browser starts a sign-in: answers the provider's authorization URL. */
async function start(client: TestClient, query = ''): Promise<URL> {
  const response = await client.get(`/api/oidc/school/start${query}`);
  expect(response.statusCode, response.body).toBe(302);
  const location = new URL(response.headers.location as string);
  expect(location.origin).toBe(idp.issuer);
  return location;
}

/** The browser comes back from the provider to the portal's callback. */
const callback = (client: TestClient, back: URL) => {
  expect(back.origin + back.pathname).toBe(`${TEST_PUBLIC_URL}${CALLBACK}`);
  return client.get(back.pathname + back.search);
};

const refusal = (response: LightMyRequestResponse) => {
  expect(response.statusCode, response.body).toBe(302);
  const location = new URL(response.headers.location as string, TEST_PUBLIC_URL);
  expect(location.pathname).toBe('/admin');
  expect(response.cookies.find((cookie) => cookie.name === SESSION_COOKIE && cookie.value !== '')).toBeUndefined();
  return location.searchParams.get('sign_in_error');
};

async function session(client: TestClient) {
  return SessionAnswerSchema.parse((await client.get('/api/session')).json());
}

/** A full sign-in: start, the provider's login, the callback. */
async function signIn(client: TestClient, login: string, options: { mfa?: boolean; query?: string } = {}) {
  const back = await idp.signInThrough((await start(client, options.query)).href, login, options);
  return callback(client, back);
}

describe('GET /api/staff-sign-in', () => {
  it("names the school's provider first, with its button's words, and says passwords are on", async () => {
    const answer = StaffSignInOptionsSchema.parse((await browser().get('/api/staff-sign-in')).json());
    expect(answer).toEqual({ providers: [{ id: 'school', label: 'Sign in with Test School' }], password_sign_in: true });
  });

  it('offers nothing new without OIDC_* (the portal as before)', async () => {
    const plain = await appWith({ oidcProviders: [] });
    expect(StaffSignInOptionsSchema.parse((await browser(plain).get('/api/staff-sign-in')).json())).toEqual({ providers: [], password_sign_in: true });
    expect(refusal(await browser(plain).get('/api/oidc/school/start'))).toBe('not_started');
  });
});

describe('a staff member signs in through the provider', () => {
  it('lands in the admin area as their own account, with their role and classes; the subject is kept and the sign-in audited', async () => {
    const person = await addPerson({ classId: '3A' });
    const client = browser();
    const authorize = await start(client);
    // Authorization Code with PKCE (S256), state and nonce, to PUBLIC_URL's callback.
    expect(authorize.searchParams.get('response_type')).toBe('code');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${TEST_PUBLIC_URL}${CALLBACK}`);
    const csrfBefore = client.cookies.get('XSRF-TOKEN');

    const response = await callback(client, await idp.signInThrough(authorize.href, person.login));
    expect(response.statusCode, response.body).toBe(302);
    expect(response.headers.location).toBe('/admin/dashboard');
    // A browser-session cookie, as a password sign-in without "Keep me signed in".
    const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie.maxAge).toBeUndefined();
    expect(cookie.httpOnly).toBe(true);
    expect(client.cookies.get('XSRF-TOKEN')).not.toBe(csrfBefore);
    expect(client.cookies.has(OIDC_PENDING_COOKIE)).toBe(false);
    const { user } = await session(client);
    expect(user).toMatchObject({ role: 'staff', username: person.username, staff_role: 'form_teacher', class_ids: ['3A'], second_factor_setup: false });
    // The session works like any other: a CSRF-protected call, and sign-out.
    expect((await client.get('/api/students')).statusCode).toBe(200);
    const row = await t.database.db.selectFrom('users').select(['oidc_issuer', 'oidc_subject']).where('id', '=', person.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ oidc_issuer: idp.issuer, oidc_subject: person.login });
    const audit = await t.database.db.selectFrom('audit_log').select(['action', 'new_value']).where('actor_label', '=', `admin:${person.username}`).execute();
    expect(audit).toContainEqual({ action: 'sign-in', new_value: 'single-factor' });
    expect((await client.post('/logout')).statusCode).toBe(204);
    expect((await session(client)).user).toBeNull();
  });

  it('"Keep me signed in" gives the session cookie its lifetime, as at the password sign-in', async () => {
    const person = await addPerson();
    const client = browser();
    const response = await signIn(client, person.login, { query: '?remember=1' });
    expect(response.headers.location).toBe('/admin/dashboard');
    expect(response.cookies.find((c) => c.name === SESSION_COOKIE)!.maxAge).toBe(testConfig().sessionTtlMs / 1000);
  });

  it('finds the account by its kept subject at the next sign-in, even when the provider no longer vouches for the address', async () => {
    const person = await addPerson();
    expect((await signIn(browser(), person.login)).headers.location).toBe('/admin/dashboard');
    idp.accounts.set(person.login, { email: 'renamed@school.test', email_verified: false });
    expect((await signIn(browser(), person.login)).headers.location).toBe('/admin/dashboard');
  });

  it('voids a one-time password still waiting to be changed: no forced password change after the provider', async () => {
    const person = await addPerson({ mustChangePassword: true });
    const client = browser();
    expect((await signIn(client, person.login)).headers.location).toBe('/admin/dashboard');
    expect((await session(client)).user).toMatchObject({ password_reset: 0 });
    const row = await t.database.db.selectFrom('users').select(['password_hash', 'password_reset']).where('id', '=', person.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ password_hash: null, password_reset: 0 });
    expect((await browser().post('/api/admin-login', { username: person.username, password: 'a-staff-password-long' })).statusCode).toBe(401);
  });
});

describe('refused sign-ins: a clear reason on the staff sign-in page, no session, never a 500', () => {
  it('a wrong state', async () => {
    const person = await addPerson();
    const client = browser();
    const back = await idp.signInThrough((await start(client)).href, person.login);
    back.searchParams.set('state', 'not-the-state-this-browser-sent');
    expect(refusal(await callback(client, back))).toBe('failed');
    expect((await session(client)).user).toBeNull();
  });

  it('a replayed code: the callback opened twice, and its cookie copied to send it again', async () => {
    const person = await addPerson();
    const client = browser();
    const back = await idp.signInThrough((await start(client)).href, person.login);
    const copied = new Map(client.cookies);
    expect((await callback(client, back)).headers.location).toBe('/admin/dashboard');
    // The same browser again: its sign-in in progress ended at the first opening.
    const again = browser();
    again.cookies.set(SESSION_COOKIE, 'none');
    expect(refusal(await callback(again, back))).toBe('not_started');
    // Someone who copied the pending cookie too: the provider takes a code once.
    const thief = browser();
    for (const [name, value] of copied) if (name !== SESSION_COOKIE) thief.cookies.set(name, value);
    expect(refusal(await callback(thief, back))).toBe('failed');
    expect((await session(thief)).user).toBeNull();
  });

  it('a wrong nonce (the ID token was made for another request)', async () => {
    const person = await addPerson();
    const client = browser();
    const authorize = await start(client);
    authorize.searchParams.set('nonce', 'a-nonce-this-browser-never-sent');
    expect(refusal(await callback(client, await idp.signInThrough(authorize.href, person.login)))).toBe('failed');
  });

  it('an e-mail no staff account has, audited with the address', async () => {
    idp.accounts.set('stranger', { email: 'stranger@school.test', email_verified: true });
    expect(refusal(await signIn(browser(), 'stranger'))).toBe('unknown_account');
    const audit = await t.database.db.selectFrom('audit_log').select(['action', 'new_value']).where('actor_label', '=', 'oidc:stranger@school.test').execute();
    expect(audit).toEqual([{ action: 'sign-in-failed', new_value: 'unknown_account: stranger@school.test' }]);
  });

  it('an e-mail the provider did not verify, though an account has it', async () => {
    const person = await addPerson({ verified: false });
    expect(refusal(await signIn(browser(), person.login))).toBe('unverified_email');
    const row = await t.database.db.selectFrom('users').select('oidc_subject').where('id', '=', person.id).executeTakeFirstOrThrow();
    expect(row.oidc_subject).toBeNull();
  });

  it('a disabled account, at the first sign-in and after one', async () => {
    const person = await addPerson({ disabled: true });
    expect(refusal(await signIn(browser(), person.login))).toBe('account_disabled');
    const other = await addPerson();
    expect((await signIn(browser(), other.login)).headers.location).toBe('/admin/dashboard');
    await t.database.db.updateTable('users').set({ disabled: 1 }).where('id', '=', other.id).execute();
    expect(refusal(await signIn(browser(), other.login))).toBe('account_disabled');
  });

  it('a forwarded callback link: another browser is refused, and the sign-in stays the first browser’s', async () => {
    const person = await addPerson();
    const client = browser();
    const back = await idp.signInThrough((await start(client)).href, person.login);
    expect(refusal(await callback(browser(), back))).toBe('not_started');
    expect((await callback(client, back)).headers.location).toBe('/admin/dashboard');
  });

  it('a callback without a started sign-in, a made-up pending cookie, and an unknown provider', async () => {
    const client = browser();
    expect(refusal(await client.get(`${CALLBACK}?code=abc&state=def`))).toBe('not_started');
    client.cookies.set(OIDC_PENDING_COOKIE, 'eyJwIjoic2Nob29sIn0.bm90LWEtbWFj');
    expect(refusal(await client.get(`${CALLBACK}?code=abc&state=def`))).toBe('not_started');
    expect(refusal(await client.get('/api/oidc/elsewhere/start'))).toBe('not_started');
    expectError(await client.get('/api/oidc/school/start?remember=yes'), 400);
  });

  it('a sign-in started more than 10 minutes ago is over, even with the right code', async () => {
    const person = await addPerson();
    const secret = await serverSecret(t.database.db)();
    const stale = await createProviderSignIn(testConfig({ oidcProviders: [provider] })).start(provider, secret, false, Date.now() - OIDC_PENDING_TTL_MS - 1000);
    expect(parsePending(secret, stale.cookie)).toBeNull();
    const client = browser();
    client.cookies.set(OIDC_PENDING_COOKIE, stale.cookie);
    const back = await idp.signInThrough(stale.url, person.login);
    expect(refusal(await callback(client, back))).toBe('not_started');
  });

  it('the provider answers with an error (the person cancelled)', async () => {
    const client = browser();
    const authorize = await start(client);
    const state = authorize.searchParams.get('state')!;
    expect(refusal(await client.get(`${CALLBACK}?error=access_denied&error_description=cancelled&state=${state}&iss=${encodeURIComponent(idp.issuer)}`))).toBe('provider_refused');
  });

  it("a provider that cannot be reached: the sign-in page says so", async () => {
    const unreachable = await appWith({ oidcProviders: [{ ...provider, issuer: 'http://127.0.0.1:9/nowhere' }] });
    expect(refusal(await browser(unreachable).get('/api/oidc/school/start'))).toBe('provider_unreachable');
  });

  it("a student's session opening the callback: refused, and the student stays signed in as themselves", async () => {
    const student = await browser().signInStudent(DEMO_STUDENTS.registered.student_id, DEMO_STUDENTS.registered.password);
    expect(refusal(await student.get(`${CALLBACK}?code=abc&state=def`))).toBe('not_started');
    expect((await session(student)).user).toMatchObject({ role: 'student', student_id: DEMO_STUDENTS.registered.student_id });
  });
});

/** Turns the account's second factor on; answers its secret. */
async function withFactor(userId: number): Promise<string> {
  const secret = generateSecret();
  const key = totpSealingKey(await serverSecret(t.database.db)());
  await t.database.db.updateTable('users').set({ totp_secret: sealTotpSecret(key, userId, secret), totp_enabled_at: nowIso(), totp_last_step: null }).where('id', '=', userId).execute();
  return secret;
}

describe('the second factor after the provider', () => {
  it("a sign-in without mfa at the provider asks the portal's own code of an account that has one", async () => {
    const person = await addPerson({ role: 'office' });
    const secret = await withFactor(person.id);
    const client = browser();
    const response = await signIn(client, person.login);
    expect(response.headers.location).toBe('/admin?step=code');
    expect(client.cookies.has(PENDING_SIGN_IN_COOKIE)).toBe(true);
    expect((await session(client)).user).toBeNull();
    const coded = await client.post('/api/admin-login/totp', { code: await generate({ secret }) });
    expect(coded.statusCode, coded.body).toBe(200);
    expect((await session(client)).user).toMatchObject({ username: person.username, staff_role: 'office' });
  });

  it('a sign-in whose amr holds mfa is not asked again', async () => {
    const person = await addPerson({ role: 'office' });
    await withFactor(person.id);
    expect((await signIn(browser(), person.login, { mfa: true })).headers.location).toBe('/admin/dashboard');
  });

  it('STAFF_2FA=required: without mfa an account without a factor is limited to setting one up; with mfa, or a trusted provider, it is not', async () => {
    const required = await appWith({ staff2fa: 'required' });
    const person = await addPerson({ role: 'administrator' });
    const limited = browser(required);
    expect((await signIn(limited, person.login)).headers.location).toBe('/admin/two-factor');
    expect((await session(limited)).user).toMatchObject({ second_factor_setup: true });
    expectError(await limited.get('/api/students'), 403, 'second_factor_setup_required');

    const full = browser(required);
    expect((await signIn(full, person.login, { mfa: true })).headers.location).toBe('/admin/dashboard');
    expect((await full.get('/api/students')).statusCode).toBe(200);

    const trusting = await appWith({ staff2fa: 'required', oidcProviders: [{ ...provider, trustsMfa: true }] });
    expect((await signIn(browser(trusting), person.login)).headers.location).toBe('/admin/dashboard');
  });
});

describe('STAFF_PASSWORD_SIGNIN=off', () => {
  it('refuses a staff password sign-in (after the right password only), and the break-glass administrator still signs in with password and code', async () => {
    const off = await appWith({ staffPasswordSignIn: false, breakGlassAdmin: DEMO_ADMIN.username });
    expect(StaffSignInOptionsSchema.parse((await browser(off).get('/api/staff-sign-in')).json()).password_sign_in).toBe(false);
    const refused = await browser(off).post('/api/admin-login', { username: DEMO_STAFF.office.username, password: DEMO_STAFF.office.password });
    expect(expectError(refused, 403, 'forbidden').message).toMatch(/passwords are turned off/);
    expectError(await browser(off).post('/api/admin-login', { username: DEMO_STAFF.office.username, password: 'wrong-password-here' }), 401, 'invalid_credentials');

    // The break-glass administrator without a factor: a session limited to setting one up.
    const admin = await t.database.db.selectFrom('users').select('id').where('username', '=', DEMO_ADMIN.username).executeTakeFirstOrThrow();
    const first = browser(off);
    await first.signInAdmin();
    expect((await session(first)).user).toMatchObject({ username: DEMO_ADMIN.username, second_factor_setup: true });
    // With one: the code is asked, whatever STAFF_2FA says.
    const secret = await withFactor(admin.id);
    const client = browser(off);
    const answer = await client.post('/api/admin-login', { username: DEMO_ADMIN.username, password: DEMO_ADMIN.password });
    expect(answer.json()).toEqual({ second_factor: 'totp' });
    expect((await client.post('/api/admin-login/totp', { code: await generate({ secret }) })).statusCode).toBe(200);
    expect((await session(client)).user).toMatchObject({ username: DEMO_ADMIN.username, second_factor_setup: false });
    await t.database.db.updateTable('users').set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null }).where('id', '=', admin.id).execute();

    // Staff still come in through the provider.
    const person = await addPerson();
    expect((await signIn(browser(off), person.login)).headers.location).toBe('/admin/dashboard');
  });
});

describe('the school e-mail on Staff Accounts', () => {
  it('is set by the administrator, stored lower-case, unique, shown with how the account signs in; a change lets go of the kept subject', async () => {
    const admin = await browser().signInAdmin();
    const created = await admin.post('/api/staff', { username: 'sso.created', name: 'Ann Created', role: 'principal', sign_in_email: 'Ann.Created@School.test' });
    expect(created.statusCode, created.body).toBe(201);
    const account = StaffAccountWithPasswordSchema.parse(created.json());
    expect(account).toMatchObject({ sign_in_email: 'ann.created@school.test', sign_in: { password: true, school_account: 'waiting' } });

    const taken = await admin.post('/api/staff', { username: 'sso.taken', name: 'Tom Taken', role: 'office', sign_in_email: 'ANN.created@school.test' });
    expect(expectError(taken, 409).errors).toEqual({ sign_in_email: [expect.stringMatching(/already/)] });
    const person = await addPerson();
    expect(expectError(await admin.patch(`/api/staff/${person.id}`, { sign_in_email: 'ann.created@school.test' }), 409).errors).toHaveProperty('sign_in_email');

    idp.accounts.set('ann', { email: 'ann.created@school.test', email_verified: true });
    expect((await signIn(browser(), 'ann')).headers.location).toBe('/admin/dashboard');
    const listed = StaffListSchema.parse((await admin.get('/api/staff')).json()).find((a) => a.id === account.id)!;
    expect(listed.sign_in).toEqual({ password: false, school_account: 'linked' });

    const changed = await admin.patch(`/api/staff/${account.id}`, { sign_in_email: 'ann.new@school.test' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ sign_in_email: 'ann.new@school.test', sign_in: { school_account: 'waiting' } });
    expect(refusal(await signIn(browser(), 'ann'))).toBe('unknown_account');
    expectError(await admin.patch(`/api/staff/${account.id}`, { sign_in_email: 'not an address' }), 400);
  });
});
