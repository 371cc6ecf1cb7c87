import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { testConfig } from '../../../tests/support/test-config.js';
import { statementRecorder } from '../../../tests/support/statement-recorder.js';
import { buildApp } from '../app.js';
import { DEMO_FAMILY, DEMO_ADMIN, DEMO_STAFF, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { listUndeclaredRoutes } from '../http/access.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { BIRTH_DATE_INVALID, SessionAnswerSchema, StudentResetAnswerSchema } from '../../shared/auth.schemas.js';
import { toDayFirstDate } from '../../shared/dates.js';
import { startSmtpInbox } from '../../../tests/support/smtp-inbox.js';
import { STAFF_PASSWORD_TOO_COMMON, STAFF_PASSWORD_TOO_SHORT } from '../../shared/staff.schemas.js';
import { hashToken, SESSION_COOKIE } from '../http/session.js';
import { DEVICE_COOKIE } from './device-cookie.js';
import * as auth from './auth.service.js';
import * as family from '../family/family.service.js';

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
    expect(cookie?.value).toMatch(/^[\w-]{22}\.[\w-]{43}$/);
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
    expect(SessionAnswerSchema.parse(session.json()).user).toMatchObject({ role: 'student', student_id: registered.student_id, initials: 'AM' });
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
    expect(SessionAnswerSchema.parse((await replay.get('/api/session')).json()).user).toBeNull();

    const out = await c.post('/logout');
    expect(out.statusCode).toBe(204);
    expect(SessionAnswerSchema.parse((await c.get('/api/session')).json()).user).toBeNull();
    const replaySecond = new TestClient(t.app);
    replaySecond.cookies.set(SESSION_COOKIE, second!);
    expect(SessionAnswerSchema.parse((await replaySecond.get('/api/session')).json()).user).toBeNull();
  });
});

describe('the session answer tells the admin area what the role may do', () => {
  const sessionOf = async (username: string, password: string) =>
    SessionAnswerSchema.parse((await (await client().signInAdmin(username, password)).get('/api/session')).json()).user;

  it('lists the actions on each student the role may take, from the policy', async () => {
    const { office, principal, formTeacher } = DEMO_STAFF;
    expect(await sessionOf(DEMO_ADMIN.username, DEMO_ADMIN.password)).toMatchObject({
      staff_role: 'administrator',
      class_ids: [],
      student_permissions: ['student.read', 'student.edit', 'student.reset-password', 'student.family', 'student.invite-family', 'student.history', 'student.enrolment'],
    });
    expect(await sessionOf(office.username, office.password)).toMatchObject({
      staff_role: 'office',
      student_permissions: ['student.read', 'student.edit', 'student.reset-password', 'student.family', 'student.invite-family', 'student.history', 'student.enrolment', 'absence-notes.read'],
    });
    const principalSession = await sessionOf(principal.username, principal.password);
    expect(principalSession).toMatchObject({ staff_role: 'principal', student_permissions: ['student.read', 'student.history', 'absence-notes.read'] });
    expect(principalSession?.permissions).not.toContain('students.add');
    const teacher = await sessionOf(formTeacher.username, formTeacher.password);
    expect(teacher).toMatchObject({ staff_role: 'form_teacher', class_ids: [formTeacher.classId], student_permissions: ['student.read', 'student.history', 'absence-notes.read'] });
    expect(teacher?.permissions).not.toContain('students.export');
  });

  it('a student may read and edit their own record', async () => {
    const c = await client().signInStudent(registered.student_id, registered.password);
    const user = SessionAnswerSchema.parse((await c.get('/api/session')).json()).user;
    expect(user).toMatchObject({ staff_role: null, permissions: [], student_permissions: ['student.read', 'student.edit', 'student.invite-family', 'absence-notes.send', 'absence-notes.read'] });
  });

  it("a parent may read and edit their linked children's records, and names them", async () => {
    const c = client();
    expect((await c.post('/api/family/login', { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password })).statusCode).toBe(200);
    const user = SessionAnswerSchema.parse((await c.get('/api/session')).json()).user;
    expect(user).toMatchObject({ role: 'guardian', name: DEMO_FAMILY.name, email: DEMO_FAMILY.email, student_id: null, permissions: [], student_permissions: ['student.read', 'student.edit', 'absence-notes.send', 'absence-notes.read'] });
    expect([...(user?.child_ids ?? [])].sort()).toEqual([...DEMO_FAMILY.childIds].sort());
  });
});

