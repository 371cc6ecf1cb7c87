import { randomBytes } from 'node:crypto';
import type { InsertObject, Insertable, Kysely } from 'kysely';
import { isIsoDate, schoolToday, toCompactDate } from '../../../shared/dates.js';
import { requiredDocumentTypes } from '../../../shared/documents.schemas.js';
import { addDays, earlierDate, listSchoolDays } from '../../../shared/school-days.js';
import { createStudentNumberer } from '../../../shared/student-numbering.js';
import {
  MAX_MARK,
  averageOf,
  gradeFor,
  rankByAverage,
  weightedTotal,
  type AssessmentWeights,
} from '../../../shared/term-reports.grading.js';
import { nowIso } from '../database.js';
import { TOBAGO_HOUSE_OF_ASSEMBLY, TOWNS, seedReferenceData } from '../reference-data.js';
import type { Database } from '../schema.js';
import { DEMO_ADMIN, DEMO_FAMILY, DEMO_PASSWORD, DEMO_STAFF, DEMO_STAFF_PASSWORD, DEMO_STUDENTS, demoTeacherUsername } from './demo-accounts.js';
import { markDemoSchool } from './demo-mark.js';
import {
  DEMO_ACADEMIC_TERMS,
  DEMO_ACADEMIC_YEAR,
  DEMO_SCHOOL_HOLIDAYS,
  DEMO_TERM_REPORTS,
  clock,
  findDemoAttendanceTerm,
  localToIso,
  pad2,
} from './demo-calendar.js';
import { FORM_TEACHER_REMARKS, FORM_TEACHERS, PRINCIPAL_REMARKS, SUBJECT_COMMENTS } from './demo-people.js';
import {
  DEMO_CLASS_IDS,
  DEMO_OVERRIDES,
  FORM_LEVELS,
  entryYearOf,
  generateStudent,
  type DemoOverride,
  type GeneratedStudent,
  type Lookups,
  type StudentContext,
} from './demo-students.js';
import { buildPlaceholderDocuments } from './placeholder-documents.js';
import { createRandom } from './random.js';
import { searchNameOfNew } from '../student-search.js';

/**
 * The demo school (docs/decisions.md D13): 20 form classes, ~640 students at every
 * stage of registration, the documented demo sign-ins, a school calendar with Trinidad and
 * Tobago's public holidays, last year's term results and this term's attendance, written in one
 * transaction. Deterministic for a seed; attendance runs up to `today`. The pieces live beside
 * it: demo-students.ts (records), demo-calendar.ts (terms, holidays), demo-people.ts (word lists),
 * placeholder-documents.ts (files), random.ts (the seeded PRNG).
 */

export interface SeedDemoSchoolOptions {
  /** Hashes a password (argon2 in the server). Called three times, never per student. */
  hashPassword: (plain: string) => Promise<string>;
  seed?: number;
  /** Students in each of the 20 form classes; 32 by default, 100 gives the 2,000 of the benchmarks. */
  studentsPerClass?: number;
  /** 'yyyy-MM-dd'; attendance runs from the current term's start up to and including this day. */
  today?: string;
}

export interface DemoSchoolCounts {
  students: number;
  classes: number;
  attendanceRecords: number;
  termResults: number;
}

const DEMO_DEFAULT_SEED = 20_260_907;
const DEFAULT_STUDENTS_PER_CLASS = 32;

