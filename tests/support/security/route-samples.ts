import crypto from 'node:crypto';
import type { Db } from '../../../src/server/db/database.js';
import { nowIso } from '../../../src/server/db/database.js';
import { hashPassword } from '../../../src/server/auth/password.js';
import { DEMO_ADMIN, DEMO_FAMILY, DEMO_PASSWORD, DEMO_STAFF, DEMO_STAFF_PASSWORD, DEMO_STUDENTS } from '../../../src/server/db/demo-data/demo-accounts.js';
import { generate, generateSecret } from 'otplib';
import { FAMILY_CODE_ALPHABET } from '../../../src/shared/family.schemas.js';
import { multipartBody, ONE_PIXEL_PNG } from '../test-files.js';
import { insertAbsenceNote, pastSchoolDaysOfTerm } from '../absence-notes.js';
import { isParentCaller, isStaffCaller, STAFF_CALLER_USERNAMES, userIdOfGuardian, type AgentRequest, type CallerKind } from './harness.js';
import { serverSecret } from '../../../src/server/http/server-secret.repository.js';
import { sealTotpSecret, totpSealingKey } from '../../../src/server/staff-2fa/totp-secret.js';
import { mintPendingSignIn, PENDING_SIGN_IN_COOKIE } from '../../../src/server/auth/pending-sign-in.js';
import { unsubscribeToken } from '../../../src/server/notices/notices.service.js';
import { getRolloverState, runRollover, undoRollover } from '../../../src/server/rollover/rollover.service.js';
import { schoolToday } from '../../../src/shared/dates.js';
import type { RolloverPlanInput } from '../../../src/shared/rollover.schemas.js';

/**
 * One valid call per route: the access suite walks Fastify's route table and fails for any route
 * missing here, so a new route cannot ship without its sample. Who may make the call is not said
 * here but in the reviewed table, tests/security/access-table.ts; a sample says how to make it and
 * what an allowed call answers (`ok`).
 *
 * `student` is the id the call names: the caller's own for `own`, `parent` and staff, another
 * student's for `other` and `parent-other`.
 */
export interface SampleContext {
  db: Db;
  caller: CallerKind;
  student: string;
}

export interface RouteSample {
  request(ctx: SampleContext): AgentRequest | Promise<AgentRequest>;
  /** The status of an allowed call: one number, or per caller group. */
  ok: number | { visitor?: number; student?: number; staff?: number; guardian?: number };
  /**
   * The call renders a PDF or a spreadsheet, or spends an argon2 hash: the hostile-input suite
   * gives it a quarter share of the generated cases so the run stays inside CI's time.
   */
  costly?: boolean;
}

const registered = DEMO_STUDENTS.registered;
const firstLogin = DEMO_STUDENTS.firstLogin;
const compact = (isoDate: string) => isoDate.replaceAll('-', '');

/** A student none of the suites sign in as, for calls that change an account (password reset). */
export const BYSTANDER_STUDENT = '20220003';

async function studentRow(db: Db, id: string) {
  return db.selectFrom('students').select(['first_name', 'last_name', 'date_of_birth']).where('id', '=', id).executeTakeFirstOrThrow();
}

/**
 * Today's finalise of one new student in 1A, written directly as Finalise writes it (record,
 * first-login account, the finalise's row; an ID outside the year's numbering, which the sweeps
 * may fill), with the intake empty; answers the finalise's id.
 */
