import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { readPdf } from '../../../tests/support/pdf-text.js';
import { BIRTH_DATE_INVALID, SessionAnswerSchema } from '../../shared/auth.schemas.js';
import {
  FamilyChildListSchema,
  FamilyCodeAnswerSchema,
  FamilyLinkAnswerSchema,
  FamilyMessageAnswerSchema,
  FamilySignedInSchema,
  INVITATION_OTHER_ADDRESS,
  STUDENT_INVITE_RECORD_ONLY,
  StudentFamilySchema,
} from '../../shared/family.schemas.js';
import { STAFF_PASSWORD_TOO_COMMON } from '../../shared/staff.schemas.js';
import { DEMO_FAMILY, DEMO_PASSWORD, DEMO_STAFF, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { renderStoredMail } from '../mail/templates/index.js';
import { buildApp } from '../app.js';
import { testConfig } from '../../../tests/support/test-config.js';
import { statementRecorder } from '../../../tests/support/statement-recorder.js';
import { startSmtpInbox } from '../../../tests/support/smtp-inbox.js';
import { toDayFirstDate } from '../../shared/dates.js';

/**
 * Family accounts through the API, on both engines: registration verified by the
 * mailed link, sign-in, the three ways a child is linked (printed code, invitation, the office),
 * removing links, password reset, and that a parent reaches their linked children and no other.
 * The links are read from the messages as the family would receive them (the outbox's rendered
 * text); the delivery over SMTP is the mail suite's and the browser spec's.
 */

/** Every call into the password module (hash or check), counted; the real functions answer. */
const { passwordCalls } = vi.hoisted(() => ({ passwordCalls: vi.fn() }));
vi.mock('../auth/password.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../auth/password.js')>();
  return {
    ...real,
    hashPassword: (...args: Parameters<typeof real.hashPassword>) => (passwordCalls('hash'), real.hashPassword(...args)),
    verifyPassword: (...args: Parameters<typeof real.verifyPassword>) => (passwordCalls('verify'), real.verifyPassword(...args)),
    verifyAgainstDummy: (...args: Parameters<typeof real.verifyAgainstDummy>) => (passwordCalls('dummy'), real.verifyAgainstDummy(...args)),
  };
});

let t: TestApp;
let ipCounter = 0;
const client = () => new TestClient(t.app, `10.17.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);
let office: TestClient;

const PASSWORD = 'a family passphrase for tests';
const uniqueEmail = (label: string) => `${label}.${crypto.randomBytes(4).toString('hex')}@example.com`;

beforeAll(async () => {
  t = await createTestApp();
  office = await client().signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);
});
afterAll(() => t.close());

/** The newest message to an address, written as the family reads it (subject and text part). */
async function lastMessageTo(email: string) {
  const row = await t.database.db.selectFrom('outbox').select(['template', 'data']).where('to_address', '=', email).orderBy('id', 'desc').executeTakeFirst();
  if (!row) return undefined;
  return renderStoredMail(row.template, JSON.parse(row.data), { schoolName: 'Test School', publicUrl: 'https://portal.example.org' });
}

/** The token of the portal link in a message whose path is `path`. */
async function linkToken(email: string, path: string): Promise<string> {
  const message = await lastMessageTo(email);
  const match = message?.text.match(new RegExp(`https://portal\\.example\\.org${path}\\?token=([A-Za-z0-9_-]+)`));
  if (!match?.[1]) throw new Error(`no ${path} link in the message to ${email}: ${message?.text ?? 'none'}`);
  return match[1];
}

const messagesTo = async (email: string) =>
  Number((await t.database.db.selectFrom('outbox').select((eb) => eb.fn.countAll().as('n')).where('to_address', '=', email).executeTakeFirstOrThrow()).n);

/** Registers and opens the verification link: a signed-in parent. */
async function newParent(email = uniqueEmail('parent')): Promise<{ parent: TestClient; email: string }> {
  const parent = client();
  expect((await parent.post('/api/family/register', { name: 'Test Parent', email })).statusCode).toBe(202);
  const verified = await parent.post('/api/family/verify', { token: await linkToken(email, '/family/verify'), password: PASSWORD });
  expect(verified.statusCode, verified.body).toBe(200);
  return { parent, email };
}

async function familyCodeFor(studentId: string): Promise<string> {
  const response = await office.post(`/api/students/${studentId}/family-code`);
  expect(response.statusCode, response.body).toBe(200);
  return FamilyCodeAnswerSchema.parse(response.json()).code;
}