/** Student ids of one intake year nobody else in this file signs in as (offset past the others). */
async function untouchedStudents(prefix: string, offset: number, count: number): Promise<[string, ...string[]]> {
  const rows = await t.database.db.selectFrom('students').select('id').where('id', 'like', `${prefix}%`).orderBy('id').offset(offset).limit(count).execute();
  const ids = rows.map((row) => row.id);
  if (ids.length < count) throw new Error(`only ${ids.length} students of ${prefix}`);
  return ids as [string, ...string[]];
}

describe('sign-in delays: no one locks someone else out (docs/decisions.md D37)', () => {
  // The delays are seconds on the server's clock: the clock stands still here (only Date is
  // faked; the requests' own I/O runs as ever) and moves when a test says a wait is over, so a
  // busy machine's slow answers never end a wait early.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const waitOver = (ms: number) => vi.setSystemTime(Date.now() + ms);

  it('failed sign-ins slow the account down with a growing delay, answered 429 with a message and Retry-After', async () => {
    const [student] = await untouchedStudents('2023', 3, 1);
    const signIn = (password: string) => client().post('/api/login-student', { student_id: student, password });
    for (let i = 0; i < 5; i++) expectError(await signIn(`bad-${i}`), 401, 'invalid_credentials');
    // Five failures are free; the sixth attempt waits a second, even with the right password, from a new device.
    const slowed = await signIn('portal-demo-2026');
    expect(expectError(slowed, 429, 'account_throttled').message).toMatch(/wait 1 second/);
    expect(slowed.headers['retry-after']).toBe('1');
    waitOver(1100);
    expectError(await signIn('bad-5'), 401, 'invalid_credentials');
    const longer = await signIn('portal-demo-2026');
    expectError(longer, 429, 'account_throttled');
    expect(longer.headers['retry-after']).toBe('2');
    // An unknown ID is slowed down the same way (no account-exists oracle).
    for (let i = 0; i < 5; i++) expectError(await client().post('/api/login-student', { student_id: '99990001', password: `x-${i}` }), 401);
    expectError(await client().post('/api/login-student', { student_id: '99990001', password: 'x' }), 429, 'account_throttled');
  });

  it("the right password from a device that signed in before is not refused while others' guesses slow the account", async () => {
    await auth.ensureConfiguredAdmin(t.database.db, 'deputy', 'deputy-passphrase-2026');
    const office = client();
    expect((await office.post('/api/admin-login', { username: 'deputy', password: 'deputy-passphrase-2026' })).statusCode).toBe(200);
    expect(office.cookies.get(DEVICE_COOKIE)).toBeDefined();
    expect((await office.post('/logout')).statusCode).toBe(204);
    const student = await client().signInStudent(registered.student_id, registered.password);

    // Someone else guesses the administrator's password from several addresses: five, then one more after the first delay.
    for (let i = 0; i < 5; i++) expectError(await client().post('/api/admin-login', { username: 'Deputy', password: `guess-${i}` }), 401);
    waitOver(1100);
    expectError(await client().post('/api/admin-login', { username: 'Deputy', password: 'guess-5' }), 401);

    // A new device with the right password waits...
    expectError(await client().post('/api/admin-login', { username: 'deputy', password: 'deputy-passphrase-2026' }), 429, 'account_throttled');
    // ...a made-up device cookie, or one that another account earned, counts for nothing...
    const forger = client();
    forger.cookies.set(DEVICE_COOKIE, `${'A'.repeat(22)}.${'B'.repeat(43)}`);
    expectError(await forger.post('/api/admin-login', { username: 'deputy', password: 'deputy-passphrase-2026' }), 429, 'account_throttled');
    const borrowed = client();
    borrowed.cookies.set(DEVICE_COOKIE, student.cookies.get(DEVICE_COOKIE)!);
    expectError(await borrowed.post('/api/admin-login', { username: 'deputy', password: 'deputy-passphrase-2026' }), 429, 'account_throttled');
    // ...and the administrator's own computer signs in at once.
    const back = await office.post('/api/admin-login', { username: 'deputy', password: 'deputy-passphrase-2026' });
    expect(back.statusCode, back.body).toBe(200);
  });

  it('a trusted device is slowed down by its own failures, so it is no unthrottled oracle', async () => {
    const [student] = await untouchedStudents('2023', 6, 1);
    const device = await client().signInStudent(student, 'portal-demo-2026');
    expect((await device.post('/logout')).statusCode).toBe(204);
    for (let i = 0; i < 5; i++) expectError(await device.post('/api/login-student', { student_id: student, password: `bad-${i}` }), 401);
    expectError(await device.post('/api/login-student', { student_id: student, password: 'portal-demo-2026' }), 429, 'account_throttled');
  });

  it("a correct sign-in from a busy school address is never blocked by others' failures", async () => {
    const lab = `10.3.0.${++ipCounter % 250}`;
    const [victim, classmate] = await untouchedStudents('2023', 9, 2);
    for (let i = 0; i < 35; i++) {
      expectError(await new TestClient(t.app, lab).post('/api/login-student', { student_id: `8888${String(i).padStart(4, '0')}`, password: 'nope-nope' }), 401);
    }
    const right = await new TestClient(t.app, lab).post('/api/login-student', { student_id: classmate, password: 'portal-demo-2026' });
    expect(right.statusCode, right.body).toBe(200);
    // From the busy address an account has no free failures: one wrong guess and it waits.
    expectError(await new TestClient(t.app, lab).post('/api/login-student', { student_id: victim, password: 'guess' }), 401);
    expectError(await new TestClient(t.app, lab).post('/api/login-student', { student_id: victim, password: 'portal-demo-2026' }), 429, 'account_throttled');
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

  it('is throttled per address like the other visitor calls', async () => {
    const lab = client();
    for (let i = 0; i < 60; i++) expect((await lab.get(`/api/user/2099${String(i).padStart(4, '0')}`)).statusCode).toBe(200);
    const refused = await lab.get('/api/user/20990099');
    expectError(refused, 429, 'too_many_requests');
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await client().get('/api/user/20990099')).statusCode).toBe(200);
  });
});