const SUBJECTS = [
  { code: 'MATH', name: 'Mathematics' },
  { code: 'ENGL', name: 'English Language' },
  { code: 'ELIT', name: 'English Literature' },
  { code: 'SPAN', name: 'Spanish' },
  { code: 'INSC', name: 'Integrated Science' },
  { code: 'SOST', name: 'Social Studies' },
  { code: 'INFT', name: 'Information Technology' },
  { code: 'PHED', name: 'Physical Education' },
  { code: 'VART', name: 'Visual Arts' },
  { code: 'GEOG', name: 'Geography' },
  { code: 'POB', name: 'Principles of Business' },
] as const;
type SubjectCode = (typeof SUBJECTS)[number]['code'];
/** Forms 1–3 follow the lower-school curriculum; forms 4–5 their CSEC subjects. */
const LOWER_SCHOOL_SUBJECTS: readonly SubjectCode[] = [
  'MATH',
  'ENGL',
  'ELIT',
  'SPAN',
  'INSC',
  'SOST',
  'INFT',
  'PHED',
  'VART',
];
const UPPER_SCHOOL_SUBJECTS: readonly SubjectCode[] = [
  'MATH',
  'ENGL',
  'ELIT',
  'SPAN',
  'INSC',
  'GEOG',
  'POB',
  'INFT',
  'PHED',
];

const GRADE_KEYS = [
  { grade: 'A', min_total: 75, description: 'Excellent' },
  { grade: 'B', min_total: 65, description: 'Very Good' },
  { grade: 'C', min_total: 55, description: 'Good' },
  { grade: 'D', min_total: 50, description: 'Satisfactory' },
  { grade: 'E', min_total: 0, description: 'Needs improvement' },
] as const;

/** Forms 1–3: coursework 40 %, exam 60 %; CSEC forms 4–5 lean on the exam: 30/70. */
function weightsFor(formLevel: number): AssessmentWeights {
  return formLevel <= 3 ? { coursework_weight: 0.4, exam_weight: 0.6 } : { coursework_weight: 0.3, exam_weight: 0.7 };
}

const DEMO_BELL_TIME = '08:00';
const DEFAULT_REGISTRATION_DEADLINE = '2026-12-18';

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

// ---------------------------------------------------------------------------------------------
// Writing

/** Below SQLite's 32,766 bound parameters per statement (PostgreSQL allows 65,535). */
const MAX_PARAMETERS_PER_STATEMENT = 30_000;

async function insertInChunks<T extends keyof Database>(
  db: Kysely<Database>,
  table: T,
  rows: readonly InsertObject<Database, T>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!).length;
  const size = Math.max(1, Math.floor(MAX_PARAMETERS_PER_STATEMENT / columns));
  for (let i = 0; i < rows.length; i += size) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + size))
      .execute();
  }
}

/** Whether the database holds any student (the demo school goes only into one that holds none). */
export async function hasStudents(db: Kysely<Database>): Promise<boolean> {
  return (await countRows(db, 'students')) > 0;
}

async function countRows(db: Kysely<Database>, table: keyof Database): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function loadLookups(db: Kysely<Database>): Promise<Lookups> {
  const [religions, ethnicGroups, houses, towns, schools] = await Promise.all([
    db.selectFrom('religions').select('code').orderBy('code').execute(),
    db.selectFrom('ethnic_groups').select('id').orderBy('id').execute(),
    db.selectFrom('houses').select('id').orderBy('id').execute(),
    db.selectFrom('towns').select('town_name').orderBy('town_name').execute(),
    db.selectFrom('primary_schools').select(['name', 'district']).orderBy('name').execute(),
  ]);
  const knownTowns = new Map<string, string>(TOWNS.map((town) => [town.name, town.corporation]));
  // The demo school is a Trinidad day school: its students live in Trinidad.
  const demoTowns = towns
    .map((t) => ({ name: t.town_name, corporation: knownTowns.get(t.town_name) }))
    .filter(
      (t): t is { name: string; corporation: string } => !!t.corporation && t.corporation !== TOBAGO_HOUSE_OF_ASSEMBLY,
    );
  const lookups: Lookups = {
    religions: new Set(religions.map((r) => r.code)),
    ethnicGroups: new Set(ethnicGroups.map((g) => g.id)),
    houses: houses.map((h) => h.id),
    towns: demoTowns,
    primarySchools: schools.filter((s) => s.district !== 'Tobago').map((s) => s.name),
  };
  for (const [name, values] of Object.entries({
    religions: [...lookups.religions],
    'ethnic groups': [...lookups.ethnicGroups],
    houses: lookups.houses,
    towns: lookups.towns,
    'primary schools': lookups.primarySchools,
  })) {
    if (values.length === 0) {
      throw new Error(
        `Demo school not seeded: the ${name} lookup has no values the demo can use (see reference-data.ts).`,
      );
    }
  }
  return lookups;
}