async function birthDate(studentId: string): Promise<string> {
  const row = await t.database.db.selectFrom('students').select('date_of_birth').where('id', '=', studentId).executeTakeFirstOrThrow();
  return row.date_of_birth!;
}

async function children(parent: TestClient) {
  return FamilyChildListSchema.parse((await parent.get('/api/family/children')).json());
}

/** Students of the demo school no family suite links to by itself. */
const CHILD_A = '20220005';
const CHILD_B = '20220006';
const THIRD_CHILD = '20220007';
const DAY_FIRST_CHILD = '20220008';

/** Rows in a table, for "changed nothing" checks. */
const countRows = async (table: 'family_tokens' | 'outbox' | 'users' | 'guardian_students') =>
  Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('registering a family account', () => {
  it('creates the account only when the mailed link is opened, with the password chosen there, and signs in', async () => {
    const email = uniqueEmail('register');
    const parent = client();
    const answer = await parent.post('/api/family/register', { name: 'Maria Joseph', email: email.toUpperCase() });
    expect(answer.statusCode).toBe(202);
    expect(FamilyMessageAnswerSchema.parse(answer.json()).message).toContain(email);
    // No account yet: the address was not proven.
    expectError(await client().post('/api/family/login', { email, password: PASSWORD }), 401, 'invalid_credentials');
    const message = await lastMessageTo(email);
    expect(message?.subject).toContain('Confirm your e-mail');
    expect(message?.text).toContain('Hello Maria Joseph');

    const token = await linkToken(email, '/family/verify');
    const verified = await parent.post('/api/family/verify', { token, password: PASSWORD });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(FamilySignedInSchema.parse(verified.json())).toEqual({ name: 'Maria Joseph', email, role: 'guardian' });
    const session = SessionAnswerSchema.parse((await parent.get('/api/session')).json()).user;
    expect(session).toMatchObject({ role: 'guardian', name: 'Maria Joseph', email, child_ids: [] });

    // A link works once.
    expectError(await client().post('/api/family/verify', { token, password: PASSWORD }), 400, 'link_invalid');
    const signedIn = await client().post('/api/family/login', { email, password: PASSWORD });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
  });

  it('takes no password at registration: the one who opens the link chooses it, so a registrant of another’s address gains nothing', async () => {
    // The office invites a parent; someone else registers that address first, with a password of their own.
    const victim = uniqueEmail('victim');
    expect((await office.post(`/api/students/${THIRD_CHILD}/family-invitations`, { email: victim })).statusCode).toBe(202);
    const attackerPassword = 'the attacker chose this passphrase';
    expect((await client().post('/api/family/register', { name: 'Victim Parent', email: victim, password: attackerPassword })).statusCode).toBe(202);
    // Nothing is linked and no account exists while the registration waits.
    expectError(await client().post('/api/family/login', { email: victim, password: attackerPassword }), 401, 'invalid_credentials');
    const pending = await t.database.db.selectFrom('family_tokens').selectAll().where('purpose', '=', 'verify-email').where('email', '=', victim).executeTakeFirstOrThrow();
    expect(Object.values(pending).some((value) => typeof value === 'string' && value.startsWith('$argon2'))).toBe(false);
    expect(StudentFamilySchema.parse((await office.get(`/api/students/${THIRD_CHILD}/family`)).json()).invitations.map((i) => i.email)).toContain(victim);

    // The mailbox's owner opens the confirmation and chooses the password.
    const token = await linkToken(victim, '/family/verify');
    const parent = client();
    const verified = await parent.post('/api/family/verify', { token, password: 'the real parent chose this one' });
    expect(verified.statusCode, verified.body).toBe(200);
    expectError(await client().post('/api/family/login', { email: victim, password: attackerPassword }), 401, 'invalid_credentials');
    expect((await client().post('/api/family/login', { email: victim, password: 'the real parent chose this one' })).statusCode).toBe(200);
    // The invitation went to the mailbox just proven, by the person who chose the password: it links the child.
    expect((await children(parent)).map((c) => c.student_id)).toEqual([THIRD_CHILD]);
    await office.delete(`/api/students/${THIRD_CHILD}/family/${(await t.database.db.selectFrom('users').select('id').where('email', '=', victim).executeTakeFirstOrThrow()).id}`);
  });

  it('the confirmation page’s password follows the family rule; a refused one leaves the link working and creates nothing', async () => {
    const email = uniqueEmail('weak');
    await client().post('/api/family/register', { name: 'Weak Password', email });
    const token = await linkToken(email, '/family/verify');
    const users = await countRows('users');
    const missing = expectError(await client().post('/api/family/verify', { token }), 400, 'validation_failed');
    expect(Object.keys(missing.errors ?? {})).toContain('password');
    const short = expectError(await client().post('/api/family/verify', { token, password: 'short' }), 400, 'validation_failed');
    expect(Object.keys(short.errors ?? {})).toContain('password');
    const common = expectError(await client().post('/api/family/verify', { token, password: 'password1234' }), 400);
    expect(common.errors?.password).toEqual([STAFF_PASSWORD_TOO_COMMON]);
    expect(await countRows('users')).toBe(users);
    expect((await client().post('/api/family/verify', { token, password: PASSWORD })).statusCode).toBe(200);
  });

  it('a second confirmation link of an address that has its account is refused; the account keeps its password', async () => {
    const email = uniqueEmail('twice');
    await client().post('/api/family/register', { name: 'Twice', email });
    const first = await linkToken(email, '/family/verify');
    await client().post('/api/family/register', { name: 'Twice', email });
    const second = await linkToken(email, '/family/verify');
    expect((await client().post('/api/family/verify', { token: first, password: PASSWORD })).statusCode).toBe(200);
    expectError(await client().post('/api/family/verify', { token: second, password: 'a different family passphrase' }), 400, 'link_invalid');
    expect((await client().post('/api/family/login', { email, password: PASSWORD })).statusCode).toBe(200);
  });

  it('tells only the mailbox that an address has an account, with a reset link, and changes nothing else', async () => {
    const { email } = await newParent();
    const before = await messagesTo(email);
    const again = await client().post('/api/family/register', { name: 'Someone Else', email });
    expect(again.statusCode).toBe(202);
    expect(FamilyMessageAnswerSchema.parse(again.json()).message).toContain(email);
    expect(await messagesTo(email)).toBe(before + 1);
    expect((await lastMessageTo(email))?.subject).toContain('already have a family account');
    expect((await client().post('/api/family/login', { email, password: PASSWORD })).statusCode).toBe(200);
    // The message's link chooses a new password, as "Forgot your password?" does.
    const token = await linkToken(email, '/family/reset-password');
    expect((await client().post('/api/family/reset-password', { token, password: 'a newer family passphrase' })).statusCode).toBe(200);
    expect((await client().post('/api/family/login', { email, password: 'a newer family passphrase' })).statusCode).toBe(200);
  });

  it('answers a new address and one with an account with the same text, one message and one link each', async () => {
    const { email: taken } = await newParent();
    const fresh = uniqueEmail('fresh');
    const answers: string[] = [];
    for (const email of [taken, fresh]) {
      const [messages, tokens, users] = [await messagesTo(email), await countRows('family_tokens'), await countRows('users')];
      const answer = await client().post('/api/family/register', { name: 'Same Work', email });
      expect(answer.statusCode, answer.body).toBe(202);
      answers.push(FamilyMessageAnswerSchema.parse(answer.json()).message.replace(email, '<address>'));
      expect(await messagesTo(email), email).toBe(messages + 1);
      expect(await countRows('family_tokens'), email).toBe(tokens + 1);
      expect(await countRows('users'), email).toBe(users);
    }
    expect(answers[0]).toBe(answers[1]);
  });

  it('does the same work for an address with an account as for a new one: the same statements, no password hashed', async () => {
    // Said by the work itself rather than by timing it, which a busy machine blurs: each way's
    // statements (kind and table, in order) are recorded by a Kysely plugin on the app's own
    // database, and the password module's calls are counted (the real functions still run).
    const statements: string[] = [];
    const recording = await buildApp(testConfig(), { db: t.database.db.withPlugin(statementRecorder(statements)) }, { logger: false, webRoot: '/nonexistent', mailSender: { start: false } });
    onTestFinished(() => recording.close());
    const at = new Date().toISOString();
    const taken = uniqueEmail('same-work-taken');
    await t.database.db
      .insertInto('users')
      .values({ role: 'guardian', email: taken, display_name: 'Same Work', password_hash: 'not-a-hash', email_verified_at: at, password_changed_at: at, created_at: at, updated_at: at })
      .execute();
    const workOf = async (email: string) => {
      statements.length = 0;
      passwordCalls.mockClear();
      const answer = await new TestClient(recording, `10.18.0.${++ipCounter % 250}`).post('/api/family/register', { name: 'Same Work', email });
      expect(answer.statusCode, answer.body).toBe(202);
      return { statements: [...statements], passwordCalls: passwordCalls.mock.calls.length };
    };
    // The app's first call also does once-per-process work (its secret, pruning): not compared.
    await workOf(uniqueEmail('same-work-warm'));
    const withAccount = await workOf(taken);
    const fresh = await workOf(uniqueEmail('same-work-fresh'));
    expect(withAccount.statements.length).toBeGreaterThan(3);
    expect(withAccount).toEqual(fresh);
    expect(fresh.passwordCalls).toBe(0);
    // The count is live (this file's project loads its modules afresh): a sign-in checks a password.
    passwordCalls.mockClear();
    expectError(await new TestClient(recording, `10.18.0.${++ipCounter % 250}`).post('/api/family/login', { email: taken, password: PASSWORD }), 401, 'invalid_credentials');
    expect(passwordCalls).toHaveBeenCalled();
  });

  it('refuses bad input with field messages and stores nothing', async () => {
    const before = await countRows('family_tokens');
    const bad = [
      [{ name: 'A', email: 'not-an-address' }, 'email'],
      [{ name: '', email: uniqueEmail('noname') }, 'name'],
    ] as const;
    for (const [body, field] of bad) {
      const error = expectError(await client().post('/api/family/register', body), 400);
      expect(Object.keys(error.errors ?? {}), JSON.stringify(error)).toContain(field);
    }
    expect(await countRows('family_tokens')).toBe(before);
  });

  it('refuses an unknown, malformed or expired link', async () => {
    expectError(await client().post('/api/family/verify', { token: 'x'.repeat(43), password: PASSWORD }), 400, 'link_invalid');
    expectError(await client().post('/api/family/verify', { token: 'short', password: PASSWORD }), 400, 'validation_failed');
    const email = uniqueEmail('expired');
    await client().post('/api/family/register', { name: 'Late Parent', email });
    const token = await linkToken(email, '/family/verify');
    await t.database.db.updateTable('family_tokens').set({ expires_at: '2020-01-01T00:00:00.000Z' }).where('email', '=', email).execute();
    expectError(await client().post('/api/family/verify', { token, password: PASSWORD }), 400, 'link_invalid');
  });
});

