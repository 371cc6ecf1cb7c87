import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { SessionAnswerSchema, STAFF_ACCOUNT_DISABLED_MESSAGE } from '../../shared/auth.schemas.js';
import { EnrolmentAnswerSchema } from '../../shared/staff-2fa.schemas.js';
import {
  ResetSecondFactorAnswerSchema,
  StaffAccountWithPasswordSchema,
  StaffListSchema,
  STAFF_PASSWORD_TOO_COMMON,
  STAFF_PASSWORD_TOO_SHORT,
} from '../../shared/staff.schemas.js';
import { testConfig } from '../../../tests/support/test-config.js';
import { buildApp } from '../app.js';
import { renderStoredMail } from '../mail/templates/index.js';
import { DEMO_ADMIN, DEMO_STAFF, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { isCommonPassword } from '../auth/common-passwords.js';
import { generateOneTimePassword, updateStaff } from './staff.service.js';

/**
 * Staff accounts on SQLite and PostgreSQL: the administrator adds, lists and changes
 * them; every refusal says why and stores nothing; a disabled account is out at once; a new or
 * reset account must choose a 12+ character, uncommon password before anything else.
 */

let t: TestApp;
let ipCounter = 0;
const client = () => new TestClient(t.app, `10.16.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  admin = await client().signInAdmin();
});
afterAll(async () => {
  await t?.close();
});

let counter = 0;
const uniqueName = (prefix: string) => `${prefix}.${++counter}${Date.now().toString(36)}`;

async function userCount(): Promise<number> {
  const { count } = await t.database.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(count);
}

async function auditOf(username: string) {
  return t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'staff').where('entity_id', '=', username).orderBy('id').execute();
}

async function create(body: Record<string, unknown>) {
  const response = await admin.post('/api/staff', body);
  expect(response.statusCode, response.body).toBe(201);
  return StaffAccountWithPasswordSchema.parse(response.json());
}

/** A new account that has chosen its own password, signed in. */
async function readyAccount(role: 'administrator' | 'office' = 'office') {
  const account = await create({ username: uniqueName('ready'), name: 'Ready Person', role });
  const c = await client().signInAdmin(account.username, account.one_time_password);
  const password = `own-${account.username}-pw`;
  const changed = await c.post('/api/change-password-staff', { current_password: account.one_time_password, password });
  expect(changed.statusCode, changed.body).toBe(200);
  return { account, client: c, password };
}

describe('GET /api/staff', () => {
  it('lists every staff account with its role, classes and state, to administrators only', async () => {
    const response = await admin.get('/api/staff');
    expect(response.statusCode).toBe(200);
    const list = StaffListSchema.parse(response.json());
    const byName = new Map(list.map((account) => [account.username, account]));
    expect(byName.get(DEMO_ADMIN.username)).toMatchObject({ role: 'administrator', disabled: false, has_2fa: false, must_change_password: false });
    expect(byName.get(DEMO_ADMIN.username)?.last_sign_in_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(byName.get(DEMO_STAFF.formTeacher.username)).toMatchObject({ role: 'form_teacher', class_ids: ['5A'] });
    expect(byName.get(DEMO_STAFF.office.username)).toMatchObject({ role: 'office', class_ids: [], name: DEMO_STAFF.office.name });
    expect(list.every((account) => account.username !== '' && !('password_hash' in account))).toBe(true);

    expectError(await client().get('/api/staff'), 401, 'unauthenticated');
    const office = await client().signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);
    expect(expectError(await office.get('/api/staff'), 403, 'forbidden').message).toBe('Only administrators may manage staff accounts.');
    const student = await client().signInStudent(DEMO_STUDENTS.registered.student_id, DEMO_STUDENTS.registered.password);
    expectError(await student.get('/api/staff'), 403, 'forbidden');
  });
});

describe('POST /api/staff', () => {
  it('adds a form teacher with a one-time password that must be changed, audited under the username', async () => {
    const username = uniqueName('Teacher.New');
    const account = await create({ username, name: 'Nadia Ali', role: 'form_teacher', class_ids: ['1A', '2B'], email: 'nadia@school.example' });
    expect(account).toMatchObject({ username, name: 'Nadia Ali', role: 'form_teacher', class_ids: ['1A', '2B'], email: 'nadia@school.example', disabled: false, must_change_password: true, has_2fa: false, last_sign_in_at: null });
    expect(account.one_time_password).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    const row = await t.database.db.selectFrom('users').selectAll().where('id', '=', account.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ role: 'staff', staff_role: 'form_teacher', password_reset: 1, disabled: 0 });
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain(account.one_time_password!);
    const audit = await auditOf(username);
    expect(audit.map((entry) => [entry.action, entry.field, entry.new_value])).toEqual([
      ['staff-create', 'name', 'Nadia Ali'],
      ['staff-create', 'role', 'form_teacher'],
      ['staff-create', 'class_ids', '1A, 2B'],
      ['staff-create', 'email', 'nadia@school.example'],
    ]);
    expect(audit.every((entry) => entry.actor_label === `admin:${DEMO_ADMIN.username}`)).toBe(true);
    // The list has it, without the password.
    const list = StaffListSchema.parse((await admin.get('/api/staff')).json());
    expect(list.find((a) => a.id === account.id)).toMatchObject({ username, must_change_password: true });
  });

  it('refuses bad input, naming the field, and stores nothing', async () => {
    const before = await userCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ username: uniqueName('x'), name: 'X', role: 'janitor' }, 'role', 'Choose a role: administrator, office, principal or form teacher.'],
      [{ username: uniqueName('x'), name: 'X', role: 'form_teacher' }, 'class_ids', 'Choose at least one class for a form teacher.'],
      [{ username: uniqueName('x'), name: 'X', role: 'form_teacher', class_ids: [] }, 'class_ids', 'Choose at least one class for a form teacher.'],
      [{ username: uniqueName('x'), name: 'X', role: 'office', class_ids: ['5A'] }, 'class_ids', 'Only a form teacher has classes.'],
      [{ username: 'has space', name: 'X', role: 'office' }, 'username', 'Username has only letters, digits, dots, dashes and underscores.'],
      [{ username: uniqueName('x'), name: '  ', role: 'office' }, 'name', 'Enter the name.'],
      [{ username: uniqueName('x'), name: 'X', role: 'office', email: 'not-an-address' }, 'email', 'Enter a valid e-mail address.'],
    ];
    for (const [body, field, message] of cases) {
      const error = expectError(await admin.post('/api/staff', body), 400, 'validation_failed');
      expect(error.errors?.[field], JSON.stringify(body)).toContain(message);
    }
    const unknown = expectError(await admin.post('/api/staff', { username: uniqueName('x'), name: 'X', role: 'form_teacher', class_ids: ['5A', '9Z'] }), 400);
    expect(unknown.errors?.['class_ids']).toEqual(['No form class has the id 9Z.']);
    expect(await userCount()).toBe(before);
  });

  it('refuses a username taken in any letter case with 409', async () => {
    const before = await userCount();
    for (const username of [DEMO_STAFF.office.username, DEMO_STAFF.office.username.toUpperCase(), 'Admin']) {
      const error = expectError(await admin.post('/api/staff', { username, name: 'Copy', role: 'office' }), 409, 'conflict');
      expect(error.message).toBe('A staff account with this username already exists (usernames ignore letter case).');
      expect(error.errors?.['username']).toBeDefined();
    }
    expect(await userCount()).toBe(before);
  });
});

describe('PATCH /api/staff/{id}', () => {
  it('changes name, e-mail, role and classes; leaving the form teacher role drops the classes', async () => {
    const account = await create({ username: uniqueName('change'), name: 'Before', role: 'form_teacher', class_ids: ['3A'] });
    const renamed = await admin.patch(`/api/staff/${account.id}`, { name: 'After', email: 'after@school.example', class_ids: ['3A', '3B'] });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'After', email: 'after@school.example', class_ids: ['3A', '3B'], role: 'form_teacher' });
    expect(renamed.json()).not.toHaveProperty('one_time_password');
    const office = StaffAccountWithPasswordSchema.parse((await admin.patch(`/api/staff/${account.id}`, { role: 'office', email: null })).json());
    expect(office).toMatchObject({ role: 'office', class_ids: [], email: null });
    const classes = await t.database.db.selectFrom('staff_classes').select('class_id').where('user_id', '=', account.id).execute();
    expect(classes).toEqual([]);
    const audit = await auditOf(account.username);
    expect(audit.filter((e) => e.action === 'staff-update').map((e) => [e.field, e.old_value, e.new_value])).toEqual([
      ['name', 'Before', 'After'],
      ['email', null, 'after@school.example'],
      ['class_ids', '3A', '3A, 3B'],
      ['role', 'form_teacher', 'office'],
      ['email', 'after@school.example', null],
      ['class_ids', '3A, 3B', null],
    ]);
  });

  it('refuses bad changes with the reason and changes nothing', async () => {
    const account = await create({ username: uniqueName('refuse'), name: 'Stays', role: 'office' });
    const cases: [Record<string, unknown>, number, string][] = [
      [{}, 400, 'Send at least one change.'],
      [{ role: 'janitor' }, 400, 'Choose a role: administrator, office, principal or form teacher.'],
      [{ role: 'form_teacher' }, 400, 'Choose at least one class for a form teacher.'],
      [{ class_ids: ['5A'] }, 400, 'Only a form teacher has classes.'],
      [{ role: 'form_teacher', class_ids: ['9Z'] }, 400, 'No form class has the id 9Z.'],
      [{ disabled: 'yes' }, 400, 'Disabled is true or false.'],
      [{ reset_password: false }, 400, 'reset_password is true, or left out.'],
    ];
    for (const [body, status, message] of cases) {
      const error = expectError(await admin.patch(`/api/staff/${account.id}`, body), status);
      expect([error.message, ...Object.values(error.errors ?? {}).flat()], JSON.stringify(body)).toContain(message);
    }
    expectError(await admin.patch('/api/staff/999999', { name: 'Nobody' }), 404, 'not_found');
    expectError(await admin.patch('/api/staff/abc', { name: 'Nobody' }), 400);
    // A student's user id is not a staff account.
    const student = await t.database.db.selectFrom('users').select('id').where('role', '=', 'student').executeTakeFirstOrThrow();
    expectError(await admin.patch(`/api/staff/${student.id}`, { name: 'Nobody' }), 404, 'not_found');
    const list = StaffListSchema.parse((await admin.get('/api/staff')).json());
    expect(list.find((a) => a.id === account.id)).toMatchObject({ name: 'Stays', role: 'office', class_ids: [] });
    expect((await auditOf(account.username)).filter((e) => e.action !== 'staff-create')).toEqual([]);
  });

  it('never lets an administrator disable, demote or reset themselves', async () => {
    const me = await readyAccount('administrator');
    const self = (body: Record<string, unknown>) => me.client.patch(`/api/staff/${me.account.id}`, body);
    expect(expectError(await self({ disabled: true }), 409, 'conflict').message).toBe('You cannot disable your own account; ask another administrator.');
    expect(expectError(await self({ role: 'office' }), 409, 'conflict').message).toBe('You cannot change your own role; ask another administrator.');
    expect(expectError(await self({ reset_password: true }), 409, 'conflict').message).toBe('You cannot reset your own password here; ask another administrator.');
    expect(StaffListSchema.parse((await admin.get('/api/staff')).json()).find((a) => a.id === me.account.id)).toMatchObject({ role: 'administrator', disabled: false });
    // Renaming oneself is fine.
    expect((await self({ name: 'Still Me' })).statusCode).toBe(200);
  });

  it('keeps the last enabled administrator: refused with the reason, and two demoting each other at once leave one', async () => {
    const { db } = t.database;
    const a = await readyAccount('administrator');
    const b = await readyAccount('administrator');
    const enabled = await db.selectFrom('users').select('id').where('staff_role', '=', 'administrator').where('disabled', '=', 0).execute();
    const parked = enabled.map((row) => row.id).filter((id) => id !== a.account.id && id !== b.account.id);
    await db.updateTable('users').set({ disabled: 1 }).where('id', 'in', parked).execute();
    try {
      // Only A and B are enabled. Each tries to demote the other at the same moment: whichever
      // goes second finds itself the last (409) or already without the right (403).
      const answers = await Promise.all([
        a.client.patch(`/api/staff/${b.account.id}`, { role: 'office' }),
        b.client.patch(`/api/staff/${a.account.id}`, { disabled: true }),
      ]);
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses[0], answers.map((x) => x.body).join(' | ')).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      const refused = answers.find((answer) => answer.statusCode === 409);
      if (refused) expect(ApiErrorSchema.parse(refused.json()).message).toBe('This is the last enabled administrator; make another account an administrator first.');
      const left = await db
        .selectFrom('users')
        .select('id')
        .where('id', 'in', [a.account.id, b.account.id])
        .where('staff_role', '=', 'administrator')
        .where('disabled', '=', 0)
        .execute();
      expect(left).toHaveLength(1);

      // The rule itself, asked by someone who is not the target (a second administrator cannot
      // exist in that state through the API: the caller would be one).
      const last = left[0]!.id;
      const actor = { actor_user_id: null, actor_label: 'test', ip: null, request_id: null };
      for (const change of [{ role: 'principal' as const }, { disabled: true }]) {
        await expect(updateStaff(db, last, change, actor)).rejects.toMatchObject({
          statusCode: 409,
          message: 'This is the last enabled administrator; make another account an administrator first.',
        });
      }
    } finally {
      await db.updateTable('users').set({ disabled: 0 }).where('id', 'in', parked).execute();
    }
  });
});

describe('POST /api/staff/{id}/reset-second-factor', () => {
  /** A ready account (with an e-mail or none) whose second factor is on, signed in with it. */
  async function withSecondFactor(email: string | null) {
    const ready = await readyAccount('office');
    if (email) expect((await admin.patch(`/api/staff/${ready.account.id}`, { email })).statusCode).toBe(200);
    const enrolment = EnrolmentAnswerSchema.parse((await ready.client.post('/api/staff-2fa/enrol', { current_password: ready.password })).json());
    const confirmed = await ready.client.post('/api/staff-2fa/confirm', { code: await generate({ secret: enrolment.secret }) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return ready;
  }

  const totpOf = (id: number) => t.database.db.selectFrom('users').select(['totp_secret', 'totp_enabled_at', 'totp_last_step']).where('id', '=', id).executeTakeFirstOrThrow();
  const recoveryCodesOf = (id: number) => t.database.db.selectFrom('staff_recovery_codes').select('id').where('user_id', '=', id).execute();
  const outboxTo = (address: string) => t.database.db.selectFrom('outbox').selectAll().where('to_address', '=', address).execute();

  it('turns the factor off, removes the recovery codes, ends the sessions, audits it and mails the owner', async () => {
    const email = `${uniqueName('reset2fa')}@school.example`;
    const { account, client: signedIn, password } = await withSecondFactor(email);
    expect(await recoveryCodesOf(account.id)).toHaveLength(10);

    const response = await admin.post(`/api/staff/${account.id}/reset-second-factor`);
    expect(response.statusCode, response.body).toBe(200);
    const answer = ResetSecondFactorAnswerSchema.parse(response.json());
    expect(answer.mailed_to).toBe(email);
    expect(answer.account).toMatchObject({ id: account.id, has_2fa: false });

    expect(await totpOf(account.id)).toEqual({ totp_secret: null, totp_enabled_at: null, totp_last_step: null });
    expect(await recoveryCodesOf(account.id)).toEqual([]);
    expectError(await signedIn.get('/api/staff-2fa'), 401, 'unauthenticated');
    const audit = (await auditOf(account.username)).filter((e) => e.action === 'second-factor-reset');
    expect(audit.map((e) => [e.field, e.old_value, e.new_value, e.actor_label])).toEqual([['second_factor', 'on', 'off', `admin:${DEMO_ADMIN.username}`]]);

    const [message, ...more] = await outboxTo(email);
    expect(more).toEqual([]);
    expect(message).toMatchObject({ template: 'staff-second-factor-reset', state: 'queued' });
    const mail = renderStoredMail(message!.template, JSON.parse(message!.data), { schoolName: 'Test School', publicUrl: 'http://portal.school.test' });
    expect(mail.subject).toBe('Two-step sign-in was reset on your staff account at Test School');
    expect(mail.text).toContain('Hello Ready Person,');
    expect(mail.text).toContain('removed its recovery codes');
    expect(mail.text).toContain('If you did not ask for this');
    expect(mail.text).toContain('http://portal.school.test/admin');

    // The password alone signs in again (this portal makes the factor optional)…
    const again = await client().signInAdmin(account.username, password);
    expect((await again.get('/api/staff-2fa')).json()).toMatchObject({ enabled: false });
    // …and where the portal requires it, the next sign-in must set it up before anything else.
    const required = await buildApp(testConfig({ staff2fa: 'required' }), { db: t.database.db }, { logger: false, webRoot: '/nonexistent' });
    try {
      await required.ready();
      const next = new TestClient(required, '10.17.0.1');
      const signIn = await next.post('/api/admin-login', { username: account.username, password });
      expect(signIn.json()).toMatchObject({ second_factor_setup: true });
      expectError(await next.get('/api/students'), 403, 'second_factor_setup_required');
    } finally {
      await required.close();
    }
  });

  it('an account without an e-mail: reset, no mail, and the answer says so', async () => {
    const { account } = await withSecondFactor(null);
    const outboxBefore = await t.database.db.selectFrom('outbox').select('id').execute();
    const response = await admin.post(`/api/staff/${account.id}/reset-second-factor`);
    expect(response.statusCode, response.body).toBe(200);
    expect(ResetSecondFactorAnswerSchema.parse(response.json())).toMatchObject({ mailed_to: null, account: { has_2fa: false } });
    expect(await t.database.db.selectFrom('outbox').select('id').execute()).toEqual(outboxBefore);
  });

  it('refuses an administrator on their own account, another role, a missing account or no factor, and changes nothing', async () => {
    const me = await withSecondFactor(null);
    await t.database.db.updateTable('users').set({ staff_role: 'administrator' }).where('id', '=', me.account.id).execute();
    const own = expectError(await me.client.post(`/api/staff/${me.account.id}/reset-second-factor`), 409, 'conflict');
    expect(own.message).toBe('You cannot reset your own second factor here; use your Two-step sign-in page, or ask another administrator.');
    expect((await totpOf(me.account.id)).totp_enabled_at).not.toBeNull();
    expect((await me.client.get('/api/staff-2fa')).statusCode).toBe(200);

    const office = await client().signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);
    expectError(await office.post(`/api/staff/${me.account.id}/reset-second-factor`), 403, 'forbidden');
    expectError(await client().post(`/api/staff/${me.account.id}/reset-second-factor`), 401, 'unauthenticated');
    expectError(await admin.post('/api/staff/999999/reset-second-factor'), 404, 'not_found');
    expectError(await admin.post('/api/staff/abc/reset-second-factor'), 400);
    const student = await t.database.db.selectFrom('users').select('id').where('role', '=', 'student').executeTakeFirstOrThrow();
    expectError(await admin.post(`/api/staff/${student.id}/reset-second-factor`), 404, 'not_found');
    const none = await readyAccount('office');
    expect(expectError(await admin.post(`/api/staff/${none.account.id}/reset-second-factor`), 409, 'conflict').message).toBe(
      'Ready Person has no second factor set up: there is nothing to reset.',
    );
    expect((await none.client.get('/api/staff-2fa')).statusCode).toBe(200);

    expect((await totpOf(me.account.id)).totp_enabled_at).not.toBeNull();
    expect(await recoveryCodesOf(me.account.id)).toHaveLength(10);
    expect((await auditOf(me.account.username)).some((e) => e.action === 'second-factor-reset')).toBe(false);
  });
});

describe('a disabled account', () => {
  it('is signed out at once and told why; its sign-in says it is disabled only after the right password; enabled again, it signs in', async () => {
    const { account, client: signedIn, password } = await readyAccount('office');
    expect((await signedIn.get('/api/students?limit=1')).statusCode).toBe(200);
    const disabled = await admin.patch(`/api/staff/${account.id}`, { disabled: true });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json()).toMatchObject({ disabled: true });
    // The next request ends the session and says why (D84); the one after is an ordinary visitor's.
    const ended = expectError(await signedIn.get('/api/students?limit=1'), 401, 'account_disabled');
    expect(ended.message).toBe(STAFF_ACCOUNT_DISABLED_MESSAGE);
    expect(await t.database.db.selectFrom('sessions').select('id_hash').where('user_id', '=', account.id).execute()).toEqual([]);
    expectError(await signedIn.get('/api/students?limit=1'), 401, 'unauthenticated');

    // A wrong password reveals nothing; the right one is told the account is disabled and whom to ask.
    const wrong = expectError(await client().post('/api/admin-login', { username: account.username, password: 'not-the-password' }), 401, 'invalid_credentials');
    const unknown = expectError(await client().post('/api/admin-login', { username: uniqueName('nobody'), password: 'not-the-password' }), 401, 'invalid_credentials');
    expect(wrong.message).toBe(unknown.message);
    const refused = expectError(await client().post('/api/admin-login', { username: account.username, password }), 403, 'account_disabled');
    expect(refused.message).toBe(STAFF_ACCOUNT_DISABLED_MESSAGE);

    expect((await admin.patch(`/api/staff/${account.id}`, { disabled: false })).statusCode).toBe(200);
    await client().signInAdmin(account.username, password);
    expect((await auditOf(account.username)).filter((e) => e.field === 'disabled').map((e) => [e.old_value, e.new_value])).toEqual([
      ['false', 'true'],
      ['true', 'false'],
    ]);
  });

  it('a page reload after it was disabled: the session answer says the sign-in ended because the account is disabled', async () => {
    const { account, client: signedIn } = await readyAccount('office');
    expect((await admin.patch(`/api/staff/${account.id}`, { disabled: true })).statusCode).toBe(200);
    expect(SessionAnswerSchema.parse((await signedIn.get('/api/session')).json())).toEqual({ user: null, ended: 'account_disabled' });
    expect(SessionAnswerSchema.parse((await signedIn.get('/api/session')).json())).toEqual({ user: null });
    // Enabled again, no session it had comes back.
    const other = await readyAccount('office');
    expect((await admin.patch(`/api/staff/${other.account.id}`, { disabled: true })).statusCode).toBe(200);
    expect((await admin.patch(`/api/staff/${other.account.id}`, { disabled: false })).statusCode).toBe(200);
    expectError(await other.client.get('/api/students?limit=1'), 401, 'unauthenticated');
  });
});

describe('staff passwords', () => {
  it('a new account must choose a 12+ character, uncommon password before anything else', async () => {
    const account = await create({ username: uniqueName('fresh'), name: 'Fresh Teacher', role: 'form_teacher', class_ids: ['5A'] });
    const c = await client().signInAdmin(account.username, account.one_time_password);
    const session = SessionAnswerSchema.parse((await c.get('/api/session')).json());
    expect(session.user).toMatchObject({ role: 'staff', staff_role: 'form_teacher', password_reset: 1 });
    expectError(await c.get('/api/students?limit=1'), 403, 'password_change_required');
    expectError(await c.get('/api/registration-report/5A'), 403, 'password_change_required');

    const refusals: [Record<string, unknown>, string, string][] = [
      [{ current_password: account.one_time_password, password: 'short-pw' }, 'password', STAFF_PASSWORD_TOO_SHORT],
      [{ current_password: account.one_time_password, password: 'password1234' }, 'password', STAFF_PASSWORD_TOO_COMMON],
      [{ current_password: account.one_time_password, password: 'QwertyUiop12' }, 'password', STAFF_PASSWORD_TOO_COMMON],
      [{ current_password: account.one_time_password, password: account.one_time_password }, 'password', 'Choose a password of your own, not the one-time password.'],
      [{ current_password: 'wrong-one-time', password: 'a-fine-long-password' }, 'current_password', 'Current password is incorrect.'],
      [{ password: 'a-fine-long-password' }, 'current_password', 'Enter your current password.'],
    ];
    for (const [body, field, message] of refusals) {
      const error = expectError(await c.post('/api/change-password-staff', body), 400);
      expect(error.errors?.[field], JSON.stringify(body)).toEqual([message]);
    }
    const hashBefore = (await t.database.db.selectFrom('users').select('password_hash').where('id', '=', account.id).executeTakeFirstOrThrow()).password_hash;

    const changed = await c.post('/api/change-password-staff', { current_password: account.one_time_password, password: 'a-fine-long-password' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ name: 'Fresh Teacher' });
    const row = await t.database.db.selectFrom('users').select(['password_hash', 'password_reset']).where('id', '=', account.id).executeTakeFirstOrThrow();
    expect(row.password_reset).toBe(0);
    expect(row.password_hash).not.toBe(hashBefore);
    expect((await c.get('/api/students?limit=1')).statusCode).toBe(200);
    await client().signInAdmin(account.username, 'a-fine-long-password');
    await expect(client().signInAdmin(account.username, account.one_time_password)).rejects.toThrow();
  });

  it('a reset answers a new one-time password once, ends the sessions, and forces a change again', async () => {
    const { account, client: signedIn } = await readyAccount('office');
    const reset = await admin.patch(`/api/staff/${account.id}`, { reset_password: true });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.headers['cache-control']).toBe('no-store');
    const answer = StaffAccountWithPasswordSchema.parse(reset.json());
    expect(answer.must_change_password).toBe(true);
    expect(answer.one_time_password).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    expectError(await signedIn.get('/api/students?limit=1'), 401, 'unauthenticated');
    const c = await client().signInAdmin(account.username, answer.one_time_password);
    expectError(await c.get('/api/students?limit=1'), 403, 'password_change_required');
    expect((await c.post('/api/change-password-staff', { current_password: answer.one_time_password, password: 'after-reset-password' })).statusCode).toBe(200);
    expect((await c.get('/api/students?limit=1')).statusCode).toBe(200);
    const audit = await auditOf(account.username);
    expect(audit.filter((e) => e.action === 'password-reset').map((e) => [e.field, e.old_value, e.new_value])).toEqual([['password', null, null]]);
    expect(audit.some((e) => e.action === 'password-changed')).toBe(true);
  });

  it('is staff only: a student is refused', async () => {
    const student = await client().signInStudent(DEMO_STUDENTS.registered.student_id, DEMO_STUDENTS.registered.password);
    expectError(await student.post('/api/change-password-staff', { current_password: DEMO_STUDENTS.registered.password, password: 'a-fine-long-password' }), 403, 'forbidden');
    expectError(await client().post('/api/change-password-staff', { current_password: 'x', password: 'a-fine-long-password' }), 401, 'unauthenticated');
  });

  it('one-time passwords are long, random and never on the common list; the list knows the usual ones', async () => {
    const made = new Set(Array.from({ length: 50 }, generateOneTimePassword));
    expect(made.size).toBe(50);
    for (const password of made) {
      expect(password).toHaveLength(19);
      expect(await isCommonPassword(password)).toBe(false);
    }
    expect(await isCommonPassword('123456789012')).toBe(true);
    expect(await isCommonPassword('PASSWORD1234')).toBe(true);
    expect(await isCommonPassword('staff-demo-2026')).toBe(false);
  });
});