/**
 * Seeds the demo school into a database that has no students yet (throws otherwise), in one
 * transaction. Also seeds the reference data if it is missing, and marks the database as the
 * demo school's (demo-mark.ts: only then does the published demo administrator sign in).
 */
export async function seedDemoSchool(db: Kysely<Database>, options: SeedDemoSchoolOptions): Promise<DemoSchoolCounts> {
  const seed = options.seed ?? DEMO_DEFAULT_SEED;
  const perClass = options.studentsPerClass ?? DEFAULT_STUDENTS_PER_CLASS;
  const today = options.today ?? schoolToday();
  if (!isIsoDate(today)) throw new Error(`seedDemoSchool: today must be a yyyy-MM-dd date, got '${today}'.`);
  if (!Number.isInteger(perClass) || perClass < 1 || perClass > 500) {
    throw new Error(`seedDemoSchool: studentsPerClass must be an integer from 1 to 500, got ${perClass}.`);
  }

  // argon2 is deliberately slow: hash each distinct password once, outside the transaction.
  const [demoHash, adminHash, resetHash, staffHash, familyHash] = await Promise.all([
    options.hashPassword(DEMO_PASSWORD),
    options.hashPassword(DEMO_ADMIN.password),
    options.hashPassword(toCompactDate(DEMO_STUDENTS.passwordReset.date_of_birth)),
    options.hashPassword(DEMO_STAFF_PASSWORD),
    options.hashPassword(DEMO_FAMILY.password),
  ]);

  return db.transaction().execute(async (trx) => {
    if ((await countRows(trx, 'students')) > 0) {
      throw new Error(
        'Demo school not seeded: the database already has students; the demo goes only into an empty one.',
      );
    }
    await seedReferenceData(trx);
    const lookups = await loadLookups(trx);
    const now = nowIso();
    const stamps = { created_at: now, updated_at: now };

    // Form classes.
    await insertInChunks(
      trx,
      'form_classes',
      DEMO_CLASS_IDS.map((id, i) => ({
        id,
        form_level: Number(id[0]),
        form_teacher: FORM_TEACHERS[i] ?? null,
        ...stamps,
      })),
    );

    const students = generateStudents(
      {
        random: createRandom(seed),
        lookups,
        today,
        usedPins: new Set(DEMO_OVERRIDES.flatMap((o) => (o.birth_certificate_no ? [o.birth_certificate_no] : []))),
        usedSeaNumbers: new Set(DEMO_OVERRIDES.flatMap((o) => (o.sea_no ? [o.sea_no] : []))),
      },
      perClass,
    );
    await insertInChunks(
      trx,
      'students',
      students.map((s) => ({ ...s.row, ...searchNameOfNew(s.row) })),
    );

    await seedUsers(trx, students, { demo: demoHash, admin: adminHash, reset: resetHash }, stamps);
    await seedEnrolmentHistory(trx, students, stamps);
    await seedStaff(trx, staffHash, stamps);
    await seedFamily(trx, familyHash, stamps);

    await seedDocuments(trx, students);

    await seedCalendar(trx, today, stamps);

    const termResults = await seedTermResults(trx, students, seed, stamps);

    const attendanceRecords = await seedAttendance(trx, students, seed, today);

    await markDemoSchool(trx);

    return { students: students.length, classes: DEMO_CLASS_IDS.length, attendanceRecords, termResults };
  });
}