describe('first login and the forced change', () => {
  it('refuses a wrong date of birth and a malformed one', async () => {
    expectError(await client().post('/api/first-login', { identifier: firstLogin.sea_no, date_of_birth: '20000101' }), 401, 'invalid_credentials');
    expectError(await client().post('/api/first-login', { identifier: firstLogin.sea_no, date_of_birth: '2000-01-01' }), 401, 'invalid_credentials');
    for (const malformed of ['2014-3-9', '31/02/2014', '2014-02-30', '201403', '09-03-2014']) {
      const body = expectError(await client().post('/api/first-login', { identifier: firstLogin.sea_no, date_of_birth: malformed }), 400, 'validation_failed');
      expect(body.errors?.date_of_birth).toEqual([BIRTH_DATE_INVALID]);
    }
  });

  it('takes the date of birth as dd/MM/yyyy, as the placeholder says, as yyyy-MM-dd and still as yyyymmdd', async () => {
    const [y, m, d] = firstLogin.date_of_birth.split('-');
    for (const dateOfBirth of [`${d}/${m}/${y}`, firstLogin.date_of_birth, compact(firstLogin.date_of_birth)]) {
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
    expect(SessionAnswerSchema.parse((await c.get('/api/session')).json()).user).toMatchObject({ first_login: 1 });

    // Every account's password rule (D77): 12 characters (a date of birth never has them), not a common one.
    for (const weak of ['password123', compact(firstLogin.date_of_birth), 'elevenchars']) {
      const tooShort = await c.post('/api/change-password-student', { student_id: firstLogin.student_id, reset_password: weak });
      expect(expectError(tooShort, 400, 'validation_failed').errors?.reset_password).toEqual([STAFF_PASSWORD_TOO_SHORT]);
    }
    const common = await c.post('/api/change-password-student', { student_id: firstLogin.student_id, reset_password: 'Password1234' });
    expect(expectError(common, 400).errors?.reset_password).toEqual([STAFF_PASSWORD_TOO_COMMON]);
    const other = await c.post('/api/change-password-student', { student_id: registered.student_id, reset_password: 'a-good-new-password' });
    expectError(other, 403, 'forbidden');

    const changed = await c.post('/api/change-password-student', { student_id: firstLogin.student_id, reset_password: 'a-good-new-password' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ name: `${firstLogin.first_name} ${firstLogin.last_name}` });
    expect(SessionAnswerSchema.parse((await c.get('/api/session')).json()).user).toMatchObject({ first_login: 0, password_reset: 0 });

    await client().signInStudent(firstLogin.student_id, 'a-good-new-password');
    const again = await client().post('/api/first-login', { identifier: firstLogin.birth_certificate_no, date_of_birth: compact(firstLogin.date_of_birth) });
    expectError(again, 401, 'invalid_credentials');
  });
});

describe('first login: no oracle for a date of birth or an account state', () => {
  /** Students still waiting for their first sign-in, with both a pin and an SEA number, nobody else here uses. */
  async function newStudents(count: number) {
    return t.database.db
      .selectFrom('students')
      .innerJoin('users', 'users.student_id', 'students.id')
      .select(['students.id', 'students.birth_certificate_no', 'students.sea_no', 'students.date_of_birth'])
      .where('users.first_login', '=', 1)
      .where('students.id', '!=', firstLogin.student_id)
      .where('students.birth_certificate_no', 'is not', null)
      .where('students.sea_no', 'is not', null)
      .where('students.date_of_birth', 'is not', null)
      .orderBy('students.id')
      .limit(count)
      .execute();
  }

  it('answers a wrong date and an account already set up alike: status, code, message and work', async () => {
    const setUp = await t.database.db.selectFrom('students').select(['birth_certificate_no', 'date_of_birth']).where('id', '=', registered.student_id).executeTakeFirstOrThrow();
    const [fresh] = await newStudents(1);
    // The same work is shown by the statements each way runs (kind and table, in order), recorded
    // on an app over this file's database; timing them would measure the machine's load too.
    const statements: string[] = [];
    const recording = await buildApp(testConfig(), { db: t.database.db.withPlugin(statementRecorder(statements)) }, { logger: false, webRoot: '/nonexistent', mailSender: { start: false } });
    onTestFinished(() => recording.close());
    const post = async (body: { identifier: string | null; date_of_birth: string }) => {
      statements.length = 0;
      const answer = await new TestClient(recording, `10.2.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`).post('/api/first-login', body);
      return { answer, statements: [...statements] };
    };
    const bodies = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const wrong = await post({ identifier: fresh!.sea_no, date_of_birth: `2000010${i + 1}` });
      const known = await post({ identifier: setUp.birth_certificate_no, date_of_birth: compact(setUp.date_of_birth!) });
      expectError(wrong.answer, 401, 'invalid_credentials');
      expectError(known.answer, 401, 'invalid_credentials');
      bodies.add(wrong.answer.body).add(known.answer.body);
      // The app's first call also does once-per-process work: compared from the second round on.
      if (i > 0) {
        expect(known.statements.length).toBeGreaterThan(1);
        expect(known.statements).toEqual(wrong.statements);
      }
    }
    expect(bodies.size).toBe(1);
    // Both count against the student's window: the fifth attempt of each kind is the last one checked.
    expectError(await client().post('/api/first-login', { identifier: fresh!.sea_no, date_of_birth: '20000109' }), 401);
    expectError(await client().post('/api/first-login', { identifier: setUp.birth_certificate_no, date_of_birth: compact(setUp.date_of_birth!) }), 401);
    expectError(await client().post('/api/first-login', { identifier: fresh!.sea_no, date_of_birth: '20000110' }), 429);
    expectError(await client().post('/api/first-login', { identifier: setUp.birth_certificate_no, date_of_birth: compact(setUp.date_of_birth!) }), 429);
  });

  it('the pin and the SEA number share one attempt window per student', async () => {
    const [, student] = await newStudents(2);
    for (let i = 0; i < 5; i++) {
      expectError(await client().post('/api/first-login', { identifier: student!.birth_certificate_no, date_of_birth: `2000020${i + 1}` }), 401);
    }
    const bySea = await client().post('/api/first-login', { identifier: student!.sea_no!.toLowerCase(), date_of_birth: compact(student!.date_of_birth!) });
    expectError(bySea, 429);
    expect(bySea.headers['retry-after']).toBeDefined();
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
    expect(SessionAnswerSchema.parse((await student.get('/api/session')).json()).user).toBeNull();

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
    expect(SessionAnswerSchema.parse((await first.get('/api/session')).json()).user).toMatchObject({ student_id: target.id });
    expect(SessionAnswerSchema.parse((await second.get('/api/session')).json()).user).toBeNull();
  });

  it('holds a student\'s own new password to every account\'s rule (D77)', async () => {
    const target = await t.database.db.selectFrom('students').select('id').where('id', 'like', '2024%').orderBy('id').limit(1).offset(9).executeTakeFirstOrThrow();
    const session = await client().signInStudent(target.id, 'portal-demo-2026');
    const change = (password: string) => session.post('/api/change-password-student', { student_id: target.id, password, current_password: 'portal-demo-2026' });
    expect(expectError(await change('password123'), 400, 'validation_failed').errors?.password).toEqual([STAFF_PASSWORD_TOO_SHORT]);
    expect(expectError(await change('password1234'), 400).errors?.password).toEqual([STAFF_PASSWORD_TOO_COMMON]);
    expect((await change('a-student-passphrase')).statusCode).toBe(200);
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

describe('"Keep me signed in" survives a password change (D47)', () => {
  const sessionCookieOf = (response: { cookies: { name: string; value: string; maxAge?: number; expires?: Date }[] }) =>
    response.cookies.find((cookie) => cookie.name === SESSION_COOKIE);

  it.each([
    { remember: true, offset: 7 },
    { remember: false, offset: 8 },
  ])('the re-issued cookie keeps the choice made at sign-in (remember: $remember)', async ({ remember, offset }) => {
    const { db } = t.database;
    const target = await db.selectFrom('students').select('id').where('id', 'like', '2024%').orderBy('id').limit(1).offset(offset).executeTakeFirstOrThrow();
    const c = client();
    const signIn = await c.post('/api/login-student', { student_id: target.id, password: 'portal-demo-2026', remember });
    expect(signIn.statusCode).toBe(200);
    expect(sessionCookieOf(signIn)?.maxAge !== undefined).toBe(remember);
    const before = c.cookies.get(SESSION_COOKIE);
    const changed = await c.post('/api/change-password-student', { student_id: target.id, password: 'brand-new-password', current_password: 'portal-demo-2026' });
    expect(changed.statusCode).toBe(200);
    const reissued = sessionCookieOf(changed);
    expect(reissued?.value).toBeDefined();
    expect(reissued?.value).not.toBe(before);
    expect(reissued?.maxAge).toBe(remember ? testConfig().rememberedSessionMs / 1000 : undefined);
    if (!remember) expect(reissued?.expires).toBeUndefined();
  });
});

describe('"Keep me signed in" lasts REMEMBER_DAYS after the last use for students and families; staff keep their limits', () => {
  const sessionCookieOf = (response: { cookies: { name: string; value: string; maxAge?: number }[] }) =>
    response.cookies.find((cookie) => cookie.name === SESSION_COOKIE);
  const config = testConfig();
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;

  /** Puts the client's session's last use `agoMs` back and its end `endsInMs` from now (negative: past). */
  async function age(c: TestClient, agoMs: number, endsInMs: number): Promise<void> {
    const token = c.cookies.get(SESSION_COOKIE);
    if (!token) throw new Error('not signed in');
    const now = Date.now();
    await t.database.db
      .updateTable('sessions')
      .set({ last_seen_at: new Date(now - agoMs).toISOString(), expires_at: new Date(now + endsInMs).toISOString() })
      .where('id_hash', '=', hashToken(token))
      .execute();
  }
  const signedInUser = async (c: TestClient) => SessionAnswerSchema.parse((await c.get('/api/session')).json()).user;
  const studentAt = async (offset: number) =>
    (await t.database.db.selectFrom('students').select('id').where('id', 'like', '2025%').orderBy('id').limit(1).offset(offset).executeTakeFirstOrThrow()).id;

  it('a ticked student session survives hours unused, and each use moves its end and the cookie’s to REMEMBER_DAYS ahead', async () => {
    const c = client();
    const signIn = await c.post('/api/login-student', { student_id: await studentAt(3), password: 'portal-demo-2026', remember: true });
    expect(signIn.statusCode).toBe(200);
    expect(sessionCookieOf(signIn)?.maxAge).toBe(config.rememberedSessionMs / 1000);
    const token = c.cookies.get(SESSION_COOKIE)!;
    const endOf = async () => Date.parse((await t.database.db.selectFrom('sessions').select('expires_at').where('id_hash', '=', hashToken(token)).executeTakeFirstOrThrow()).expires_at);
    expect(Math.abs((await endOf()) - (Date.now() + config.rememberedSessionMs))).toBeLessThan(HOUR);

    // Three hours unused (past the 60-minute idle limit), one day left: still signed in, and the end slides.
    await age(c, 3 * HOUR, DAY);
    const used = await c.get('/api/session');
    expect(SessionAnswerSchema.parse(used.json()).user).not.toBeNull();
    expect(sessionCookieOf(used)?.maxAge).toBe(config.rememberedSessionMs / 1000);
    expect(Math.abs((await endOf()) - (Date.now() + config.rememberedSessionMs))).toBeLessThan(HOUR);

    // Unused for longer than REMEMBER_DAYS: ended.
    await age(c, config.rememberedSessionMs + HOUR, DAY);
    expect(await signedInUser(c)).toBeNull();
  });

  it('a ticked session has ended when its end has passed, however recently it was used', async () => {
    const c = client();
    expect((await c.post('/api/login-student', { student_id: await studentAt(4), password: 'portal-demo-2026', remember: true })).statusCode).toBe(200);
    await age(c, 2 * 60_000, -1000);
    expect(await signedInUser(c)).toBeNull();
  });

  it('unticked, a student session still ends after the idle limit, with a cookie that ends with the browser', async () => {
    const c = client();
    const signIn = await c.post('/api/login-student', { student_id: await studentAt(5), password: 'portal-demo-2026', remember: false });
    expect(sessionCookieOf(signIn)?.maxAge).toBeUndefined();
    await age(c, config.sessionIdleMs + 60_000, DAY);
    expect(await signedInUser(c)).toBeNull();
  });

  it('a ticked staff session keeps SESSION_TTL_HOURS and the idle limit', async () => {
    const c = client();
    const signIn = await c.post('/api/admin-login', { username: DEMO_STAFF.principal.username, password: DEMO_STAFF.principal.password, remember: true });
    expect(signIn.statusCode).toBe(200);
    expect(sessionCookieOf(signIn)?.maxAge).toBe(config.sessionTtlMs / 1000);
    await age(c, 2 * 60_000, HOUR);
    const used = await c.get('/api/session');
    expect(SessionAnswerSchema.parse(used.json()).user).not.toBeNull();
    // No sliding for staff: the use sets no new cookie.
    expect(sessionCookieOf(used)).toBeUndefined();
    await age(c, config.sessionIdleMs + 60_000, HOUR);
    expect(await signedInUser(c)).toBeNull();
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
    expect(response.json()).toEqual({ name: 'Admin', role: 'staff', staff_role: 'administrator' });
    expect(SessionAnswerSchema.parse((await c.get('/api/session')).json()).user).toMatchObject({ role: 'staff', username: DEMO_ADMIN.username });
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
    expect(SessionAnswerSchema.parse((await idle.get('/api/session')).json()).user).toBeNull();

    const absolute = await client().signInStudent(registered.student_id, registered.password);
    await db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('user_id', 'in', db.selectFrom('users').select('id').where('student_id', '=', registered.student_id)).execute();
    expect(SessionAnswerSchema.parse((await absolute.get('/api/session')).json()).user).toBeNull();
  });
});

describe('first login never answers with the wrong student', () => {
  const iso = '2026-01-01T00:00:00.000Z';
  async function addFirstLoginStudent(id: string, values: { birth_certificate_no?: string; sea_no?: string; date_of_birth: string }) {
    await t.database.db.insertInto('students').values({ id, first_name: 'Twin', last_name: id, ...values, created_at: iso, updated_at: iso }).execute();
    await t.database.db.insertInto('users').values({ role: 'student', student_id: id, first_login: 1, created_at: iso, updated_at: iso }).execute();
  }

  it("refuses a number that is one student's pin and another's SEA number, with the same date of birth, exactly like a wrong answer", async () => {
    await addFirstLoginStudent('T9000001', { birth_certificate_no: 'X-SHARED-1', date_of_birth: '2014-05-05' });
    await addFirstLoginStudent('T9000002', { sea_no: 'X-SHARED-1', date_of_birth: '2014-05-05' });
    const wrong = await client().post('/api/first-login', { identifier: 'X-SHARED-1', date_of_birth: '20140506' });
    expectError(wrong, 401, 'invalid_credentials');
    const ambiguous = await client().post('/api/first-login', { identifier: 'X-SHARED-1', date_of_birth: '20140505' });
    expectError(ambiguous, 401, 'invalid_credentials');
    expect(ambiguous.json()).toEqual(wrong.json());
    expect(ambiguous.cookies.find((cookie) => cookie.name === SESSION_COOKIE)).toBeUndefined();
  });

  it('answers the one student whose date of birth matches when the number is shared across the two fields', async () => {
    await addFirstLoginStudent('T9000003', { sea_no: 'X-SHARED-2', date_of_birth: '2014-05-05' });
    await addFirstLoginStudent('T9000004', { birth_certificate_no: 'X-SHARED-2', date_of_birth: '2013-02-02' });
    const response = await client().post('/api/first-login', { identifier: 'x-shared-2', date_of_birth: '20130202' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ student_id: 'T9000004' });
  });
});

describe("a student's forgotten password, by a link mailed to the family (D77)", () => {
  /** Demo students with a password, no family account linked and no verified parent e-mail, nobody else here uses. */
  async function unlinkedStudents(count: number, offset: number) {
    const { db } = t.database;
    return db
      .selectFrom('students')
      .innerJoin('users', 'users.student_id', 'students.id')
      .select(['students.id', 'students.date_of_birth'])
      .where('users.first_login', '=', 0)
      .where('users.password_reset', '=', 0)
      .where('students.id', 'like', '2023%')
      .where('students.date_of_birth', 'is not', null)
      .where('students.id', 'not in', db.selectFrom('guardian_students').select('student_id'))
      .where('students.id', 'not in', db.selectFrom('parent_email_verifications').select('student_id'))
      .orderBy('students.id')
      .limit(count)
      .offset(offset)
      .execute();
  }
  const countTokens = async () => Number((await t.database.db.selectFrom('family_tokens').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('mails a link over SMTP to the linked family; it works once, under the rule, and ends the student\'s sessions', async () => {
    const inbox = await startSmtpInbox();
    const mailed = await createTestApp({ smtpUrl: inbox.url }, { mailSender: { start: true } });
    try {
      const [student] = await unlinkedStudents(1, 0);
      const office = await new TestClient(mailed.app, '10.2.251.1').signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);
      expect((await office.post(`/api/students/${student!.id}/family`, { email: DEMO_FAMILY.email })).statusCode).toBe(200);
      const signedIn = await new TestClient(mailed.app, '10.2.251.2').signInStudent(student!.id, 'portal-demo-2026');

      const asked = await new TestClient(mailed.app, '10.2.251.3').post('/api/student-password/forgot', {
        student_id: student!.id,
        date_of_birth: toDayFirstDate(student!.date_of_birth!),
      });
      expect(asked.statusCode, asked.body).toBe(202);
      expect(asked.json()).toEqual({ message: auth.STUDENT_FORGOT_ANSWER });
      const [mail] = await inbox.waitForMessages(1);
      expect(mail!.recipients).toEqual([DEMO_FAMILY.email]);
      expect(mail!.text).toContain(student!.id);
      const token = new URL(mail!.links.find((href) => href.includes('/reset-password?token='))!).searchParams.get('token');
      // Only the link's hash is stored.
      expect(await mailed.database.db.selectFrom('family_tokens').select('id').where('token_hash', '=', token!).executeTakeFirst()).toBeUndefined();

      const visitor = new TestClient(mailed.app, '10.2.251.4');
      const short = await visitor.post('/api/student-password/reset', { token, password: 'password123' });
      expect(expectError(short, 400, 'validation_failed').errors?.password).toEqual([STAFF_PASSWORD_TOO_SHORT]);
      const common = await visitor.post('/api/student-password/reset', { token, password: 'Password1234' });
      expect(expectError(common, 400).errors?.password).toEqual([STAFF_PASSWORD_TOO_COMMON]);
      // A refused password leaves the link unused.
      const reset = await visitor.post('/api/student-password/reset', { token, password: 'a-new-student-passphrase' });
      expect(reset.statusCode, reset.body).toBe(200);
      expect(StudentResetAnswerSchema.parse(reset.json()).student_id).toBe(student!.id);
      // Nobody is signed in by the link; the student's other sessions ended.
      expect(SessionAnswerSchema.parse((await visitor.get('/api/session')).json()).user).toBeNull();
      expect(SessionAnswerSchema.parse((await signedIn.get('/api/session')).json()).user).toBeNull();
      await new TestClient(mailed.app, '10.2.251.5').signInStudent(student!.id, 'a-new-student-passphrase');
      expectError(await new TestClient(mailed.app, '10.2.251.6').post('/api/login-student', { student_id: student!.id, password: 'portal-demo-2026' }), 401);
      // Once only; and a student's link is no family account's.
      expectError(await visitor.post('/api/student-password/reset', { token, password: 'another-passphrase-1' }), 400, 'link_invalid');
      expectError(await visitor.post('/api/family/reset-password', { token, password: 'another-passphrase-1' }), 400, 'link_invalid');
    } finally {
      await mailed.close();
      await inbox.close();
    }
  });

  it('answers an unknown ID, a wrong date, a student with no address and one with an address in the same words, and writes only for the last', async () => {
    const [noAddress, linked] = await unlinkedStudents(2, 1);
    expect((await (await client().signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password)).post(`/api/students/${linked!.id}/family`, { email: DEMO_FAMILY.email })).statusCode).toBe(200);
    const tokensBefore = await countTokens();
    const ask = (student_id: string, date: string) => client().post('/api/student-password/forgot', { student_id, date_of_birth: date });
    const answers = [
      await ask('99990077', '09/03/2014'),
      await ask(linked!.id, '01/01/2001'),
      await ask(noAddress!.id, toDayFirstDate(noAddress!.date_of_birth!)),
      await ask(linked!.id, linked!.date_of_birth!),
    ];
    for (const answer of answers) expect(answer.statusCode).toBe(202);
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(answers[0]!.json()).toEqual({ message: auth.STUDENT_FORGOT_ANSWER });
    expect(auth.STUDENT_FORGOT_ANSWER).toMatch(/ask the school office/i);
    // The link of the last one is written after its answer: wait for it.
    await expect.poll(countTokens, { timeout: 20_000 }).toBe(tokensBefore + 1);
    const outbox = await t.database.db.selectFrom('outbox').select(['to_address', 'template']).where('template', '=', 'student-password-reset').execute();
    expect(outbox).toEqual([{ to_address: DEMO_FAMILY.email, template: 'student-password-reset' }]);
  });

  it('does the same reads before its answer whether or not a link is made; the write comes after', async () => {
    const [noAddress, linked] = await unlinkedStudents(2, 3);
    expect((await (await client().signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password)).post(`/api/students/${linked!.id}/family`, { email: DEMO_FAMILY.email })).statusCode).toBe(200);
    const statements: string[] = [];
    const db = t.database.db.withPlugin(statementRecorder(statements));
    const run = async (studentId: string, date: string) => {
      statements.length = 0;
      const result = await auth.requestStudentPasswordReset(db, { student_id: studentId, date_of_birth: date }, { actor_user_id: null, actor_label: 'visitor', ip: `10.2.252.${++ipCounter % 250}`, request_id: 'test' });
      return { result, statements: [...statements] };
    };
    const tokensBefore = await countTokens();
    const unknown = await run('99990078', '2014-03-09');
    const none = await run(noAddress!.id, noAddress!.date_of_birth!);
    const found = await run(linked!.id, linked!.date_of_birth!);
    expect(found.statements.length).toBeGreaterThan(2);
    expect(none.statements).toEqual(found.statements);
    expect(unknown.statements).toEqual(found.statements);
    expect([unknown.result.deliver, none.result.deliver]).toEqual([null, null]);
    expect(await countTokens()).toBe(tokensBefore);
    await found.result.deliver!();
    expect(await countTokens()).toBe(tokensBefore + 1);
  });

  it('a link expires after an hour', async () => {
    const [student] = await unlinkedStudents(1, 5);
    const userId = (await t.database.db.selectFrom('users').select('id').where('student_id', '=', student!.id).executeTakeFirstOrThrow()).id;
    const token = await t.database.db.transaction().execute((trx) => family.issuePasswordResetLink(trx, userId, null));
    await t.database.db.updateTable('family_tokens').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('user_id', '=', userId).execute();
    expectError(await client().post('/api/student-password/reset', { token, password: 'a-new-student-passphrase' }), 400, 'link_invalid');
    await client().signInStudent(student!.id, 'portal-demo-2026');
  });

  it('is throttled like the family\'s reset requests: a few a student, more a network', async () => {
    const ask = (c: TestClient, student_id: string) => c.post('/api/student-password/forgot', { student_id, date_of_birth: '09/03/2014' });
    for (let i = 0; i < 3; i++) expect((await ask(client(), '99990079')).statusCode).toBe(202);
    const perStudent = await ask(client(), '99990079');
    expectError(perStudent, 429, 'too_many_requests');
    expect(perStudent.headers['retry-after']).toBeDefined();
    const lab = client();
    for (let i = 0; i < 20; i++) expect((await ask(lab, `9998${String(i).padStart(4, '0')}`)).statusCode).toBe(202);
    expectError(await ask(lab, '99989999'), 429, 'too_many_requests');
    expect((await ask(client(), '99989999')).statusCode).toBe(202);
  });

  it('refuses a malformed request with the error shape', async () => {
    const body = expectError(await client().post('/api/student-password/forgot', { student_id: '', date_of_birth: '31/02/2014' }), 400, 'validation_failed');
    expect(Object.keys(body.errors ?? {}).sort()).toEqual(['date_of_birth', 'student_id']);
    expectError(await client().post('/api/student-password/reset', { token: 'short', password: 'a-new-student-passphrase' }), 400, 'validation_failed');
  });
});