describe('signing in', () => {
  it('signs the demo family in with the same answer for a wrong password and an unknown address', async () => {
    const ok = await client().post('/api/family/login', { email: DEMO_FAMILY.email.toUpperCase(), password: DEMO_FAMILY.password });
    expect(ok.statusCode, ok.body).toBe(200);
    const wrong = expectError(await client().post('/api/family/login', { email: DEMO_FAMILY.email, password: 'not the password at all' }), 401, 'invalid_credentials');
    const unknown = expectError(await client().post('/api/family/login', { email: uniqueEmail('nobody'), password: 'not the password at all' }), 401, 'invalid_credentials');
    expect(unknown.message).toBe(wrong.message);
  });

  it('slows an address down after repeated wrong passwords (429 with Retry-After)', async () => {
    const { email } = await newParent();
    const attacker = client();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await attacker.post('/api/family/login', { email, password: `wrong guess ${i}` })).statusCode);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses).toContain(429);
  });
});

describe('linking children', () => {
  it('links a child by the printed code and the date of birth, once; a wrong date answers like a wrong code', async () => {
    const { parent } = await newParent();
    const code = await familyCodeFor(CHILD_A);
    expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const wrongDate = expectError(await parent.post('/api/family/link', { code, date_of_birth: '2001-01-01' }), 400);
    const wrongCode = expectError(await parent.post('/api/family/link', { code: 'AAAA-AAAA', date_of_birth: await birthDate(CHILD_A) }), 400);
    expect(wrongDate.message).toBe(wrongCode.message);

    const linked = await parent.post('/api/family/link', { code: code.replace('-', ' ').toLowerCase(), date_of_birth: await birthDate(CHILD_A) });
    expect(linked.statusCode, linked.body).toBe(200);
    const child = FamilyLinkAnswerSchema.parse(linked.json()).child;
    expect(child.student_id).toBe(CHILD_A);
    expect(child.class_name).toMatch(/^Form \d \d[A-Z]$/);
    expect((await children(parent)).map((c) => c.student_id)).toEqual([CHILD_A]);

    // The code was taken: another account cannot use it.
    const { parent: second } = await newParent();
    expectError(await second.post('/api/family/link', { code, date_of_birth: await birthDate(CHILD_A) }), 400);

    const audit = await t.database.db.selectFrom('audit_log').select(['action', 'new_value']).where('entity_id', '=', CHILD_A).where('action', '=', 'family-link').execute();
    expect(audit.some((row) => row.new_value?.endsWith('(code)'))).toBe(true);
  });

  it('"Add a child" takes the date of birth as dd/MM/yyyy, as its placeholder says (D77)', async () => {
    const { parent } = await newParent();
    const code = await familyCodeFor(DAY_FIRST_CHILD);
    const malformed = expectError(await parent.post('/api/family/link', { code, date_of_birth: '31/02/2014' }), 400, 'validation_failed');
    expect(malformed.errors?.date_of_birth).toEqual([BIRTH_DATE_INVALID]);
    const linked = await parent.post('/api/family/link', { code, date_of_birth: toDayFirstDate(await birthDate(DAY_FIRST_CHILD)) });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(FamilyLinkAnswerSchema.parse(linked.json()).child.student_id).toBe(DAY_FIRST_CHILD);
  });

  it('a new code replaces the one before it', async () => {
    const { parent } = await newParent();
    const first = await familyCodeFor(CHILD_B);
    await familyCodeFor(CHILD_B);
    expectError(await parent.post('/api/family/link', { code: first, date_of_birth: await birthDate(CHILD_B) }), 400);
  });

  it('counts code attempts against the account: guessing stops at 429', async () => {
    const { parent } = await newParent();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await parent.post('/api/family/link', { code: 'BBBB-BBBB', date_of_birth: '2012-01-01' })).statusCode);
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('links a child by an invitation the student sends to a parent e-mail of the record, opened by that parent', async () => {
    const { parent, email } = await newParent();
    const studentId = DEMO_STUDENTS.inProgress.student_id;
    expect((await office.post('/api/student', { id: studentId, email_guardian: email.toUpperCase() })).statusCode).toBe(200);
    const student = await client().signInStudent(studentId, DEMO_STUDENTS.inProgress.password);
    const invited = await student.post(`/api/students/${studentId}/family-invitations`, { email });
    expect(invited.statusCode, invited.body).toBe(202);
    // A student invites to their own record only.
    expectError(await student.post(`/api/students/${CHILD_A}/family-invitations`, { email }), 403, 'forbidden');
    const message = await lastMessageTo(email);
    expect(message?.subject).toContain(`${DEMO_STUDENTS.inProgress.first_name} ${DEMO_STUDENTS.inProgress.last_name}`);
    const token = await linkToken(email, '/family/accept');
    const accepted = await parent.post('/api/family/accept', { token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await children(parent)).map((c) => c.student_id)).toContain(studentId);
    expectError(await parent.post('/api/family/accept', { token }), 400, 'link_invalid');
  });

  it('a student may invite only a parent e-mail on the record; the office may invite any address', async () => {
    const studentId = DEMO_STUDENTS.inProgress.student_id;
    const onRecord = uniqueEmail('record-father');
    expect((await office.post('/api/student', { id: studentId, email_father: onRecord })).statusCode).toBe(200);
    const student = await client().signInStudent(studentId, DEMO_STUDENTS.inProgress.password);
    const outsider = uniqueEmail('outsider');
    const tokens = await countRows('family_tokens');
    const refused = expectError(await student.post(`/api/students/${studentId}/family-invitations`, { email: outsider }), 400, 'validation_failed');
    expect(refused.errors?.email).toEqual([STUDENT_INVITE_RECORD_ONLY]);
    expect(await messagesTo(outsider)).toBe(0);
    expect(await countRows('family_tokens')).toBe(tokens);
    // The record's address, in any case, is accepted.
    expect((await student.post(`/api/students/${studentId}/family-invitations`, { email: onRecord.toUpperCase() })).statusCode).toBe(202);
    expect(await messagesTo(onRecord)).toBe(1);
    expect((await office.post(`/api/students/${studentId}/family-invitations`, { email: outsider })).statusCode).toBe(202);
    expect(await messagesTo(outsider)).toBe(1);
  });

  it('an invitation opened by a family account of another address is refused with what to do, and stays unused', async () => {
    const invitedEmail = uniqueEmail('invited-parent');
    expect((await office.post(`/api/students/${CHILD_A}/family-invitations`, { email: invitedEmail })).statusCode).toBe(202);
    const token = await linkToken(invitedEmail, '/family/accept');
    const { parent: other, email: otherEmail } = await newParent();
    const refused = expectError(await other.post('/api/family/accept', { token }), 403, 'forbidden');
    expect(refused.message).toBe(INVITATION_OTHER_ADDRESS(otherEmail));
    expect(refused.message).not.toContain(invitedEmail);
    expect((await children(other)).map((c) => c.student_id)).toEqual([]);
    // The invited address's own account still accepts it.
    const { parent: invited } = await newParent(invitedEmail);
    // (Created from the invited address, the account already took the invitation when it was verified.)
    expect((await children(invited)).map((c) => c.student_id)).toEqual([CHILD_A]);
    expectError(await invited.post('/api/family/accept', { token }), 400, 'link_invalid');
  });

  it('an invitation to an address without an account links the child when that account is created', async () => {
    const email = uniqueEmail('invited');
    expect((await office.post(`/api/students/${CHILD_B}/family-invitations`, { email })).statusCode).toBe(202);
    const family = StudentFamilySchema.parse((await office.get(`/api/students/${CHILD_B}/family`)).json());
    expect(family.invitations.map((i) => i.email)).toContain(email);
    const { parent } = await newParent(email);
    expect((await children(parent)).map((c) => c.student_id)).toEqual([CHILD_B]);
  });

  it('the office links an existing account by e-mail, sees it, and removes it: access ends at once', async () => {
    const { parent, email } = await newParent();
    expectError(await office.post(`/api/students/${THIRD_CHILD}/family`, { email: uniqueEmail('unknown') }), 400);
    const linked = await office.post(`/api/students/${THIRD_CHILD}/family`, { email });
    expect(linked.statusCode, linked.body).toBe(200);
    const family = StudentFamilySchema.parse(linked.json());
    const entry = family.guardians.find((g) => g.email === email);
    expect(entry).toMatchObject({ name: 'Test Parent', linked_via: 'office' });
    expectError(await office.post(`/api/students/${THIRD_CHILD}/family`, { email }), 409, 'conflict');
    expect((await parent.get(`/api/student-record/${THIRD_CHILD}`)).statusCode).toBe(200);

    const removed = await office.delete(`/api/students/${THIRD_CHILD}/family/${entry!.user_id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expectError(await parent.get(`/api/student-record/${THIRD_CHILD}`), 403, 'forbidden');
    expectError(await office.delete(`/api/students/${THIRD_CHILD}/family/${entry!.user_id}`), 404);
  });

  it('refuses the family calls to everyone but a family account, and the office calls to families', async () => {
    const student = await client().signInStudent(DEMO_STUDENTS.inProgress.student_id, DEMO_STUDENTS.inProgress.password);
    expectError(await student.get('/api/family/children'), 403, 'forbidden');
    expectError(await office.get('/api/family/children'), 403, 'forbidden');
    expectError(await client().get('/api/family/children'), 401, 'unauthenticated');
    const family = client();
    expect((await family.post('/api/family/login', { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password })).statusCode).toBe(200);
    expectError(await family.post(`/api/students/${DEMO_FAMILY.childIds[0]}/family-code`), 403, 'forbidden');
    expectError(await family.get(`/api/students/${DEMO_FAMILY.childIds[0]}/family`), 403, 'forbidden');
    expectError(await family.get('/api/students'), 403, 'forbidden');
  });
});

describe("a parent's reach", () => {
  it("reads and saves each linked child's record, under the registration window's rules, and no other child's", async () => {
    const parent = client();
    expect((await parent.post('/api/family/login', { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password })).statusCode).toBe(200);
    const mine = await children(parent);
    expect(mine.map((c) => c.student_id).sort()).toEqual([...DEMO_FAMILY.childIds].sort());
    expect(new Set(mine.map((c) => c.class_id?.[0])).size).toBe(3);
    expect(mine[0]?.guardians[0]).toEqual({ name: DEMO_FAMILY.name, is_you: true });

    for (const child of DEMO_FAMILY.childIds) {
      expect((await parent.get(`/api/student-record/${child}`)).statusCode).toBe(200);
      expect((await parent.get(`/api/registration-status?student_id=${child}`)).statusCode).toBe(200);
    }
    const saved = await parent.post('/api/student', { id: DEMO_STUDENTS.inProgress.student_id, middle_name: 'Family' });
    expect(saved.statusCode, saved.body).toBe(200);
    const stored = await t.database.db.selectFrom('students').select('middle_name').where('id', '=', DEMO_STUDENTS.inProgress.student_id).executeTakeFirstOrThrow();
    expect(stored.middle_name).toBe('Family');
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select('actor_label')
      .where('entity_id', '=', DEMO_STUDENTS.inProgress.student_id)
      .where('field', '=', 'middle_name')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.actor_label).toBe(`guardian:${DEMO_FAMILY.email}`);

    // Not linked: every student route refuses, whatever it is.
    const stranger = '20220002';
    for (const url of [
      `/api/student-record/${stranger}`,
      `/api/get-files/${stranger}`,
      `/api/student-data-files/${stranger}`,
      `/api/report-card-terms/${stranger}`,
      `/api/student-attendance/${stranger}`,
      `/api/registration-form/${stranger}`,
      `/api/registration-status?student_id=${stranger}`,
    ]) {
      expectError(await parent.get(url), 403, 'forbidden');
    }
    expectError(await parent.post('/api/student', { id: stranger, middle_name: 'Intruder' }), 403, 'forbidden');
    expectError(await parent.get('/api/registration-status'), 400);
  });

  it("is held to a closed registration window like the child (422), as staff are not", async () => {
    const parent = client();
    await parent.post('/api/family/login', { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password });
    const child = DEMO_STUDENTS.inProgress.student_id;
    const periods = await t.database.db.selectFrom('registration_periods').selectAll().execute();
    await t.database.db.updateTable('registration_periods').set({ open: 0 }).execute();
    try {
      expectError(await parent.post('/api/student', { id: child, middle_name: 'Closed' }), 422, 'registration_closed');
      expect((await office.post('/api/student', { id: child, middle_name: 'Office' })).statusCode).toBe(200);
    } finally {
      for (const period of periods) await t.database.db.updateTable('registration_periods').set({ open: period.open }).where('id', '=', period.id).execute();
    }
  });

  it('removes a child from the own account; the child still signs in', async () => {
    const { parent } = await newParent();
    await parent.post('/api/family/link', { code: await familyCodeFor(DEMO_STUDENTS.registered.student_id), date_of_birth: await birthDate(DEMO_STUDENTS.registered.student_id) });
    const id = DEMO_STUDENTS.registered.student_id;
    expect((await parent.get(`/api/student-record/${id}`)).statusCode).toBe(200);
    expect((await parent.delete(`/api/family/children/${id}`)).statusCode).toBe(204);
    expectError(await parent.get(`/api/student-record/${id}`), 403);
    expectError(await parent.delete(`/api/family/children/${id}`), 404);
    await client().signInStudent(id, DEMO_PASSWORD);
  });
});

describe("a student's change of a parent e-mail on the record", () => {
  it('mails the old address, and the office sees the change in the family answer', async () => {
    const studentId = DEMO_STUDENTS.inProgress.student_id;
    const oldAddress = uniqueEmail('old-mother');
    const newAddress = uniqueEmail('new-mother');
    expect((await office.post('/api/student', { id: studentId, email_mother: oldAddress })).statusCode).toBe(200);
    // The office's own change tells nobody.
    expect(await messagesTo(oldAddress)).toBe(0);
    const student = await client().signInStudent(studentId, DEMO_STUDENTS.inProgress.password);
    expect((await student.post('/api/student', { id: studentId, email_mother: newAddress })).statusCode).toBe(200);
    expect(await messagesTo(oldAddress)).toBe(1);
    expect(await messagesTo(newAddress)).toBe(0);
    const message = await lastMessageTo(oldAddress);
    expect(message?.subject).toContain(`${DEMO_STUDENTS.inProgress.first_name} ${DEMO_STUDENTS.inProgress.last_name}`);
    expect(message?.text).toContain("mother's e-mail");
    expect(message?.text).toContain('contact the school office');

    const family = StudentFamilySchema.parse((await office.get(`/api/students/${studentId}/family`)).json());
    expect(family.parent_email_changes[0]).toMatchObject({ field: 'email_mother', old_value: oldAddress, new_value: newAddress });
  });

  it('tells nobody when the old value was empty, or when staff or a linked parent change it', async () => {
    const parentClient = client();
    expect((await parentClient.post('/api/family/login', { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password })).statusCode).toBe(200);
    const studentId = DEMO_STUDENTS.inProgress.student_id;
    expect(DEMO_FAMILY.childIds).toContain(studentId);
    const [first, second, third] = [uniqueEmail('first'), uniqueEmail('second'), uniqueEmail('third')];
    expect((await office.post('/api/student', { id: studentId, email_father: null })).statusCode).toBe(200);
    const student = await client().signInStudent(studentId, DEMO_STUDENTS.inProgress.password);
    const outbox = await countRows('outbox');
    expect((await student.post('/api/student', { id: studentId, email_father: first })).statusCode).toBe(200);
    expect((await parentClient.post('/api/student', { id: studentId, email_father: second })).statusCode).toBe(200);
    expect((await office.post('/api/student', { id: studentId, email_father: third })).statusCode).toBe(200);
    expect(await countRows('outbox')).toBe(outbox);
    // Only the student's own change is listed for the office.
    const changes = StudentFamilySchema.parse((await office.get(`/api/students/${studentId}/family`)).json()).parent_email_changes;
    expect(changes.filter((c) => c.field === 'email_father')[0]).toMatchObject({ old_value: null, new_value: first });
    expect(changes.some((c) => c.new_value === second || c.new_value === third)).toBe(false);
  });
});

describe('password reset by e-mail', () => {
  it('mails a link only to an address with an account, and the link sets a new password once', async () => {
    const { parent, email } = await newParent();
    const unknown = uniqueEmail('unknown');
    const answer = await client().post('/api/family/forgot-password', { email: unknown });
    expect(answer.statusCode).toBe(202);
    expect(await messagesTo(unknown)).toBe(0);

    const asked = await client().post('/api/family/forgot-password', { email });
    expect(FamilyMessageAnswerSchema.parse(asked.json()).message).toBe(FamilyMessageAnswerSchema.parse(answer.json()).message);
    const token = await linkToken(email, '/family/reset-password');
    expectError(await client().post('/api/family/reset-password', { token, password: 'password1234' }), 400);
    const reset = await client().post('/api/family/reset-password', { token, password: 'a brand new family passphrase' });
    expect(reset.statusCode, reset.body).toBe(200);
    // Every session from before ends; the old password no longer works.
    expectError(await parent.get('/api/family/children'), 401);
    expectError(await client().post('/api/family/login', { email, password: PASSWORD }), 401);
    expect((await client().post('/api/family/login', { email, password: 'a brand new family passphrase' })).statusCode).toBe(200);
    expectError(await client().post('/api/family/reset-password', { token, password: 'yet another family passphrase' }), 400, 'link_invalid');
  });
});

describe("the office's family code letters", () => {
  it("prints a class's letters as one PDF, a page per student in class order, with codes that work", async () => {
    const response = await office.post('/api/family-letters/1B');
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const pdf = await readPdf(response.rawPayload);
    const students = await t.database.db.selectFrom('students').select(['id', 'first_name', 'last_name', 'date_of_birth']).where('class_id', '=', '1B').orderBy('last_name').orderBy('first_name').orderBy('id').execute();
    expect(pdf.pages).toBe(students.length);
    students.forEach((student, i) => expect(pdf.pageTexts[i]).toContain(student.id));
    // The code is printed letter-spaced: read it with the spaces taken out.
    const code = pdf.pageTexts[0]!.replace(/\s+/g, '').match(/code([A-Z2-9]{4}-[A-Z2-9]{4})It/)?.[1];
    expect(code).toBeDefined();
    const { parent } = await newParent();
    const linked = await parent.post('/api/family/link', { code, date_of_birth: students[0]!.date_of_birth });
    expect(linked.statusCode, linked.body).toBe(200);
  });

  it('is refused to roles without it and for a class that does not exist', async () => {
    const principal = await client().signInAdmin(DEMO_STAFF.principal.username, DEMO_STAFF.principal.password);
    expectError(await principal.post('/api/family-letters/1B'), 403, 'forbidden');
    expectError(await office.post('/api/family-letters/9Z'), 404);
  });
});

describe('the messages, delivered over SMTP as a family receives them', () => {
  it('a registration’s link and an invitation arrive at the family’s mailbox and work from there', async () => {
    const inbox = await startSmtpInbox();
    const mailed = await createTestApp({ smtpUrl: inbox.url });
    try {
      const visitor = new TestClient(mailed.app, '10.17.250.1');
      const email = uniqueEmail('mailed');
      expect((await visitor.post('/api/family/register', { name: 'Dana Ali', email })).statusCode).toBe(202);
      expect(await mailed.app.mailSender.drain()).toMatchObject({ sent: 1, failed: 0 });
      const [verification] = await inbox.waitForMessages(1);
      expect(verification!.recipients).toEqual([email]);
      expect(verification!.subject).toContain('Confirm your e-mail');
      expect(verification!.text).toContain('Hello Dana Ali');
      const link = new URL(verification!.links.find((href) => href.includes('/family/verify'))!);
      expect(verification!.text).toContain(link.href);
      const verified = await visitor.post('/api/family/verify', { token: link.searchParams.get('token'), password: PASSWORD });
      expect(verified.statusCode, verified.body).toBe(200);

      const office = await new TestClient(mailed.app, '10.17.250.2').signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);
      expect((await office.post(`/api/students/${CHILD_A}/family-invitations`, { email })).statusCode).toBe(202);
      await mailed.app.mailSender.drain();
      const [, invitation] = await inbox.waitForMessages(2);
      const accept = new URL(invitation!.links.find((href) => href.includes('/family/accept'))!);
      const accepted = await visitor.post('/api/family/accept', { token: accept.searchParams.get('token') });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(FamilyLinkAnswerSchema.parse(accepted.json()).child.student_id).toBe(CHILD_A);
    } finally {
      await mailed.close();
      await inbox.close();
    }
  });
});