/** The students of every class, in class order; the demo accounts take the first seat of theirs. */
function generateStudents(ctx: StudentContext, perClass: number): GeneratedStudent[] {
  const reservedIds = new Set(DEMO_OVERRIDES.map((o) => o.id));
  const reservedNames = new Set(DEMO_OVERRIDES.map((o) => `${o.first_name} ${o.last_name}`));
  // The school's numbering rule (D61); the demo accounts hold the first numbers of their years.
  const nextStudentId = createStudentNumberer(reservedIds);
  const students: GeneratedStudent[] = [];
  for (const classId of DEMO_CLASS_IDS) {
    const formLevel = Number(classId[0]);
    const overrides = DEMO_OVERRIDES.filter((o) => o.classId === classId);
    for (let seat = 0; seat < perClass; seat++) {
      const override = overrides[seat];
      if (override) {
        students.push(generateStudent(ctx, override.id, classId, formLevel, override));
        continue;
      }
      let student = generateStudent(ctx, nextStudentId(entryYearOf(formLevel)), classId, formLevel, undefined);
      // "Find my Student ID" matches on name: keep the documented names unique to their accounts.
      while (reservedNames.has(`${student.row.first_name} ${student.row.last_name}`)) {
        student = generateStudent(ctx, student.row.id, classId, formLevel, undefined);
      }
      students.push(student);
    }
  }
  return students;
}

/**
 * Each demo student came with their year's Form 1 intake, on 1 September of their entry year, into
 * the Form 1 class of their class's letter (D80).
 */
async function seedEnrolmentHistory(trx: Kysely<Database>, students: readonly GeneratedStudent[], stamps: { created_at: string; updated_at: string }): Promise<void> {
  await insertInChunks(
    trx,
    'enrolment_events',
    students.map(({ row, formLevel }) => ({
      student_id: row.id,
      kind: 'entry' as const,
      happened_on: `${entryYearOf(formLevel)}-09-01`,
      reason: 'form1_intake',
      class_id: row.class_id ? `1${row.class_id.slice(1)}` : null,
      other_school: null,
      note: null,
      recorded_by_user_id: null,
      ...stamps,
    })),
  );
}

/** One user per student (the demo accounts' flags as documented) and the administrator. */
async function seedUsers(
  trx: Kysely<Database>,
  students: readonly GeneratedStudent[],
  hashes: { demo: string; admin: string; reset: string },
  stamps: { created_at: string; updated_at: string },
): Promise<void> {
  const hashFor = (password: DemoOverride['user']['password']) =>
    password === 'demo' ? hashes.demo : password === 'date-of-birth' ? hashes.reset : null;
  const userRows: Insertable<Database['users']>[] = students.map(({ row, user }) => ({
    role: 'student',
    username: null,
    student_id: row.id,
    display_name: `${row.first_name} ${row.last_name}`,
    password_hash: hashFor(user.password),
    first_login: user.first_login,
    password_reset: user.password_reset,
    password_changed_at: user.password === 'demo' ? row.created_at : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }));
  // A configured administrator (ADMIN_USERNAME) may already hold the name: keep theirs.
  const adminExists = await trx
    .selectFrom('users')
    .select('id')
    .where('username', '=', DEMO_ADMIN.username)
    .executeTakeFirst();
  if (!adminExists) {
    userRows.push({
      role: 'staff',
      staff_role: 'administrator',
      username: DEMO_ADMIN.username,
      student_id: null,
      display_name: DEMO_ADMIN.name,
      password_hash: hashes.admin,
      first_login: 0,
      password_reset: 0,
      password_changed_at: stamps.created_at,
      ...stamps,
    });
  }
  await insertInChunks(trx, 'users', userRows);
}

/**
 * One demo account per staff role and a form teacher per class, named after the class's teacher
 * (README "Demo sign-ins"); each form teacher is assigned their class.
 */
