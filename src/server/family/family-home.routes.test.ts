import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { statementRecorder } from '../../../tests/support/statement-recorder.js';
import { testConfig } from '../../../tests/support/test-config.js';
import { StudentAttendanceSchema } from '../../shared/attendance.schemas.js';
import { FamilyHomeSchema, type FamilyHome } from '../../shared/family-home.schemas.js';
import { RegistrationStatusSchema } from '../../shared/registration.schemas.js';
import { ReportCardTermListSchema } from '../../shared/term-reports.schemas.js';
import { buildApp } from '../app.js';
import { hashPassword } from '../auth/password.js';
import { DEMO_FAMILY, DEMO_STAFF, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';

/**
 * GET /api/family/home on both engines (D76): a card per linked child and nobody else's, the
 * fields of each card read from what the school stored, the same answer as the child's own
 * screens give, and a number of statements that does not grow with the number of children.
 */

let t: TestApp;
let ip = 0;
const client = () => new TestClient(t.app, `10.41.0.${++ip % 250}`);
const PASSWORD = 'another family passphrase';

const registered = DEMO_STUDENTS.registered;
const inProgress = DEMO_STUDENTS.inProgress;
/** A child of the school linked to another family only. */
let otherChild: string;

async function signInFamily(email: string, password: string): Promise<TestClient> {
  const parent = client();
  const answer = await parent.post('/api/family/login', { email, password });
  expect(answer.statusCode, answer.body).toBe(200);
  return parent;
}

/** A family account with these children, signed in. */
async function familyWith(email: string, childIds: readonly string[]): Promise<TestClient> {
  const at = new Date().toISOString();
  const user = await t.database.db
    .insertInto('users')
    .values({
      role: 'guardian',
      email,
      display_name: 'Other Parent',
      password_hash: await hashPassword(PASSWORD),
      email_verified_at: at,
      password_changed_at: at,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const studentId of childIds) {
    await t.database.db
      .insertInto('guardian_students')
      .values({
        user_id: user.id,
        student_id: studentId,
        linked_via: 'office',
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
  return signInFamily(email, PASSWORD);
}

const home = async (caller: TestClient): Promise<FamilyHome> => {
  const answer = await caller.get('/api/family/home');
  expect(answer.statusCode, answer.body).toBe(200);
  return FamilyHomeSchema.parse(answer.json());
};

beforeAll(async () => {
  t = await createTestApp();
  const linked = new Set<string>(DEMO_FAMILY.childIds);
  const other = await t.database.db.selectFrom('students').select('id').where('class_id', '=', '5B').orderBy('id').limit(5).execute();
  otherChild = other.map((row) => row.id).find((id) => !linked.has(id))!;
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

describe('GET /api/family/home', () => {
  it('refuses a visitor (401), a student and every staff role (403)', async () => {
    expectError(await client().get('/api/family/home'), 401, 'unauthenticated');
    const student = await client().signInStudent(registered.student_id, registered.password);
    expectError(await student.get('/api/family/home'), 403, 'forbidden');
    for (const staff of [DEMO_STAFF.office, DEMO_STAFF.principal]) {
      const signedIn = await client().signInAdmin(staff.username, staff.password);
      expectError(await signedIn.get('/api/family/home'), 403, 'forbidden');
    }
  });

  it('answers an empty list to an account with no child linked', async () => {
    const lonely = await familyWith('no.child.home@example.com', []);
    expect((await home(lonely)).children).toEqual([]);
  });

  it("answers each linked child and never another family's child", async () => {
    const other = await familyWith('other.family.home@example.com', [otherChild]);
    const demo = await signInFamily(DEMO_FAMILY.email, DEMO_FAMILY.password);
    expect((await home(demo)).children.map((child) => child.student_id).sort()).toEqual([...DEMO_FAMILY.childIds].sort());
    expect((await home(other)).children.map((child) => child.student_id)).toEqual([otherChild]);
    // A link removed by the office is gone from the next answer.
    await t.database.db.deleteFrom('guardian_students').where('student_id', '=', otherChild).execute();
    expect((await home(other)).children).toEqual([]);
  });

  it("tells each card's registration, deadline, documents, today's attendance and newest report card from what is stored", async () => {
    const db = t.database.db;
    const demo = await signInFamily(DEMO_FAMILY.email, DEMO_FAMILY.password);
    // A school day of this term the school recorded: the day the cards are asked on.
    const own = StudentAttendanceSchema.parse((await demo.get(`/api/student-attendance/${registered.student_id}`)).json());
    const day = own.attendance_records
      .map((record) => record.date_scanned)
      .filter((date) => own.school_days.includes(date))
      .at(-1)!;
    expect(day).toBeDefined();

    // One child late that day; another with no arrival at the gate (absent); one file returned, one slot empty.
    const at = new Date().toISOString();
    await db
      .deleteFrom('attendance_records')
      .where('student_id', 'in', [registered.student_id, inProgress.student_id])
      .where('date_scanned', '=', day)
      .execute();
    await db
      .insertInto('attendance_records')
      .values({
        student_id: registered.student_id,
        date_scanned: day,
        attendance_am: 1,
        attendance_pm: 1,
        time_in: '08:17',
        time_out: '14:40',
        late: 1,
        time_scanned_in: `${day} 08:17:00`,
        time_scanned_out: `${day} 14:40:00`,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const returned = await db
      .selectFrom('documents')
      .select(['id', 'file_type'])
      .where('student_id', '=', registered.student_id)
      .where('file_type', '=', 'birth_certificate')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('documents')
      .set({
        review_state: 'returned',
        review_reason: 'The scan is blurred: please upload it again.',
      })
      .where('id', '=', returned.id)
      .execute();
    await db.deleteFrom('documents').where('student_id', '=', inProgress.student_id).where('file_type', '=', 'sea_slip').execute();

    // The cards are asked during that school day (10:00 in Trinidad).
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(`${day}T14:00:00Z`) });
    const answer = await home(demo);
    expect(answer.date).toBe(day);
    const first = answer.children.find((child) => child.student_id === registered.student_id);
    const second = answer.children.find((child) => child.student_id === inProgress.student_id);

    expect(first).toMatchObject({
      student_id: registered.student_id,
      first_name: registered.first_name,
      last_name: registered.last_name,
      class_name: 'Form 5 5A',
    });
    expect(first!.today).toEqual({ status: 'late', time_in: '08:17' });
    expect(first!.documents.returned).toEqual([
      {
        type: returned.file_type,
        label: 'Birth Certificate',
        reason: 'The scan is blurred: please upload it again.',
      },
    ]);
    expect(first!.registration).toMatchObject({
      steps_done: 6,
      steps_total: 6,
      submitted: true,
    });
    expect(second!.today).toEqual({ status: 'absent', time_in: null });
    expect(second!.documents.missing.map((slot) => slot.label)).toContain('SEA Slip');

    // The deadline and the window are the registration screens' own answer for each child.
    for (const child of answer.children) {
      const status = RegistrationStatusSchema.parse((await demo.get(`/api/registration-status?student_id=${child.student_id}`)).json());
      expect(child.registration, child.student_id).toMatchObject({
        deadline: status.deadline,
        editable: status.editable,
        reason: status.reason ?? null,
      });
    }

    // The newest posted report card is the newest posted term on the child's report card list.
    const terms = ReportCardTermListSchema.parse((await demo.get(`/api/report-card-terms/${registered.student_id}`)).json());
    const newest = terms.filter((term) => term.posted === 1).sort((a, b) => b.year - a.year || Number(b.term) - Number(a.term))[0]!;
    expect(first!.latest_report).toEqual({
      year: newest.year,
      term: Number(newest.term),
    });
    // Unposted, it is not offered.
    await db.updateTable('term_reports').set({ posted: 0 }).where('year', '=', newest.year).where('term', '=', Number(newest.term)).execute();
    const after = await home(demo);
    expect(after.children.find((child) => child.student_id === registered.student_id)!.latest_report).not.toEqual({
      year: newest.year,
      term: Number(newest.term),
    });
    await db.updateTable('term_reports').set({ posted: 1 }).where('year', '=', newest.year).where('term', '=', Number(newest.term)).execute();
  });

  it('says a weekend is no school day rather than an absence', async () => {
    const demo = await signInFamily(DEMO_FAMILY.email, DEMO_FAMILY.password);
    // The Saturday before today, at 10:00 in Trinidad (after the session began would outlast it).
    const saturday = new Date();
    saturday.setUTCDate(saturday.getUTCDate() - ((saturday.getUTCDay() + 1) % 7 || 7));
    vi.useFakeTimers({
      toFake: ['Date'],
      now: new Date(`${saturday.toISOString().slice(0, 10)}T14:00:00Z`),
    });
    const answer = await home(demo);
    expect(answer.children.map((child) => child.today.status)).toEqual(['not-school-day', 'not-school-day', 'not-school-day']);
  });

  it('reads the same number of statements for three children as for one', async () => {
    const statements: string[] = [];
    const recording = await buildApp(
      testConfig(),
      { db: t.database.db.withPlugin(statementRecorder(statements)) },
      { logger: false, webRoot: '/nonexistent', mailSender: { start: false } },
    );
    onTestFinished(() => recording.close());
    const signIn = async (email: string, password: string) => {
      const parent = new TestClient(recording, `10.42.0.${++ip % 250}`);
      expect((await parent.post('/api/family/login', { email, password })).statusCode).toBe(200);
      return parent;
    };
    await t.database.db
      .insertInto('guardian_students')
      .values({
        user_id: (await t.database.db.selectFrom('users').select('id').where('email', '=', 'other.family.home@example.com').executeTakeFirstOrThrow()).id,
        student_id: otherChild,
        linked_via: 'office',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    const count = async (parent: TestClient, children: number) => {
      statements.length = 0;
      const answer = await parent.get('/api/family/home');
      expect(FamilyHomeSchema.parse(answer.json()).children).toHaveLength(children);
      return [...statements];
    };
    const three = await count(await signIn(DEMO_FAMILY.email, DEMO_FAMILY.password), 3);
    const one = await count(await signIn('other.family.home@example.com', PASSWORD), 1);
    expect(three.length).toBe(one.length);
    expect(three.length).toBeLessThanOrEqual(14);
  });
});