async function freshFinalise(db: Db): Promise<number> {
  await db.deleteFrom('intake_students').execute();
  const at = nowIso();
  const tag = crypto.randomBytes(4).toString('hex').toUpperCase();
  const id = `F-${tag}`;
  const school = await db.selectFrom('primary_schools').select('name').orderBy('name').executeTakeFirstOrThrow();
  await db
    .insertInto('students')
    .values({ id, first_name: 'Sample', last_name: 'Child', sex: 'Male', date_of_birth: '2014-01-01', sea_no: `S${tag}`, previous_school: school.name, class_id: '1A', created_at: at, updated_at: at })
    .execute();
  await db
    .insertInto('users')
    .values({ role: 'student', student_id: id, username: null, display_name: 'Sample Child', password_hash: null, first_login: 1, password_reset: 0, created_at: at, updated_at: at })
    .execute();
  const row = await db
    .insertInto('intake_finalises')
    .values({ finalised_on: schoolToday(), file_name: 'sea.csv', students: JSON.stringify([{ id, row: 2, class_id: '1A' }]), finalised_by_user_id: null, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A child of the intake in 1A with a new SEA number, written directly; answers its id. */
async function intakeChild(db: Db): Promise<number> {
  const existing = await db.selectFrom('intake_students').select('id').executeTakeFirst();
  if (existing) {
    await db.updateTable('intake_students').set({ class_id: '1A' }).execute();
    return existing.id;
  }
  const iso = nowIso();
  const school = await db.selectFrom('primary_schools').select('name').orderBy('name').executeTakeFirstOrThrow();
  const row = await db
    .insertInto('intake_students')
    .values({
      row_number: 2,
      file_name: 'sea.csv',
      sea_no: `S${crypto.randomBytes(4).toString('hex').toUpperCase()}`,
      first_name: 'Sample',
      middle_name: null,
      last_name: 'Child',
      date_of_birth: '2014-01-01',
      sex: 'Male',
      primary_school: school.name,
      class_id: '1A',
      created_at: iso,
      updated_at: iso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Sets the office's decision on a record directly (the review samples start from a known state). */
async function setRegistrationReview(db: Db, studentId: string, state: 'returned' | 'verified'): Promise<void> {
  const iso = nowIso();
  await db
    .insertInto('registration_reviews')
    .values({ student_id: studentId, state, note: state === 'returned' ? 'Fix the family data.' : null, steps: state === 'returned' ? '["family"]' : '[]', reviewed_by: null, reviewed_at: iso, created_at: iso, updated_at: iso })
    .onConflict((oc) => oc.column('student_id').doUpdateSet({ state, reviewed_at: iso, updated_at: iso }))
    .execute();
}

/** A re-registration year held open for the samples, asking `studentId` to confirm each step (D62). */
async function openSampleReRegistration(db: Db, year: number, studentId?: string): Promise<void> {
  const iso = nowIso();
  await db.insertInto('re_registrations').values({ year, opened_by: null, opened_at: iso, created_at: iso, updated_at: iso }).onConflict((oc) => oc.column('year').doNothing()).execute();
  if (!studentId) return;
  await db
    .insertInto('re_registration_steps')
    .values((['student', 'family', 'health', 'other', 'documents'] as const).map((step) => ({ year, student_id: studentId, step, created_at: iso, updated_at: iso })))
    .onConflict((oc) => oc.columns(['year', 'student_id', 'step']).doNothing())
    .execute();
}

/** Puts a small PNG in the student's picture slot directly (so a removal has something to remove). */
async function ensurePicture(db: Db, studentId: string): Promise<string> {
  const existing = await db
    .selectFrom('documents')
    .select(['public_id', 'file_name'])
    .where('student_id', '=', studentId)
    .where('file_type', '=', 'picture')
    .executeTakeFirst();
  if (existing) return existing.public_id;
  const iso = nowIso();
  const publicId = crypto.randomBytes(16).toString('base64url');
  await db
    .insertInto('documents')
    .values({
      public_id: publicId,
      student_id: studentId,
      file_type: 'picture',
      file_name: 'picture.png',
      mime: 'image/png',
      size: ONE_PIXEL_PNG.length,
      sha256: crypto.createHash('sha256').update(ONE_PIXEL_PNG).digest('hex'),
      bytes: ONE_PIXEL_PNG,
      created_at: iso,
      updated_at: iso,
    })
    .execute();
  return publicId;
}

async function pictureName(db: Db, studentId: string): Promise<string> {
  await ensurePicture(db, studentId);
  const row = await db
    .selectFrom('documents')
    .select('file_name')
    .where('student_id', '=', studentId)
    .where('file_type', '=', 'picture')
    .executeTakeFirstOrThrow();
  return row.file_name;
}

function upload(url: string, filename: string, bytes: Buffer, fields: { name: string; value: string }[] = []): AgentRequest {
  const { body, headers } = multipartBody([...fields, { name: 'file', filename, bytes, contentType: 'text/csv' }]);
  return { url, payload: body, headers };
}

const get = (url: string) => () => ({ url });

/** The staff account whose second factor the sign-in sample completes (no suite signs in as it with a password). */
const SECOND_FACTOR_ACCOUNT = DEMO_STAFF.principal.username;

/**
 * Gives a staff account a known second-factor state, written directly as the server would:
 * `enabled` on or only enrolled, no time step used yet. Answers the account and its secret.
 */
async function withSecondFactor(db: Db, username: string, enabled: boolean) {
  const user = await db.selectFrom('users').select(['id', 'password_hash']).where('username', '=', username).executeTakeFirstOrThrow();
  const secret = generateSecret();
  const key = totpSealingKey(await serverSecret(db)());
  await db
    .updateTable('users')
    .set({ totp_secret: sealTotpSecret(key, user.id, secret), totp_enabled_at: enabled ? nowIso() : null, totp_last_step: null })
    .where('id', '=', user.id)
    .execute();
  return { user, secret };
}

/** A staff caller's own second factor, set up (or only enrolled) with a fresh secret; a student gets none. */
async function ownSecondFactorCode(db: Db, caller: CallerKind, enabled: boolean): Promise<string> {
  if (!isStaffCaller(caller)) return '123456';
  const { secret } = await withSecondFactor(db, STAFF_CALLER_USERNAMES[caller], enabled);
  return generate({ secret });
}

/** A staff caller's second factor off, so enrolment can start. */
async function withoutSecondFactor(db: Db, caller: CallerKind): Promise<void> {
  if (!isStaffCaller(caller)) return;
  await db.updateTable('users').set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null }).where('username', '=', STAFF_CALLER_USERNAMES[caller]).execute();
}

/** Keys are `METHOD /url` exactly as Fastify's route table has them. HEAD rows reuse GET's. */
export const ROUTE_SAMPLES: Record<string, RouteSample> = {
  // ---- public: CSRF cookie, health, API docs, session ----
  'GET /sanctum/csrf-cookie': { request: get('/sanctum/csrf-cookie'), ok: 204 },
  'GET /api/health': { request: get('/api/health'), ok: 200 },
  'GET /api/health/ready': { request: get('/api/health/ready'), ok: 200 },
  'HEAD /api/docs': { request: get('/api/docs'), ok: 200 },
  'GET /api/docs/': { request: get('/api/docs/'), ok: 200 },
  'GET /api/docs/static/index.html': { request: get('/api/docs/static/index.html'), ok: 302 },
  'GET /api/docs/static/swagger-initializer.js': { request: get('/api/docs/static/swagger-initializer.js'), ok: 200 },
  'GET /api/docs/json': { request: get('/api/docs/json'), ok: 200 },
  'GET /api/docs/yaml': { request: get('/api/docs/yaml'), ok: 200 },
  'GET /api/docs/static/*': { request: get('/api/docs/static/swagger-ui.css'), ok: 200 },
  'GET /api/session': { request: get('/api/session'), ok: 200 },
  'POST /logout': { request: () => ({ url: '/logout' }), ok: 204 },

  // ---- auth (visitor calls answer anyone; signed-in ones act on the caller) ----
  'POST /api/login-student': { costly: true,
    request: () => ({ url: '/api/login-student', body: { student_id: registered.student_id, password: registered.password } }),
    ok: 200,
  },
  'POST /api/first-login': { costly: true,
    request: () => ({ url: '/api/first-login', body: { identifier: firstLogin.sea_no, date_of_birth: compact(firstLogin.date_of_birth) } }),
    ok: 200,
  },
  'GET /api/user/:student_id': { request: ({ student }) => ({ url: `/api/user/${student}` }), ok: 200 },
  'POST /api/admin-login': { costly: true,
    request: () => ({ url: '/api/admin-login', body: { username: DEMO_ADMIN.username, password: DEMO_ADMIN.password } }),
    ok: 200,
  },
  'POST /api/admin-login/totp': {
    // The principal's password was right a moment ago (the pending cookie); the code is the app's.
    request: async ({ db }) => {
      const { user, secret } = await withSecondFactor(db, SECOND_FACTOR_ACCOUNT, true);
      const pending = mintPendingSignIn(await serverSecret(db)(), { id: user.id, passwordHash: user.password_hash ?? '' }, false);
      return { url: '/api/admin-login/totp', body: { code: await generate({ secret }) }, headers: { cookie: `${PENDING_SIGN_IN_COOKIE}=${pending}` } };
    },
    ok: 200,
  },

  // ---- staff sign-in through the school's provider (none configured here: each answers a redirect to the sign-in page) ----
  'GET /api/staff-sign-in': { request: get('/api/staff-sign-in'), ok: 200 },
  'GET /api/oidc/:provider/start': { request: get('/api/oidc/school/start?remember=1'), ok: 302 },
  'GET /api/oidc/:provider/callback': { request: get('/api/oidc/school/callback?code=a-code&state=a-state'), ok: 302 },

  // ---- the staff second factor (the caller's own; a student has none) ----
  'GET /api/staff-2fa': { request: get('/api/staff-2fa'), ok: { student: 403, staff: 200 } },
  'POST /api/staff-2fa/enrol': { costly: true,
    // With the caller's own password (put back first, as the password change's sample does).
    request: async ({ db, caller }) => {
      await withoutSecondFactor(db, caller);
      const password = caller === 'admin' ? DEMO_ADMIN.password : DEMO_STAFF_PASSWORD;
      if (isStaffCaller(caller)) await restoreStaffPassword(db, STAFF_CALLER_USERNAMES[caller], password);
      return { url: '/api/staff-2fa/enrol', body: { current_password: password } };
    },
    ok: { student: 403, staff: 200 },
  },
  'POST /api/staff-2fa/confirm': {
    request: async ({ db, caller }) => ({ url: '/api/staff-2fa/confirm', body: { code: await ownSecondFactorCode(db, caller, false) } }),
    ok: { student: 403, staff: 200 },
  },
  'DELETE /api/staff-2fa': {
    request: async ({ db, caller }) => ({ url: '/api/staff-2fa', body: { code: await ownSecondFactorCode(db, caller, true) } }),
    ok: { student: 403, staff: 204 },
  },
  // A student's reset (D77): the request's answer is the same for any ID; the link is a bystander student's.
  // A new ID for each call, past the per-student limit (as the family's asks a new address each time).
  'POST /api/student-password/forgot': {
    request: () => ({ url: '/api/student-password/forgot', body: { student_id: `9${crypto.randomInt(10_000_000).toString().padStart(7, '0')}`, date_of_birth: '01/01/2001' } }),
    ok: 202,
  },
  'POST /api/student-password/reset': { costly: true,
    request: async ({ db }) => {
      // The last student of the 2023 intake: no caller of the sweeps signs in as them.
      const user = await db.selectFrom('users').select('id').where('role', '=', 'student').where('student_id', 'like', '2023%').orderBy('student_id', 'desc').limit(1).executeTakeFirstOrThrow();
      return { url: '/api/student-password/reset', body: { token: await familyToken(db, { purpose: 'reset-password', user_id: user.id }), password: 'a bystander student passphrase' } };
    },
    ok: 200,
  },
  'POST /api/find-student-id': {
    // Look-ups are throttled per student (a handful an hour): staff and parents look up other students.
    request: async ({ db, caller }) => {
      const lookedUp = ['visitor', 'own', 'other', 'admin'].includes(caller) ? registered.student_id : isParentCaller(caller) ? '20220004' : '20220002';
      const row = await studentRow(db, lookedUp);
      return { url: '/api/find-student-id', body: { first_name: row.first_name, last_name: row.last_name, date_of_birth: row.date_of_birth } };
    },
    ok: 200,
  },
  'POST /api/change-password-student': { costly: true,
    // The own password, changed to itself: a real change that leaves the demo sign-in working.
    request: ({ student }) => ({
      url: '/api/change-password-student',
      body: { student_id: student, password: DEMO_PASSWORD, current_password: DEMO_PASSWORD },
    }),
    // A parent has no student password of their own here.
    ok: { student: 200, staff: 403, guardian: 403 },
  },
  'POST /api/reset-password-student': { costly: true,
    request: () => ({ url: '/api/reset-password-student', body: { student_id: BYSTANDER_STUDENT } }),
    ok: 200,
  },

  // ---- registration ----
  'GET /api/student-record/:userID': { request: ({ student }) => ({ url: `/api/student-record/${student}` }), ok: 200 },
  'POST /api/student': {
    request: ({ student }) => ({ url: '/api/student', body: { id: student, middle_name: 'Security' } }),
    ok: 200,
  },
  'GET /api/registration-status': {
    // A student's own window; a parent names the child (a child not theirs is refused).
    request: ({ caller, student }) => ({ url: isParentCaller(caller) ? `/api/registration-status?student_id=${student}` : '/api/registration-status' }),
    ok: 200,
  },
  'GET /api/registration-periods': { request: get('/api/registration-periods'), ok: 200 },
  'PUT /api/registration-periods': {
    request: () => ({ url: '/api/registration-periods', body: { form_level: 6, open: 1, deadline: '2027-12-18' } }),
    ok: 200,
  },
  'DELETE /api/registration-periods/:formLevel': { request: () => ({ url: '/api/registration-periods/6' }), ok: 200 },

  // ---- documents ----
  'POST /api/store-file': {
    request: ({ student }) => {
      const { body, headers } = multipartBody([
        { name: 'id', value: student },
        { name: 'file_type', value: 'picture' },
        { name: 'file', filename: 'me.png', contentType: 'image/png', bytes: ONE_PIXEL_PNG },
      ]);
      return { url: '/api/store-file', payload: body, headers };
    },
    ok: 200,
  },
  'GET /api/get-files/:student_id': { request: ({ student }) => ({ url: `/api/get-files/${student}` }), ok: 200 },
  'GET /api/student-data-files/:studentId': { request: ({ student }) => ({ url: `/api/student-data-files/${student}` }), ok: 200 },
  'POST /api/student-data-files': {
    request: async ({ db, student }) => ({
      url: '/api/student-data-files',
      body: { fileName: await pictureName(db, student), fileType: 'picture', student },
    }),
    ok: 200,
  },
  'DELETE /api/file': {
    request: async ({ db, student }) => {
      await ensurePicture(db, student);
      return { url: `/api/file?id=${student}&fileType=picture` };
    },
    ok: 200,
  },
  'GET /api/documents/:publicId': {
    request: async ({ db, student }) => ({ url: `/api/documents/${await ensurePicture(db, student)}` }),
    ok: 200,
  },
  'GET /api/documents/:publicId/thumbnail': {
    request: async ({ db, student }) => ({ url: `/api/documents/${await ensurePicture(db, student)}/thumbnail` }),
    ok: 200,
  },

  // ---- absence notes (D93): the samples' notes are the family's, on the day before the last of the term so far ----
  'POST /api/absence-notes': {
    request: async ({ db, student }) => {
      // A note for a day no note waits for: each call is a first note.
      await db.deleteFrom('absence_notes').where('student_id', '=', student).where('state', '=', 'waiting').execute();
      const { body, headers } = multipartBody([
        { name: 'student_id', value: student },
        { name: 'date_from', value: await sampleNoteDay(db) },
        { name: 'part', value: 'whole_day' },
        { name: 'reason', value: 'illness' },
        { name: 'text', value: 'A fever since the night before.' },
        { name: 'file', filename: 'doctors-note.png', contentType: 'image/png', bytes: ONE_PIXEL_PNG },
      ]);
      return { url: '/api/absence-notes', payload: body, headers };
    },
    ok: 201,
  },
  'GET /api/absence-notes': { request: ({ student }) => ({ url: `/api/absence-notes?student_id=${student}` }), ok: 200 },
  'GET /api/absence-notes/:id': {
    request: async ({ db, student }) => ({ url: `/api/absence-notes/${await insertAbsenceNote(db, { studentId: student, date: await sampleNoteDay(db) })}` }),
    ok: 200,
  },
  'GET /api/absence-notes/:id/attachment': {
    request: async ({ db, student }) => ({
      url: `/api/absence-notes/${await insertAbsenceNote(db, { studentId: student, date: await sampleNoteDay(db), attachment: ONE_PIXEL_PNG })}/attachment`,
    }),
    ok: 200,
  },
  'POST /api/absence-notes/:id/withdraw': {
    request: async ({ db, student }) => ({ url: `/api/absence-notes/${await insertAbsenceNote(db, { studentId: student, date: await sampleNoteDay(db) })}/withdraw`, body: {} }),
    ok: 200,
  },
  'GET /api/absence-notes/queue': { request: get('/api/absence-notes/queue'), ok: 200 },
  'POST /api/absence-notes/:id/decision': {
    request: async ({ db, student }) => ({
      url: `/api/absence-notes/${await insertAbsenceNote(db, { studentId: student, date: await sampleNoteDay(db) })}/decision`,
      body: { decision: 'decline', reason: 'evidence_needed' },
    }),
    ok: 200,
  },

  // ---- registration form and term reports ----
  'GET /api/registration-form/:studentId': { costly: true, request: ({ student }) => ({ url: `/api/registration-form/${student}` }), ok: 200 },
  'GET /api/registration-form/:studentId/content': { request: ({ student }) => ({ url: `/api/registration-form/${student}/content` }), ok: 200 },
  'GET /api/report-card-terms/:userID': { request: ({ student }) => ({ url: `/api/report-card-terms/${student}` }), ok: 200 },
  'GET /api/report-card/:studentId/:year/:term': { costly: true, request: ({ student }) => ({ url: `/api/report-card/${student}/2025/1` }), ok: 200 },
  'GET /api/term-reports-posted': { request: get('/api/term-reports-posted'), ok: 200 },
  // Report day (D59): 5A's cards (a form teacher's own class); the form zip of a one-card Form 6, so the sweeps stay quick.
  'GET /api/report-cards/class/:classId/:year/:term': { costly: true, request: get('/api/report-cards/class/5A/2025/1'), ok: 200 },
  'GET /api/report-cards/form/:formLevel/:year/:term': {
    costly: true,
    request: async ({ db }) => {
      await oneCardForm(db);
      return { url: '/api/report-cards/form/6/2025/1' };
    },
    ok: 200,
  },

  'POST /api/post-term-reports': {
    request: () => ({ url: '/api/post-term-reports', body: { year: 2025, term: 1, posted: 1 } }),
    ok: 200,
  },
  'POST /api/term-reports/schedule': {
    request: () => ({ url: '/api/term-reports/schedule', body: { year: 2025, term: 3, scheduled_at: null } }),
    ok: 200,
  },
  'GET /api/term-results/template': { costly: true, request: get('/api/term-results/template?format=csv'), ok: 200 },
  'GET /api/term-results/grading': { request: get('/api/term-results/grading'), ok: 200 },
  'GET /api/term-results/subjects': { request: get('/api/term-results/subjects'), ok: 200 },
  'POST /api/term-results/import': {
    request: () =>
      upload('/api/term-results/import?year=2025&term=1&dryRun=1', 'results.csv', Buffer.from('student_id,subject,coursework,exam\n20220001,ENG,40,50\n')),
    ok: 200,
  },

  // ---- attendance ----
  'GET /api/student-attendance/:userID': { request: ({ student }) => ({ url: `/api/student-attendance/${student}` }), ok: 200 },
  'GET /api/student-attendance-report/:studentId/:startDate/:endDate': { costly: true,
    request: ({ student }) => ({ url: `/api/student-attendance-report/${student}/2026-09-01/2026-09-30` }),
    ok: 200,
  },
  'POST /api/attendance/scans': {
    request: ({ student }) => ({ url: '/api/attendance/scans', body: { student_id: student, date: '2026-09-02', time: '07:45' } }),
    ok: 200,
  },
  'GET /api/class-attendance': { request: get('/api/class-attendance?class_id=5A&from=2026-09-01&to=2026-09-30'), ok: 200 },
  'GET /api/class-attendance/pdf': { costly: true, request: get('/api/class-attendance/pdf?class_id=5A&from=2026-09-01&to=2026-09-30'), ok: 200 },
  'GET /api/class-attendance/xlsx': { costly: true, request: get('/api/class-attendance/xlsx?class_id=5A&from=2026-09-01&to=2026-09-30'), ok: 200 },
  'GET /api/scanner-devices': { request: get('/api/scanner-devices'), ok: 200 },
  'POST /api/scanner-devices': { request: () => ({ url: '/api/scanner-devices', body: { name: 'Gate security test' } }), ok: 201 },
  'DELETE /api/scanner-devices/:id': {
    request: async ({ db }) => {
      const iso = nowIso();
      const row = await db
        .insertInto('scanner_devices')
        .values({ name: 'To revoke', key_hash: crypto.randomBytes(32).toString('hex'), created_at: iso, updated_at: iso })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { url: `/api/scanner-devices/${row.id}` };
    },
    ok: 200,
  },
  'POST /api/attendance/import': {
    request: ({ student }) => upload('/api/attendance/import?dryRun=1', 'scans.csv', Buffer.from(`student_id,date,time\n${student},2026-09-02,07:45\n`)),
    ok: 200,
  },
  'GET /api/attendance/settings': { request: get('/api/attendance/settings'), ok: 200 },
  'PUT /api/attendance/settings': { request: () => ({ url: '/api/attendance/settings', body: { bell_time: '08:00' } }), ok: 200 },
  'GET /api/attendance/holidays': { request: get('/api/attendance/holidays'), ok: 200 },
  'POST /api/attendance/holidays': {
    request: () => ({ url: '/api/attendance/holidays', body: { date: `2031-01-${String(1 + crypto.randomInt(28)).padStart(2, '0')}`, name: 'Test day' } }),
    ok: 201,
  },
  'DELETE /api/attendance/holidays/:id': {
    request: async ({ db }) => {
      const iso = nowIso();
      const row = await db
        .insertInto('school_holidays')
        .values({ date: `2032-${String(1 + crypto.randomInt(12)).padStart(2, '0')}-${String(1 + crypto.randomInt(28)).padStart(2, '0')}`, name: 'To remove', created_at: iso, updated_at: iso })
        .onConflict((oc) => oc.column('date').doUpdateSet({ name: 'To remove' }))
        .returning('id')
        .executeTakeFirstOrThrow();
      return { url: `/api/attendance/holidays/${row.id}` };
    },
    ok: 204,
  },

  // ---- lookups ----
  'GET /api/towns': { request: get('/api/towns'), ok: 200 },
  'GET /api/regional-corporation': { request: get('/api/regional-corporation'), ok: 200 },
  'GET /api/religions': { request: get('/api/religions'), ok: 200 },
  'GET /api/ethnic-groups': { request: get('/api/ethnic-groups'), ok: 200 },
  'GET /api/houses': { request: get('/api/houses'), ok: 200 },
  'GET /api/form-classes-list': { request: get('/api/form-classes-list'), ok: 200 },
  'GET /api/primary-schools': { request: get('/api/primary-schools'), ok: 200 },

  // ---- admin ----
  'GET /api/students': { request: get('/api/students'), ok: 200 },
  'GET /api/students/:studentId/history': { request: ({ student }) => ({ url: `/api/students/${student}/history` }), ok: 200 },
  'GET /api/registration-data-spreadsheet': { costly: true, request: get('/api/registration-data-spreadsheet'), ok: 200 },
  'GET /api/registration-report/:classId': { costly: true, request: get('/api/registration-report/5A'), ok: 200 },
  'GET /api/parents-contact/:classId': { costly: true, request: get('/api/parents-contact/5A'), ok: 200 },
  'GET /api/parents-contact-spreadsheet/:classId': { costly: true, request: get('/api/parents-contact-spreadsheet/5A'), ok: 200 },
  'GET /api/students/call-list': { costly: true, request: get('/api/students/call-list?class_id=5A&registration=in_progress'), ok: 200 },
  'GET /api/students/import-template': { costly: true, request: get('/api/students/import-template'), ok: 200 },
  'POST /api/students': {
    // A new ID and pin each call: the suites repeat calls, and a second add of the same student is a 409.
    request: () => {
      const tag = crypto.randomBytes(4).toString('hex').toUpperCase();
      return {
        url: '/api/students',
        body: { id: `S-${tag}`, first_name: 'Sample', last_name: 'Student', date_of_birth: '2014-01-01', class_id: '1A', birth_certificate_no: `P-${tag}` },
      };
    },
    ok: 201,
  },
  'POST /api/students/import': {
    request: () => upload('/api/students/import?dryRun=1', 'students.csv', Buffer.from('id,first_name,last_name,class_id,date_of_birth,birth_certificate_no\n20269999,Test,Person,1A,2014-01-01,B26-999\n')),
    ok: 200,
  },

  // ---- the student list's bulk actions (D83): the bystander, into the class it is in ----
  'POST /api/students/bulk/summary': { request: () => ({ url: '/api/students/bulk/summary', body: { selection: { kind: 'filter', filter: { class_id: '5A' } } } }), ok: 200 },
  'POST /api/students/bulk/class': {
    request: async ({ db }) => {
      const { class_id } = await db.selectFrom('students').select('class_id').where('id', '=', BYSTANDER_STUDENT).executeTakeFirstOrThrow();
      return { url: '/api/students/bulk/class', body: { selection: { kind: 'ids', ids: [BYSTANDER_STUDENT] }, class_id } };
    },
    ok: 200,
  },
  'POST /api/students/bulk/invitations': { request: () => ({ url: '/api/students/bulk/invitations', body: { selection: { kind: 'ids', ids: [BYSTANDER_STUDENT] } } }), ok: 200 },
  'POST /api/students/bulk/paper-documents': {
    request: () => ({ url: '/api/students/bulk/paper-documents', body: { selection: { kind: 'ids', ids: [BYSTANDER_STUDENT] }, file_type: 'birth_certificate' } }),
    ok: 200,
  },
  'GET /api/class-list/:classId': { costly: true, request: get('/api/class-list/5A'), ok: 200 },
  'GET /api/class-register/:classId': { costly: true, request: get('/api/class-register/5A?month=2026-11'), ok: 200 },

  // ---- the new Form 1 (D61) ----
  'GET /api/intake': { request: get('/api/intake'), ok: 200 },
  'POST /api/intake/import': {
    // An empty intake and new SEA numbers each call: a second list waits for a clear (409).
    request: async ({ db }) => {
      await db.deleteFrom('intake_students').execute();
      const school = await db.selectFrom('primary_schools').select('name').orderBy('name').executeTakeFirstOrThrow();
      const tag = crypto.randomBytes(4).toString('hex').toUpperCase();
      return upload('/api/intake/import', 'sea.csv', Buffer.from(`SEA Number,First Name,Last Name,Date of Birth,Sex,Primary School\nS${tag},Sample,Child,2014-01-01,Female,"${school.name}"\n`));
    },
    ok: 200,
  },
  'POST /api/intake/balance': { request: async ({ db }) => (await intakeChild(db), { url: '/api/intake/balance' }), ok: 200 },
  'PATCH /api/intake/students/:id': { request: async ({ db }) => ({ url: `/api/intake/students/${await intakeChild(db)}`, body: { class_id: '1B' } }), ok: 200 },
  'DELETE /api/intake': { request: get('/api/intake'), ok: 200 },
  'POST /api/intake/finalise': {
    // One child in a class: each allowed call makes one new Form 1 student.
    request: async ({ db }) => (await intakeChild(db), { url: '/api/intake/finalise' }),
    ok: 200,
  },
  'POST /api/intake/finalises/:id/undo': {
    // A fresh finalise of one untouched student each call (the intake emptied): the undo's target is today's newest.
    request: async ({ db }) => ({ url: `/api/intake/finalises/${await freshFinalise(db)}/undo` }),
    ok: 200,
  },

  // ---- enrolment history, withdraw and readmit: each allowed change on a student made for the call ----
  'GET /api/enrolment/:studentId': { request: ({ student }) => ({ url: `/api/enrolment/${student}` }), ok: 200 },
  'POST /api/enrolment/:studentId/withdraw': {
    request: async ({ db }) => ({ url: `/api/enrolment/${await throwawayStudent(db)}/withdraw`, body: { date: schoolToday(), reason: 'withdrawn' } }),
    ok: 200,
  },
  'POST /api/enrolment/:studentId/readmit': {
    request: async ({ db }) => {
      const id = await throwawayStudent(db);
      await db.updateTable('students').set({ class_id: null, left_on: schoolToday(), left_class: '1A' }).where('id', '=', id).execute();
      return { url: `/api/enrolment/${id}/readmit`, body: { date: schoolToday(), class_id: '1B' } };
    },
    ok: 200,
  },

  // ---- staff accounts ----
  'GET /api/staff': { request: get('/api/staff'), ok: 200 },
  'POST /api/staff': { costly: true,
    // A new username each call: the suites repeat calls, and a second add of one name is a 409.
    request: () => ({ url: '/api/staff', body: { username: `sample.${crypto.randomBytes(4).toString('hex')}`, name: 'Sample Teacher', role: 'form_teacher', class_ids: ['5A'] } }),
    ok: 201,
  },
  'PATCH /api/staff/:id': {
    request: async ({ db }) => ({ url: `/api/staff/${await throwawayStaff(db)}`, body: { name: 'Renamed Staff' } }),
    ok: 200,
  },
  'POST /api/staff/:id/reset-second-factor': {
    // A throwaway account with its factor on and an e-mail: each allowed call also queues its owner's mail.
    request: async ({ db }) => {
      const id = await throwawayStaff(db, `throwaway.${crypto.randomBytes(4).toString('hex')}@school.example`);
      const { username } = await db.selectFrom('users').select('username').where('id', '=', id).executeTakeFirstOrThrow();
      await withSecondFactor(db, username!, true);
      return { url: `/api/staff/${id}/reset-second-factor` };
    },
    ok: 200,
  },
  'POST /api/change-password-staff': { costly: true,
    // The caller's own password, changed to itself (students are refused: the route is staff's).
    request: async ({ db, caller }) => {
      const password = caller === 'admin' ? DEMO_ADMIN.password : DEMO_STAFF_PASSWORD;
      if (isStaffCaller(caller)) await restoreStaffPassword(db, STAFF_CALLER_USERNAMES[caller], password);
      return { url: '/api/change-password-staff', body: { current_password: password, password } };
    },
    ok: { student: 403, staff: 200 },
  },

  // ---- family accounts ----
  'POST /api/family/register': {
    // A new address each call: a registration of an address with an account mails its owner instead.
    request: () => ({ url: '/api/family/register', body: { name: 'Sample Parent', email: `sample.${crypto.randomBytes(4).toString('hex')}@example.com` } }),
    ok: 202,
  },
  // The confirmation page's call: the link and the password its opener chooses (hashed: costly).
  'POST /api/family/verify': { costly: true,
    request: async ({ db }) => {
      const email = `verify.${crypto.randomBytes(4).toString('hex')}@example.com`;
      return { url: '/api/family/verify', body: { token: await familyToken(db, { purpose: 'verify-email', email, name: 'Verified Parent' }), password: 'a verified family passphrase' } };
    },
    ok: 200,
  },
  'POST /api/family/login': { costly: true, request: () => ({ url: '/api/family/login', body: { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password } }), ok: 200 },
  // An address of its own each call (a mailbox gets a few a day); the answer does not tell whether it has an account.
  'POST /api/family/forgot-password': { request: () => ({ url: '/api/family/forgot-password', body: { email: `forgot.${crypto.randomBytes(4).toString('hex')}@example.com` } }), ok: 202 },
  'POST /api/family/reset-password': { costly: true,
    request: async ({ db }) => ({
      url: '/api/family/reset-password',
      body: { token: await familyToken(db, { purpose: 'reset-password', user_id: await bystanderGuardian(db) }), password: 'a bystander family passphrase' },
    }),
    ok: 200,
  },
  'GET /api/family/children': { request: get('/api/family/children'), ok: 200 },
  'GET /api/family/home': { request: get('/api/family/home'), ok: 200 },
  'POST /api/family/link': {
    // A fresh code for a child the demo family is not linked to, with that child's date of birth.
    request: async ({ db }) => {
      const code = Array.from({ length: 8 }, () => FAMILY_CODE_ALPHABET[crypto.randomInt(FAMILY_CODE_ALPHABET.length)]).join('');
      const iso = nowIso();
      await db
        .insertInto('family_codes')
        .values({ student_id: BYSTANDER_STUDENT, code_hash: sha256(code), expires_at: new Date(Date.now() + 86_400_000).toISOString(), created_at: iso, updated_at: iso })
        .execute();
      return { url: '/api/family/link', body: { code, date_of_birth: (await studentRow(db, BYSTANDER_STUDENT)).date_of_birth } };
    },
    ok: 200,
  },
  'POST /api/family/accept': {
    request: async ({ db }) => ({ url: '/api/family/accept', body: { token: await familyToken(db, { purpose: 'invitation', student_id: BYSTANDER_STUDENT, email: DEMO_FAMILY.email }) } }),
    ok: 200,
  },
  'DELETE /api/family/children/:student_id': {
    // The demo family's own link to a bystander child, made for the call (its links to its children stay).
    request: async ({ db }) => {
      await linkFamily(db, await userIdOfGuardian(db), BYSTANDER_STUDENT);
      return { url: `/api/family/children/${BYSTANDER_STUDENT}` };
    },
    ok: 204,
  },
  'GET /api/students/:student_id/family': { request: ({ student }) => ({ url: `/api/students/${student}/family` }), ok: 200 },
  'POST /api/students/:student_id/family': {
    request: async ({ db, student }) => {
      await db.deleteFrom('guardian_students').where('user_id', '=', await bystanderGuardian(db)).where('student_id', '=', student).execute();
      return { url: `/api/students/${student}/family`, body: { email: BYSTANDER_FAMILY } };
    },
    ok: 200,
  },
  'DELETE /api/students/:student_id/family/:user_id': {
    request: async ({ db, student }) => {
      const userId = await bystanderGuardian(db);
      await linkFamily(db, userId, student);
      return { url: `/api/students/${student}/family/${userId}` };
    },
    ok: 200,
  },
  'POST /api/students/:student_id/family-code': { request: ({ student }) => ({ url: `/api/students/${student}/family-code` }), ok: 200 },
  'POST /api/students/:student_id/family-invitations': {
    // Invitations are capped per student a day: earlier calls' are cleared first. A student invites
    // only a parent e-mail of the record (D66), so the address is put on it.
    request: async ({ db, student }) => {
      await db.deleteFrom('family_tokens').where('purpose', '=', 'invitation').where('student_id', '=', student).execute();
      await db.updateTable('students').set({ email_guardian: 'invited.parent@example.com' }).where('id', '=', student).execute();
      return { url: `/api/students/${student}/family-invitations`, body: { email: 'invited.parent@example.com' } };
    },
    ok: 202,
  },
  'POST /api/family-letters/:class_id': { costly: true, request: () => ({ url: '/api/family-letters/5A' }), ok: 200 },

  // ---- the office's review: on the bystander, whose family nothing else signs in as ----
  'GET /api/review/documents': { request: get('/api/review/documents?class_id=5A&file_type=picture'), ok: 200 },
  'POST /api/review/documents/:publicId': {
    // From submitted each time: accepting an accepted document is refused (409, D81).
    request: async ({ db }) => {
      const publicId = await ensurePicture(db, BYSTANDER_STUDENT);
      await db.updateTable('documents').set({ review_state: 'submitted', review_reason: null, reviewed_by: null, reviewed_at: null }).where('public_id', '=', publicId).execute();
      return { url: `/api/review/documents/${publicId}`, body: { decision: 'accept' } };
    },
    ok: 200,
  },
  'GET /api/registration-review/:studentId': { request: ({ student }) => ({ url: `/api/registration-review/${student}` }), ok: 200 },
  'POST /api/review/registrations/:studentId/verify': {
    // From returned: a decision the office may take whatever the flags say (D56).
    request: async ({ db }) => {
      await setRegistrationReview(db, BYSTANDER_STUDENT, 'returned');
      return { url: `/api/review/registrations/${BYSTANDER_STUDENT}/verify`, body: { confirm_unreviewed: true } };
    },
    ok: 200,
  },
  'POST /api/review/registrations/:studentId/return': {
    request: async ({ db }) => {
      await setRegistrationReview(db, BYSTANDER_STUDENT, 'verified');
      return { url: `/api/review/registrations/${BYSTANDER_STUDENT}/return`, body: { note: 'The family data needs the father\'s phone.', steps: ['family'] } };
    },
    ok: 200,
  },
  'POST /api/review/registrations/:studentId/reopen': {
    request: async ({ db }) => {
      await setRegistrationReview(db, BYSTANDER_STUDENT, 'verified');
      return { url: `/api/review/registrations/${BYSTANDER_STUDENT}/reopen`, body: {} };
    },
    ok: 200,
  },
  'GET /api/review/students/:studentId': { request: ({ student }) => ({ url: `/api/review/students/${student}` }), ok: 200 },
  'GET /api/review/students/:studentId/notice': { costly: true, request: ({ student }) => ({ url: `/api/review/students/${student}/notice` }), ok: 200 },

  // ---- re-registration (D62): administrators open and close; the record's readers read; its editors confirm ----
  'GET /api/re-registrations': { request: get('/api/re-registrations'), ok: 200 },
  'POST /api/re-registrations': {
    request: async ({ db }) => {
      await db.deleteFrom('re_registrations').where('year', '=', 2031).execute();
      return { url: '/api/re-registrations', body: { year: 2031 } };
    },
    ok: 200,
  },
  'DELETE /api/re-registrations/:year': {
    request: async ({ db }) => {
      await openSampleReRegistration(db, 2032);
      return { url: '/api/re-registrations/2032' };
    },
    ok: 200,
  },
  'GET /api/students/:studentId/re-registration': { request: ({ student }) => ({ url: `/api/students/${student}/re-registration` }), ok: 200 },
  'POST /api/students/:studentId/re-registration/:step': {
    request: async ({ db, student }) => {
      // The newest year asks this student (a step already confirmed answers 200 again).
      await openSampleReRegistration(db, 2033, student);
      return { url: `/api/students/${student}/re-registration/health` };
    },
    ok: 200,
  },
  'GET /api/review/re-registrations/:studentId': { request: ({ student }) => ({ url: `/api/review/re-registrations/${student}` }), ok: 200 },

  // ---- the Outbox: administrators only ----
  'GET /api/outbox': { request: get('/api/outbox'), ok: 200 },
  'POST /api/outbox/test': { request: () => ({ url: '/api/outbox/test', body: { to: 'smtp-check@example.com' } }), ok: 201 },
  'POST /api/outbox/:id/resend': {
    request: async ({ db }) => ({ url: `/api/outbox/${await failedMessage(db)}/resend` }),
    ok: 200,
  },

  // ---- messages to families ----
  'GET /api/notices': { request: get('/api/notices'), ok: 200 },
  'POST /api/notices/:id/read': {
    request: async ({ db }) => ({ url: `/api/notices/${await familyNotice(db)}/read` }),
    ok: 204,
  },
  'GET /api/notice-preferences': { request: get('/api/notice-preferences'), ok: 200 },
  'PUT /api/notice-preferences': { request: () => ({ url: '/api/notice-preferences', body: { 'attendance-digest': true, 'deadline-reminder': false } }), ok: 200 },
  'POST /api/notices/unsubscribe': {
    // The bystander family's digest: a signed link works for anyone who holds it, signed in or not.
    request: async ({ db }) => ({ url: '/api/notices/unsubscribe', body: { token: await unsubscribeToken(db, `user:${await bystanderGuardian(db)}`, 'attendance-digest') } }),
    ok: 200,
  },
  'GET /api/mail/unsubscribe': {
    // Only the way to the confirm page: nothing is turned off on a GET.
    request: async ({ db }) => ({ url: `/api/mail/unsubscribe?token=${await unsubscribeToken(db, `user:${await bystanderGuardian(db)}`, 'deadline-reminder')}` }),
    ok: 303,
  },
  'POST /api/mail/unsubscribe': {
    // A mail program's one-click POST (RFC 8058): the form body, the token in the address.
    request: async ({ db }) => ({
      url: `/api/mail/unsubscribe?token=${await unsubscribeToken(db, `user:${await bystanderGuardian(db)}`, 'deadline-reminder')}`,
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
    ok: 200,
  },
  'GET /api/notice-settings': { request: get('/api/notice-settings'), ok: 200 },
  'PUT /api/notice-settings': { request: () => ({ url: '/api/notice-settings', body: { digest_enabled: true, digest_time: '10:00', reminder_days: 7 } }), ok: 200 },
  'GET /api/deadline-reminders/preview': { request: get('/api/deadline-reminders/preview'), ok: 200 },
  'POST /api/deadline-reminders': { request: () => ({ url: '/api/deadline-reminders' }), ok: 200 },
  'GET /api/students/:student_id/parent-emails': { request: ({ student }) => ({ url: `/api/students/${student}/parent-emails` }), ok: 200 },
  'PUT /api/students/:student_id/parent-emails/:parent': {
    request: async ({ db, student }) => {
      await db.updateTable('students').set({ email_mother: 'sample.mother@example.com' }).where('id', '=', student).execute();
      return { url: `/api/students/${student}/parent-emails/mother`, body: { email: 'sample.mother@example.com', verified: true } };
    },
    ok: 200,
  },

  // ---- the year rollover: administrators only. The run is undone by the next sample, and each sample starts from a known state ----
  'GET /api/year-rollover': { request: get('/api/year-rollover'), ok: 200 },
  'POST /api/year-rollover/preview': {
    // After a run the next one waits for the new year (409, D79): the sample previews from the demo year.
    request: async ({ db }) => {
      await undoStandingRollover(db);
      return { url: '/api/year-rollover/preview', body: await rolloverPlan(db) };
    },
    ok: 200,
  },
  'POST /api/year-rollover': {
    request: async ({ db }) => {
      await undoStandingRollover(db);
      return { url: '/api/year-rollover', body: await rolloverPlan(db) };
    },
    ok: 201,
  },
  'POST /api/year-rollover/:id/undo': { request: async ({ db }) => ({ url: `/api/year-rollover/${await standingRollover(db)}/undo` }), ok: 200 },

  // ---- privacy ----
  'GET /api/privacy/audit-log': { request: ({ student }) => ({ url: `/api/privacy/audit-log?student_id=${student}&limit=20` }), ok: 200 },
  'GET /api/privacy/students/:studentId/history': { request: ({ student }) => ({ url: `/api/privacy/students/${student}/history` }), ok: 200 },
  'GET /api/privacy/students/:studentId/export': { costly: true, request: ({ student }) => ({ url: `/api/privacy/students/${student}/export` }), ok: 200 },
  'DELETE /api/privacy/students/:studentId': {
    request: async ({ db }) => {
      const id = await throwawayStudent(db);
      return { url: `/api/privacy/students/${id}`, body: { confirm_student_id: id } };
    },
    ok: 200,
  },
};

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** A family account no suite signs in as: the office links it, resets its password, removes it. */
export const BYSTANDER_FAMILY = 'bystander.family@example.com';

async function bystanderGuardian(db: Db): Promise<number> {
  const found = await db.selectFrom('users').select('id').where('role', '=', 'guardian').where('email', '=', BYSTANDER_FAMILY).executeTakeFirst();
  if (found) return found.id;
  const iso = nowIso();
  const row = await db
    .insertInto('users')
    .values({ role: 'guardian', email: BYSTANDER_FAMILY, email_verified_at: iso, display_name: 'Bystander Parent', password_hash: await demoHash(DEMO_FAMILY.password), created_at: iso, updated_at: iso })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? bystanderGuardian(db);
}

async function linkFamily(db: Db, userId: number, studentId: string): Promise<void> {
  const iso = nowIso();
  await db
    .insertInto('guardian_students')
    .values({ user_id: userId, student_id: studentId, linked_via: 'office', created_at: iso, updated_at: iso })
    .onConflict((oc) => oc.columns(['user_id', 'student_id']).doNothing())
    .execute();
}

/** A mailed link's token, stored as the server stores it (hashed), valid for a day. */
async function familyToken(
  db: Db,
  token: { purpose: 'verify-email' | 'reset-password' | 'invitation'; email?: string; name?: string; user_id?: number; student_id?: string },
): Promise<string> {
  const plain = crypto.randomBytes(32).toString('base64url');
  const iso = nowIso();
  await db
    .insertInto('family_tokens')
    .values({ ...token, token_hash: sha256(plain), expires_at: new Date(Date.now() + 86_400_000).toISOString(), created_at: iso, updated_at: iso })
    .execute();
  return plain;
}

/** A student made for one call that deletes a student (the demo ones stay). */
async function throwawayStudent(db: Db): Promise<string> {
  const id = `9${crypto.randomInt(10_000_000).toString().padStart(7, '0')}`;
  const iso = nowIso();
  await db.insertInto('students').values({ id, class_id: '1A', first_name: 'Throwaway', last_name: 'Student', created_at: iso, updated_at: iso }).execute();
  await db.insertInto('users').values({ role: 'student', student_id: id, created_at: iso, updated_at: iso }).execute();
  return id;
}

/** A Form 6 class (6A) with one student who has a 2025 Term 1 result: a form zip of one card. */
async function oneCardForm(db: Db): Promise<void> {
  const iso = nowIso();
  const stamps = { created_at: iso, updated_at: iso };
  const id = '20990601';
  if (await db.selectFrom('students').select('id').where('id', '=', id).executeTakeFirst()) return;
  await db.insertInto('form_classes').values({ id: '6A', form_level: 6, form_teacher: null, ...stamps }).onConflict((oc) => oc.column('id').doNothing()).execute();
  await db.insertInto('students').values({ id, class_id: '6A', first_name: 'Sixth', last_name: 'Former', ...stamps }).execute();
  const subject = await db.selectFrom('subjects').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow();
  await db.insertInto('term_results').values({ student_id: id, year: 2025, term: 1, subject_id: subject.id, coursework: 70, exam: 60, total: 64, grade: 'B', comment: null, ...stamps }).execute();
}

/** A failed message made for one call that resends it (a resent one is queued, and may be resent again). */
async function failedMessage(db: Db): Promise<number> {
  const iso = nowIso();
  const row = await db
    .insertInto('outbox')
    .values({
      to_address: 'parent@example.com',
      template: 'test-message',
      data: JSON.stringify({ requestedBy: 'Security suite' }),
      message_key: crypto.randomUUID(),
      state: 'failed',
      tries: 8,
      next_attempt_at: iso,
      last_error: '550 No such user here',
      created_at: iso,
      updated_at: iso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A notice of the demo family's, made for one call that marks it read. */
async function familyNotice(db: Db): Promise<number> {
  const iso = nowIso();
  const row = await db
    .insertInto('notices')
    .values({ recipient_key: `user:${await userIdOfGuardian(db)}`, user_id: await userIdOfGuardian(db), email: DEMO_FAMILY.email, kind: 'registration-verified', data: JSON.stringify({ studentNames: ['Sample Child'] }), created_at: iso, updated_at: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A staff account made for one call that changes one (the demo ones stay as they are). */
async function throwawayStaff(db: Db, email: string | null = null): Promise<number> {
  const iso = nowIso();
  const row = await db
    .insertInto('users')
    .values({ role: 'staff', staff_role: 'office', username: `throwaway.${crypto.randomBytes(4).toString('hex')}`, display_name: 'Throwaway Staff', email, created_at: iso, updated_at: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const demoHashes = new Map<string, Promise<string>>();
/** The argon2id hash of a demo password, made once per run. */
function demoHash(password: string): Promise<string> {
  let hash = demoHashes.get(password);
  if (!hash) demoHashes.set(password, (hash = hashPassword(password)));
  return hash;
}
/**
 * Puts the demo password back on a staff caller's account before its own password change: a
 * generated case that changed it to something else must not turn every later case into a wrong
 * current password.
 */
async function restoreStaffPassword(db: Db, username: string, password: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: await demoHash(password) }).where('username', '=', username).execute();
}

/** A past school day of this term the samples' notes cover (not the latest, which may be today before the gates open). */
async function sampleNoteDay(db: Db): Promise<string> {
  const days = await pastSchoolDaysOfTerm(db);
  const day = days.at(-2) ?? days.at(-1);
  if (!day) throw new Error('the demo term has no school day yet');
  return day;
}

/** The sample of a route row: HEAD rows use their GET's. */
export function sampleFor(method: string, url: string): RouteSample | undefined {
  return ROUTE_SAMPLES[`${method} ${url}`] ?? (method === 'HEAD' ? ROUTE_SAMPLES[`GET ${url}`] : undefined);
}

const SAMPLE_ACTOR = { actor_user_id: null, actor_label: 'route-samples', ip: null, request_id: null };

/** The school's default rollover plan, from the year it is in now. */
async function rolloverPlan(db: Db): Promise<RolloverPlanInput> {
  return (await getRolloverState(db)).plan;
}

/** Undoes today's standing rollover, if any, so the school is back in its demo year. */
async function undoStandingRollover(db: Db): Promise<void> {
  const standing = (await getRolloverState(db)).runs.find((run) => run.can_undo);
  if (standing) await undoRollover(db, SAMPLE_ACTOR, standing.id);
}

/** Today's standing rollover (run here when there is none): the undo sample's target. */
async function standingRollover(db: Db): Promise<number> {
  const standing = (await getRolloverState(db)).runs.find((run) => run.can_undo);
  if (standing) return standing.id;
  return (await runRollover(db, SAMPLE_ACTOR, await rolloverPlan(db))).run.id;
}