async function seedStaff(trx: Kysely<Database>, passwordHash: string, stamps: { created_at: string; updated_at: string }): Promise<void> {
  const account = { role: 'staff' as const, student_id: null, password_hash: passwordHash, first_login: 0, password_reset: 0, password_changed_at: stamps.created_at, ...stamps };
  const rows = [
    { ...account, username: DEMO_STAFF.office.username, display_name: DEMO_STAFF.office.name, staff_role: 'office' as const },
    { ...account, username: DEMO_STAFF.principal.username, display_name: DEMO_STAFF.principal.name, staff_role: 'principal' as const },
    ...DEMO_CLASS_IDS.map((classId, i) => ({
      ...account,
      username: demoTeacherUsername(classId),
      display_name: FORM_TEACHERS[i] ?? `Form teacher ${classId}`,
      staff_role: 'form_teacher' as const,
    })),
  ];
  // A database may already hold one of the names (a configured account): keep theirs.
  const taken = new Set(
    (await trx.selectFrom('users').select('username').where('username', 'in', rows.map((row) => row.username)).execute()).map((row) => row.username),
  );
  const fresh = rows.filter((row) => !taken.has(row.username));
  if (fresh.length === 0) return;
  const inserted = await trx.insertInto('users').values(fresh).returning(['id', 'username']).execute();
  const classOf = new Map(DEMO_CLASS_IDS.map((classId) => [demoTeacherUsername(classId), classId]));
  const assignments = inserted.flatMap((row) => {
    const classId = row.username ? classOf.get(row.username) : undefined;
    return classId ? [{ user_id: row.id, class_id: classId }] : [];
  });
  if (assignments.length > 0) await trx.insertInto('staff_classes').values(assignments).execute();
}

/** The demo family's account, verified, linked to its three children (when they were generated). */
async function seedFamily(trx: Kysely<Database>, passwordHash: string, stamps: { created_at: string; updated_at: string }): Promise<void> {
  const children = await trx.selectFrom('students').select('id').where('id', 'in', [...DEMO_FAMILY.childIds]).execute();
  const { id } = await trx
    .insertInto('users')
    .values({
      role: 'guardian',
      email: DEMO_FAMILY.email,
      email_verified_at: stamps.created_at,
      display_name: DEMO_FAMILY.name,
      password_hash: passwordHash,
      password_changed_at: stamps.created_at,
      ...stamps,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (children.length > 0) {
    await trx
      .insertInto('guardian_students')
      .values(children.map((child) => ({ user_id: id, student_id: child.id, linked_via: 'demo' as const, ...stamps })))
      .execute();
  }
}

/**
 * Placeholder files in every slot a finished registration needs (passport and permit too for
 * non-nationals), so its Documents step is done like the other five.
 */
async function seedDocuments(trx: Kysely<Database>, students: readonly GeneratedStudent[]): Promise<void> {
  const placeholders = buildPlaceholderDocuments();
  await insertInChunks(
    trx,
    'documents',
    students
      .filter((s) => s.stage === 'complete')
      .flatMap(({ row }) =>
        requiredDocumentTypes(row).map((fileType) => {
          const doc = placeholders.get(fileType)!;
          return {
            // The public id is in a URL: unguessable, so never from the seeded PRNG.
            public_id: randomBytes(16).toString('base64url'),
            student_id: row.id,
            file_type: fileType,
            file_name: doc.file_name,
            mime: doc.mime,
            size: doc.bytes.length,
            sha256: doc.sha256,
            bytes: doc.bytes,
            created_at: row.updated_at,
            updated_at: row.updated_at,
          };
        }),
      ),
  );
}

/** The open registration period, terms, holidays, term reports and the bell time. */
async function seedCalendar(
  trx: Kysely<Database>,
  today: string,
  stamps: { created_at: string; updated_at: string },
): Promise<void> {
  const deadline = today > DEFAULT_REGISTRATION_DEADLINE ? addDays(today, 28) : DEFAULT_REGISTRATION_DEADLINE;
  await trx
    .insertInto('registration_periods')
    .values({ form_level: null, open: 1, deadline, ...stamps })
    .execute();
  await insertInChunks(
    trx,
    'academic_terms',
    DEMO_ACADEMIC_TERMS.map((t) => ({ ...t, ...stamps })),
  );
  await insertInChunks(
    trx,
    'school_holidays',
    DEMO_SCHOOL_HOLIDAYS.map((h) => ({ ...h, ...stamps })),
  );
  await insertInChunks(
    trx,
    'term_reports',
    DEMO_TERM_REPORTS.map((r) => ({ ...r, scheduled_at: null, ...stamps })),
  );
  await trx
    .insertInto('settings')
    .values({ key: 'bell_time', value: DEMO_BELL_TIME, ...stamps })
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Term results (academic year 2025-2026, when today's form N was form N-1)

/** Subjects, the grade key, the weights, then every result and summary; answers the result count. */
async function seedTermResults(
  trx: Kysely<Database>,
  students: readonly GeneratedStudent[],
  seed: number,
  setupStamps: { created_at: string; updated_at: string },
): Promise<number> {
  await insertInChunks(
    trx,
    'subjects',
    SUBJECTS.map((s) => ({ ...s, ...setupStamps })),
  );
  await insertInChunks(
    trx,
    'grade_keys',
    GRADE_KEYS.map((g) => ({ ...g, ...setupStamps })),
  );
  await insertInChunks(
    trx,
    'assessment_weights',
    FORM_LEVELS.map((form_level) => ({
      form_level,
      ...weightsFor(form_level),
      ...setupStamps,
    })),
  );
  const subjectIds = new Map(
    (await trx.selectFrom('subjects').select(['id', 'code']).execute()).map((s) => [s.code, s.id] as const),
  );

  // A stream of its own, so results do not change the students or attendance of a seed.
  const random = createRandom(seed ^ 0x5eed_2025);
  const year = DEMO_ACADEMIC_YEAR - 1;
  const cohort = students.filter((s) => s.formLevel >= 2);
  const ability = new Map(cohort.map((s) => [s.row.id, clamp(random.normal(66, 10), 30, 96)]));
  const results: InsertObject<Database, 'term_results'>[] = [];
  const summaries: InsertObject<Database, 'term_summaries'>[] = [];
  const stampsFor = (term: number) => {
    const end = DEMO_ACADEMIC_TERMS.find((t) => t.year === year && t.term === term)!.end_date;
    const at = localToIso(end, '15:30', 0);
    return { created_at: at, updated_at: at };
  };

  for (const term of [1, 2, 3] as const) {
    const stamps = stampsFor(term);
    const averages: { key: { studentId: string; classId: string }; average: number | null }[] = [];
    for (const student of cohort) {
      const formLevel = student.formLevel - 1;
      const classId = `${formLevel}${student.row.class_id!.slice(1)}`;
      const subjects = formLevel <= 3 ? LOWER_SCHOOL_SUBJECTS : UPPER_SCHOOL_SUBJECTS;
      const base = ability.get(student.row.id)! + random.normal(0, 3);
      const totals: number[] = [];
      for (const code of subjects) {
        const affinity = random.normal(0, 6);
        const coursework = Math.round(clamp(base + affinity + 4 + random.normal(0, 6), 0, MAX_MARK));
        const exam = Math.round(clamp(base + affinity - 3 + random.normal(0, 9), 0, MAX_MARK));
        // The card's own arithmetic (term-reports.grading.ts), so seeded and imported results agree.
        const total = weightedTotal(coursework, exam, weightsFor(formLevel))!;
        const grade = gradeFor(total, GRADE_KEYS)!;
        totals.push(total);
        results.push({
          student_id: student.row.id,
          year,
          term,
          subject_id: subjectIds.get(code)!,
          coursework,
          exam,
          total,
          grade,
          comment: random.pick(SUBJECT_COMMENTS[grade]!),
          ...stamps,
        });
      }
      averages.push({ key: { studentId: student.row.id, classId }, average: averageOf(totals) });
    }
    const byClass = new Map<string, typeof averages>();
    for (const entry of averages) {
      const members = byClass.get(entry.key.classId);
      if (members) members.push(entry);
      else byClass.set(entry.key.classId, [entry]);
    }
    for (const [classId, members] of byClass) {
      for (const { key, average, position } of rankByAverage(members)) {
        summaries.push({
          student_id: key.studentId,
          year,
          term,
          class_id: classId,
          form_teacher_remarks: random.pick(FORM_TEACHER_REMARKS.find(([min]) => average! >= min)![1]),
          principal_remarks: PRINCIPAL_REMARKS.find(([min]) => average! >= min)![1],
          average,
          position,
          class_size: members.length,
          ...stamps,
        });
      }
    }
  }
  await insertInChunks(trx, 'term_results', results);
  await insertInChunks(trx, 'term_summaries', summaries);
  return results.length;
}

// ---------------------------------------------------------------------------------------------
// Attendance (the current term, up to today)

async function seedAttendance(
  trx: Kysely<Database>,
  students: readonly GeneratedStudent[],
  seed: number,
  today: string,
): Promise<number> {
  const term = findDemoAttendanceTerm(today);
  if (!term) return 0;
  const holidays = new Set(DEMO_SCHOOL_HOLIDAYS.map((h) => h.date));
  const days = listSchoolDays(term.start_date, earlierDate(today, term.end_date), holidays);
  // Its own stream: attendance depends on today, the rest of the school must not.
  const random = createRandom(seed ^ 0xa77e_0da1);
  const habits = students.map(() => {
    const chronicAbsentee = random.chance(0.04);
    const chronicLatecomer = random.chance(0.06);
    return {
      absentRate: chronicAbsentee ? 0.2 + random.next() * 0.12 : 0.03 + random.next() * 0.07,
      lateRate: chronicLatecomer ? 0.35 + random.next() * 0.15 : 0.03 + random.next() * 0.05,
    };
  });
  // Some days are worse for everyone (heavy rain, the Friday before a long weekend).
  const dayFactor = days.map(() => (random.chance(0.1) ? 1.8 : 0.85 + random.next() * 0.3));

  const rows: InsertObject<Database, 'attendance_records'>[] = [];
  days.forEach((day, d) => {
    students.forEach((student, s) => {
      const habit = habits[s]!;
      if (random.next() < habit.absentRate * dayFactor[d]!) return; // absent: no row (docs/requirements.md R10)
      const late = random.next() < habit.lateRate;
      // On time: 07:10–07:59, most arriving after 07:35. Late: 08:01–08:29, most within 15 min.
      const inMinutes = late
        ? 8 * 60 + 1 + Math.floor(random.next() ** 2 * 29)
        : 7 * 60 + 59 - Math.floor(random.next() ** 2 * 50);
      const timeIn = clock(inMinutes);
      const roll = random.next();
      const halfDay = roll < 0.015; // signed out at lunch
      const forgotScanOut = !halfDay && roll < 0.045; // R10: no time_out still counts AM and PM
      const outMinutes = halfDay ? 11 * 60 + 45 + random.int(0, 60) : 14 * 60 + 30 + random.int(0, 60);
      const timeOut = forgotScanOut ? null : clock(outMinutes);
      const secondsIn = random.int(0, 59);
      const secondsOut = random.int(0, 59);
      const scannedIn = `${day} ${timeIn}:${pad2(secondsIn)}`;
      const scannedOut = timeOut ? `${day} ${timeOut}:${pad2(secondsOut)}` : null;
      const createdAt = localToIso(day, timeIn, secondsIn);
      rows.push({
        student_id: student.row.id,
        date_scanned: day,
        attendance_am: 1,
        attendance_pm: halfDay ? 0 : 1,
        time_in: timeIn,
        time_out: timeOut,
        late: timeIn > DEMO_BELL_TIME ? 1 : 0,
        time_scanned_in: scannedIn,
        time_scanned_out: scannedOut,
        created_at: createdAt,
        updated_at: timeOut ? localToIso(day, timeOut, secondsOut) : createdAt,
      });
    });
  });
  await insertInChunks(trx, 'attendance_records', rows);
  return rows.length;
}
