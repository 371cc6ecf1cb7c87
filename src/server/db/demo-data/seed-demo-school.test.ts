import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Db } from '../database.js';
import { migrateToLatest } from '../migrate.js';
import { seedReferenceData, REGIONAL_CORPORATIONS } from '../reference-data.js';
import { STUDENT_TEXT_COLUMNS } from '../migrations/0001-initial.js';
import { DEMO_ADMIN, DEMO_PASSWORD, DEMO_STUDENTS } from './demo-accounts.js';
import { DEMO_ACADEMIC_TERMS, DEMO_SCHOOL_HOLIDAYS } from './demo-calendar.js';
import { BLOOD_TYPES, DEMO_CLASS_IDS, DEVICE_TYPES, LIVING_STATUSES, MARITAL_STATUSES } from './demo-students.js';
import { seedDemoSchool } from './seed-demo-school.js';
import { createRandom } from './random.js';
import { requiredDocumentTypes } from '../../../shared/documents.schemas.js';
import { computeProgress } from '../../../shared/registration.progress.js';
import { averageOf, gradeFor, rankByAverage, weightedTotal } from '../../../shared/term-reports.grading.js';

/**
 * The demo school on a fresh database, on SQLite and (when the server answers) on PostgreSQL.
 * This file creates its own databases, so the repo's postgres project leaves it out.
 */

const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TODAY = '2026-11-18'; // a Wednesday in term 1 of 2026-2027, after the Divali holiday
const fakeHash = (plain: string) => Promise.resolve(`hash:${plain}`);

/** The maximum lengths (docs/requirements.md R5) of the fields the seeder fills. */
const MAX_LENGTHS: Record<string, number> = {
  first_name: 20,
  last_name: 20,
  middle_name: 20,
  home_address: 100,
  address_line_2: 100,
  email: 50,
  previous_school: 50,
  sea_no: 15,
  birth_certificate_no: 15,
  place_of_birth: 25,
  nationality: 25,
  mother_name: 35,
  father_name: 35,
  guardian_name: 30,
  mother_home_address: 255,
  father_home_address: 255,
  home_address_guardian: 255,
  mother_occupation: 35,
  father_occupation: 35,
  guardian_occupation: 50,
  mother_business_place: 50,
  father_business_place: 50,
  guardian_business_place: 50,
  mother_business_address: 50,
  father_business_address: 50,
  guardian_business_address: 50,
  email_mother: 50,
  email_father: 50,
  email_guardian: 50,
  id_card_mother: 20,
  id_card_father: 20,
  id_card_guardian: 20,
  emergency_contact: 50,
  relation_to_child: 50,
};
const PHONE_COLUMNS = STUDENT_TEXT_COLUMNS.filter((c) => c.includes('phone'));
const EMAIL_COLUMNS = ['email', 'email_mother', 'email_father', 'email_guardian'] as const;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const SECTION_COLUMNS = {
  mother: STUDENT_TEXT_COLUMNS.filter((c) => c.includes('mother')),
  father: STUDENT_TEXT_COLUMNS.filter((c) => c.includes('father')),
  guardian: STUDENT_TEXT_COLUMNS.filter((c) => c.includes('guardian')),
  demographics: ['no_in_family', 'no_at_home', 'place_in_family'],
  emergency: ['emergency_contact', 'emergency_home_phone', 'relative_in_school', 'relation_to_child'],
} as const;
const SHOWN_SECTIONS: Record<string, (keyof typeof SECTION_COLUMNS)[]> = {
  'Both Parents': ['mother', 'father', 'demographics', 'emergency'],
  'Mother Only': ['mother', 'demographics', 'emergency'],
  'Father Only': ['father', 'demographics', 'emergency'],
  Guardian: ['guardian', 'demographics', 'emergency'],
  Other: [],
};

async function isPostgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function runPgAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

type Engine = 'sqlite' | 'postgres';

/** A migrated, empty database with the reference data, and how to throw it away. */
async function openFreshDatabase(engine: Engine): Promise<{ db: Db; destroy: () => Promise<void> }> {
  let db: Db;
  let drop = async () => {};
  if (engine === 'postgres') {
    const name = `demo_seed_${crypto.randomBytes(6).toString('hex')}`;
    await runPgAdmin(`CREATE DATABASE ${name}`);
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    db = createDatabase({ databaseUrl: url.toString() });
    drop = () => runPgAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } else {
    db = createDatabase({ sqliteFile: ':memory:' });
  }
  await migrateToLatest(db);
  await seedReferenceData(db);
  return {
    db,
    destroy: async () => {
      await db.destroy();
      await drop();
    },
  };
}

function isWeekday(isoDate: string): boolean {
  const day = new Date(`${isoDate}T00:00:00Z`).getUTCDay();
  return day !== 0 && day !== 6;
}

const engines: Engine[] = (await isPostgresReachable()) ? ['sqlite', 'postgres'] : ['sqlite'];

describe('random', () => {
  it('repeats a sequence for a seed and differs between seeds', () => {
    const draw = (seed: number) => {
      const random = createRandom(seed);
      return Array.from({ length: 5 }, () => random.next());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    expect(draw(42).every((x) => x >= 0 && x < 1)).toBe(true);
  });
});

describe.each(engines)('demo school on %s', (engine) => {
  let db: Db;
  let destroy: () => Promise<void>;
  let counts: Awaited<ReturnType<typeof seedDemoSchool>>;

  beforeAll(async () => {
    ({ db, destroy } = await openFreshDatabase(engine));
    counts = await seedDemoSchool(db, { hashPassword: fakeHash, today: TODAY });
  }, 120_000);
  afterAll(async () => {
    await destroy?.();
  });

  it('has 20 form classes, four per form, and at least 600 students in them', async () => {
    const classes = await db.selectFrom('form_classes').selectAll().orderBy('id').execute();
    expect(classes.map((c) => c.id)).toEqual([...DEMO_CLASS_IDS]);
    for (const c of classes) {
      expect(c.form_level).toBe(Number(c.id[0]));
      expect(c.form_teacher).toBeTruthy();
    }
    const students = await db.selectFrom('students').select(['id', 'class_id']).execute();
    expect(students.length).toBeGreaterThanOrEqual(600);
    expect(counts).toMatchObject({ students: students.length, classes: 20 });
    const perClass = new Map<string, number>();
    for (const s of students) perClass.set(s.class_id!, (perClass.get(s.class_id!) ?? 0) + 1);
    expect([...perClass.values()].every((n) => n === 32)).toBe(true);
  });

  it('creates the documented demo accounts with their values and flags', async () => {
    const userOf = (studentId: string) =>
      db.selectFrom('users').selectAll().where('student_id', '=', studentId).executeTakeFirstOrThrow();
    const studentOf = (id: string) =>
      db.selectFrom('students').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    const registered = await studentOf(DEMO_STUDENTS.registered.student_id);
    expect(registered).toMatchObject({
      first_name: DEMO_STUDENTS.registered.first_name,
      last_name: DEMO_STUDENTS.registered.last_name,
      agree_terms_conditions: 1,
    });
    expect(registered.class_id).toMatch(/^5[A-D]$/);
    expect(registered.agree_terms_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(registered.device_type).not.toBeNull(); // every step filled
    expect(await userOf(registered.id)).toMatchObject({
      role: 'student',
      first_login: 0,
      password_reset: 0,
      password_hash: `hash:${DEMO_PASSWORD}`,
    });
    const registeredDocs = await db
      .selectFrom('documents')
      .select('file_type')
      .where('student_id', '=', registered.id)
      .execute();
    expect(registeredDocs.map((d) => d.file_type).sort()).toEqual([...requiredDocumentTypes(registered)].sort());
    expect(
      computeProgress(
        registered,
        registeredDocs.map((d) => d.file_type),
        { today: TODAY },
      ),
    ).toEqual({
      studentData: 1,
      familyData: 1,
      healthData: 1,
      otherData: 1,
      documents: 1,
      submit: 1,
      termsAndConditions: 1,
    });
    const registeredResults = await db
      .selectFrom('term_results')
      .select('id')
      .where('student_id', '=', registered.id)
      .execute();
    expect(registeredResults.length).toBeGreaterThan(0);
    const registeredDays = await db
      .selectFrom('attendance_records')
      .select('id')
      .where('student_id', '=', registered.id)
      .execute();
    expect(registeredDays.length).toBeGreaterThan(0);

    const inProgress = await studentOf(DEMO_STUDENTS.inProgress.student_id);
    expect(inProgress).toMatchObject({
      first_name: DEMO_STUDENTS.inProgress.first_name,
      last_name: DEMO_STUDENTS.inProgress.last_name,
      agree_terms_conditions: 0,
    });
    expect(inProgress.class_id).toMatch(/^1[A-D]$/);
    expect(inProgress.home_address).not.toBeNull();
    expect(inProgress.living_status).not.toBeNull();
    expect(inProgress.device_type).toBeNull();
    expect(await userOf(inProgress.id)).toMatchObject({
      first_login: 0,
      password_reset: 0,
      password_hash: `hash:${DEMO_PASSWORD}`,
    });

    const firstLogin = await studentOf(DEMO_STUDENTS.firstLogin.student_id);
    expect(firstLogin).toMatchObject({
      first_name: DEMO_STUDENTS.firstLogin.first_name,
      last_name: DEMO_STUDENTS.firstLogin.last_name,
      birth_certificate_no: DEMO_STUDENTS.firstLogin.birth_certificate_no,
      sea_no: DEMO_STUDENTS.firstLogin.sea_no,
      date_of_birth: DEMO_STUDENTS.firstLogin.date_of_birth,
    });
    expect(firstLogin.class_id).toMatch(/^1[A-D]$/);
    expect(await userOf(firstLogin.id)).toMatchObject({ first_login: 1, password_reset: 0, password_hash: null });

    const reset = await studentOf(DEMO_STUDENTS.passwordReset.student_id);
    expect(reset).toMatchObject({
      first_name: DEMO_STUDENTS.passwordReset.first_name,
      last_name: DEMO_STUDENTS.passwordReset.last_name,
      date_of_birth: DEMO_STUDENTS.passwordReset.date_of_birth,
    });
    expect(reset.class_id).toMatch(/^3[A-D]$/);
    expect(await userOf(reset.id)).toMatchObject({ first_login: 0, password_reset: 1, password_hash: 'hash:20120721' });

    const admin = await db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', DEMO_ADMIN.username)
      .executeTakeFirstOrThrow();
    expect(admin).toMatchObject({
      role: 'staff',
      display_name: DEMO_ADMIN.name,
      student_id: null,
      password_hash: `hash:${DEMO_ADMIN.password}`,
    });

    // The documented names belong to their accounts only ("Find my Student ID" matches on name).
    for (const account of Object.values(DEMO_STUDENTS)) {
      const sameName = await db
        .selectFrom('students')
        .select('id')
        .where('first_name', '=', account.first_name)
        .where('last_name', '=', account.last_name)
        .execute();
      expect(sameName.map((s) => s.id)).toEqual([account.student_id]);
    }
  });

  it('gives every student one user; some new form 1 students have never signed in', async () => {
    const users = await db.selectFrom('users').selectAll().where('role', '=', 'student').execute();
    const students = await db.selectFrom('students').select(['id', 'class_id']).execute();
    expect(users.length).toBe(students.length);
    expect(new Set(users.map((u) => u.student_id)).size).toBe(students.length);
    const classOf = new Map(students.map((s) => [s.id, s.class_id!]));
    const neverSignedIn = users.filter((u) => u.first_login === 1);
    expect(neverSignedIn.length).toBeGreaterThan(5);
    for (const u of neverSignedIn) {
      expect(u.password_hash).toBeNull();
      expect(classOf.get(u.student_id!)).toMatch(/^1/);
    }
    for (const u of users.filter((u) => u.first_login === 0 && u.password_reset === 0)) {
      expect(u.password_hash).toBe(`hash:${DEMO_PASSWORD}`);
    }
  });

  it('fills every value within the R5 limits, enumerations and lookups', async () => {
    const students = await db.selectFrom('students').selectAll().execute();
    const [religions, groups, corporations, towns, schools, houses] = await Promise.all([
      db.selectFrom('religions').select('code').execute(),
      db.selectFrom('ethnic_groups').select('id').execute(),
      db.selectFrom('regional_corporations').select('title').execute(),
      db.selectFrom('towns').select('town_name').execute(),
      db.selectFrom('primary_schools').select('name').execute(),
      db.selectFrom('houses').select('id').execute(),
    ]);
    const religionCodes = new Set(religions.map((r) => r.code));
    const groupIds = new Set(groups.map((g) => g.id));
    const corporationTitles = new Set(corporations.map((c) => c.title));
    const townNames = new Set(towns.map((t) => t.town_name));
    const schoolNames = new Set(schools.map((s) => s.name));
    const houseIds = new Set(houses.map((h) => h.id));
    const problems: string[] = [];
    const check = (ok: boolean, what: string) => {
      if (!ok) problems.push(what);
    };

    for (const s of students) {
      const at = (column: string) => (s as unknown as Record<string, string | number | null>)[column];
      const entryYear = 2026 - (Number(s.class_id![0]) - 1);
      check(new RegExp(`^${entryYear}\\d{4}$`).test(s.id), `${s.id}: id does not start with entry year ${entryYear}`);
      check(houseIds.has(s.house_code ?? ''), `${s.id}: house ${s.house_code}`);
      check(s.sex === 'Female' || s.sex === 'Male', `${s.id}: sex ${s.sex}`);
      const birthYear = Number(s.date_of_birth!.slice(0, 4));
      check(
        birthYear >= entryYear - 13 && birthYear <= entryYear - 11,
        `${s.id}: born ${s.date_of_birth} for entry ${entryYear}`,
      );
      for (const [column, max] of Object.entries(MAX_LENGTHS)) {
        const value = at(column);
        check(
          value === null || (typeof value === 'string' && value.length > 0 && value.length <= max),
          `${s.id}: ${column} '${value}'`,
        );
      }
      for (const column of PHONE_COLUMNS) {
        const value = at(column);
        check(value === null || /^\d{7}$/.test(String(value)), `${s.id}: ${column} '${value}'`);
      }
      for (const column of EMAIL_COLUMNS) {
        const value = at(column);
        check(value === null || EMAIL_PATTERN.test(String(value)), `${s.id}: ${column} '${value}'`);
      }
      check(
        s.blood_type === null || (BLOOD_TYPES as readonly string[]).includes(s.blood_type),
        `${s.id}: blood ${s.blood_type}`,
      );
      check(
        s.device_type === null || (DEVICE_TYPES as readonly string[]).includes(s.device_type),
        `${s.id}: device ${s.device_type}`,
      );
      for (const column of ['mother_marital_status', 'father_marital_status', 'guardian_marital_status']) {
        const value = at(column);
        check(
          value === null || (MARITAL_STATUSES as readonly string[]).includes(String(value)),
          `${s.id}: ${column} ${value}`,
        );
      }
      for (const column of SECTION_COLUMNS.demographics) {
        const value = at(column);
        check(value === null || /^\d{1,2}$/.test(String(value)), `${s.id}: ${column} '${value}'`);
      }
      check(s.religion_code === null || religionCodes.has(s.religion_code), `${s.id}: religion ${s.religion_code}`);
      check(
        s.ethnic_group_code === null || groupIds.has(s.ethnic_group_code),
        `${s.id}: ethnic group ${s.ethnic_group_code}`,
      );
      check(s.regional_corporation === null || corporationTitles.has(s.regional_corporation), `${s.id}: corporation`);
      check(s.address_line_2 === null || townNames.has(s.address_line_2), `${s.id}: town ${s.address_line_2}`);
      check(s.previous_school === null || schoolNames.has(s.previous_school), `${s.id}: school ${s.previous_school}`);
      check(
        s.sibling_attending === 1 ? DEMO_CLASS_IDS.includes(s.sibling_class ?? '') : s.sibling_class === null,
        `${s.id}: sibling_class ${s.sibling_class} with sibling_attending ${s.sibling_attending}`,
      );
      check(
        s.immigration_permit === 1 ? !!s.permit_issue_date && !!s.permit_expiry_date : s.permit_issue_date === null,
        `${s.id}: permit dates`,
      );
      check(
        s.agree_terms_conditions === 1
          ? /^\d{4}-\d{2}-\d{2}$/.test(s.agree_terms_date ?? '')
          : s.agree_terms_date === null,
        `${s.id}: terms date`,
      );

      // Only the sections living_status shows are filled (R4).
      if (s.living_status === null) {
        for (const columns of Object.values(SECTION_COLUMNS))
          for (const c of columns) check(at(c) === null, `${s.id}: ${c} without living status`);
      } else {
        check(
          (LIVING_STATUSES as readonly string[]).includes(s.living_status),
          `${s.id}: living status ${s.living_status}`,
        );
        const shown = SHOWN_SECTIONS[s.living_status]!;
        for (const [section, columns] of Object.entries(SECTION_COLUMNS)) {
          const isShown = shown.includes(section as keyof typeof SECTION_COLUMNS);
          const nameColumn = columns[0];
          if (isShown) check(at(nameColumn) !== null, `${s.id}: ${section} empty for ${s.living_status}`);
          else for (const c of columns) check(at(c) === null, `${s.id}: ${c} filled for ${s.living_status}`);
        }
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);

    expect(new Set(students.map((s) => s.birth_certificate_no)).size).toBe(students.length);
    expect(new Set(students.map((s) => s.sea_no)).size).toBe(students.length);
    // Every stage of completion is represented, and the shared progress rules (the server's) agree
    // with the stage: steps are done in order, and a record with agreed terms is done throughout.
    const documents = await db.selectFrom('documents').select(['student_id', 'file_type']).execute();
    const uploaded = new Map<string, string[]>();
    for (const d of documents) uploaded.set(d.student_id, [...(uploaded.get(d.student_id) ?? []), d.file_type]);
    const stepsDone = new Map<number, number>();
    for (const s of students) {
      const flags = computeProgress(s, uploaded.get(s.id) ?? [], { today: TODAY });
      const steps = [flags.studentData, flags.familyData, flags.healthData, flags.otherData];
      const done = steps.indexOf(0) === -1 ? 4 : steps.indexOf(0);
      check(
        steps.slice(done).every((flag) => flag === 0),
        `${s.id}: steps done out of order ${steps.join('')}`,
      );
      const complete = flags.submit === 1;
      check(!complete || (done === 4 && flags.documents === 1), `${s.id}: terms agreed but ${JSON.stringify(flags)}`);
      check(complete || flags.documents === 0, `${s.id}: documents without agreed terms`);
      const stage = complete ? 5 : done;
      stepsDone.set(stage, (stepsDone.get(stage) ?? 0) + 1);
    }
    expect(problems.slice(0, 20)).toEqual([]);
    for (const stage of [0, 1, 2, 3, 4, 5]) expect(stepsDone.get(stage) ?? 0, `stage ${stage}`).toBeGreaterThan(10);
    // The server computes progress; the seeder never writes it.
    expect(await db.selectFrom('registration_progress').select('student_id').execute()).toEqual([]);
  });

  it('seeds the same school again for the same seed', async () => {
    const second = await openFreshDatabase(engine);
    try {
      await seedDemoSchool(second.db, { hashPassword: fakeHash, today: TODAY });
      const read = (d: Db) => d.selectFrom('students').selectAll().orderBy('id').execute();
      const [a, b] = await Promise.all([read(db), read(second.db)]);
      expect(b).toEqual(a);
      const results = (d: Db) =>
        d
          .selectFrom('term_results')
          .select(['student_id', 'year', 'term', 'coursework', 'exam', 'total', 'grade'])
          .orderBy('student_id')
          .orderBy('term')
          .orderBy('subject_id')
          .limit(500)
          .execute();
      expect(await results(second.db)).toEqual(await results(db));
    } finally {
      await second.destroy();
    }
  }, 120_000);

  it('has the 14 municipal corporations plus the Tobago House of Assembly, and real lookups', async () => {
    const corporations = await db.selectFrom('regional_corporations').select('title').execute();
    expect(corporations).toHaveLength(15);
    expect(corporations.map((c) => c.title).sort()).toEqual([...REGIONAL_CORPORATIONS].sort());
    expect(corporations.filter((c) => c.title.endsWith('Corporation'))).toHaveLength(14);
    expect((await db.selectFrom('towns').select('id').execute()).length).toBeGreaterThanOrEqual(60);
    expect((await db.selectFrom('religions').select('code').execute()).length).toBeGreaterThanOrEqual(12);
    expect((await db.selectFrom('ethnic_groups').select('id').execute()).length).toBeGreaterThanOrEqual(8);
    const houses = await db.selectFrom('houses').selectAll().execute();
    expect(houses.length).toBeGreaterThanOrEqual(4);
    expect(houses.length).toBeLessThanOrEqual(6);
    for (const h of houses) expect(h.color).toMatch(/^#[0-9A-F]{6}$/i);
    const schools = await db.selectFrom('primary_schools').selectAll().execute();
    expect(schools.length).toBeGreaterThanOrEqual(40);
    for (const s of schools) {
      expect(s.name.length).toBeLessThanOrEqual(50);
      expect(s.district).toBeTruthy();
    }
    // Idempotent: a second call adds nothing.
    await seedReferenceData(db);
    expect((await db.selectFrom('regional_corporations').select('id').execute()).length).toBe(15);
  });

  it('records attendance only on school days of the current term, up to today', async () => {
    const records = await db.selectFrom('attendance_records').selectAll().execute();
    expect(records.length).toBe(counts.attendanceRecords);
    const term = DEMO_ACADEMIC_TERMS.find((t) => t.start_date <= TODAY && TODAY <= t.end_date)!;
    const holidays = new Set(DEMO_SCHOOL_HOLIDAYS.map((h) => h.date));
    const dates = new Set(records.map((r) => r.date_scanned));
    for (const date of dates) {
      expect(isWeekday(date), date).toBe(true);
      expect(holidays.has(date), date).toBe(false);
      expect(date >= term.start_date && date <= TODAY, date).toBe(true);
    }
    expect(dates.has(term.start_date)).toBe(true);
    expect(dates.has(TODAY)).toBe(true);
    expect(dates.has('2026-09-24')).toBe(false); // Republic Day

    let late = 0;
    const problems: string[] = [];
    for (const r of records) {
      const where = `${r.student_id} ${r.date_scanned}`;
      if (!/^(07:[1-5]\d|08:[0-2]\d)$/.test(r.time_in ?? '')) problems.push(`${where}: time_in ${r.time_in}`);
      if (r.late !== (r.time_in! > '08:00' ? 1 : 0)) problems.push(`${where}: late ${r.late} at ${r.time_in}`);
      late += r.late;
      if (
        !/^\d{2}$/.test(r.time_scanned_in?.slice(-2) ?? '') ||
        r.time_scanned_in?.slice(0, -3) !== `${r.date_scanned} ${r.time_in}`
      ) {
        problems.push(`${where}: time_scanned_in ${r.time_scanned_in}`);
      }
      if (r.time_out === null) {
        // R10: no scan-out still counts the afternoon.
        if (r.attendance_pm !== 1 || r.time_scanned_out !== null) problems.push(`${where}: no time_out`);
      } else if (r.time_scanned_out?.slice(0, -3) !== `${r.date_scanned} ${r.time_out}`) {
        problems.push(`${where}: time_scanned_out ${r.time_scanned_out}`);
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
    const students = counts.students;
    const rate = records.length / (students * dates.size);
    expect(rate).toBeGreaterThan(0.88);
    expect(rate).toBeLessThan(0.96);
    expect(late / records.length).toBeGreaterThan(0.04);
    expect(late / records.length).toBeLessThan(0.12);
    const bell = await db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'bell_time')
      .executeTakeFirstOrThrow();
    expect(bell.value).toBe('08:00');
  });

  it('posts 2025 terms 1 and 2 and leaves 2025 term 3 and 2026 term 1 unposted', async () => {
    const reports = await db
      .selectFrom('term_reports')
      .select(['year', 'term', 'posted', 'date_posted'])
      .orderBy('year')
      .orderBy('term')
      .execute();
    expect(reports.map((r) => [r.year, r.term, r.posted])).toEqual([
      [2025, 1, 1],
      [2025, 2, 1],
      [2025, 3, 0],
      [2026, 1, 0],
    ]);
    for (const r of reports) {
      if (r.posted) expect(r.date_posted).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      else expect(r.date_posted).toBeNull();
    }
    expect(await db.selectFrom('academic_terms').select('id').execute()).toHaveLength(6);
    const period = await db.selectFrom('registration_periods').selectAll().execute();
    expect(period).toMatchObject([{ form_level: null, open: 1, deadline: '2026-12-18' }]);
  });

  it('keeps term results consistent with the card arithmetic: weights, grade key, averages, positions', async () => {
    const keys = await db.selectFrom('grade_keys').selectAll().execute();
    const weights = new Map(
      (await db.selectFrom('assessment_weights').selectAll().execute()).map((w) => [w.form_level, w]),
    );
    const summaries = await db.selectFrom('term_summaries').selectAll().execute();
    const summaryOf = new Map(summaries.map((s) => [`${s.student_id}/${s.term}`, s]));
    const results = await db.selectFrom('term_results').selectAll().execute();
    expect(results.length).toBe(counts.termResults);
    const problems: string[] = [];
    const totalsOf = new Map<string, number[]>();
    for (const r of results) {
      const key = `${r.student_id}/${r.term}`;
      const formLevel = Number(summaryOf.get(key)!.class_id![0]);
      const total = weightedTotal(r.coursework, r.exam, weights.get(formLevel)!);
      if (r.total !== total) problems.push(`${key}: total ${r.total}, expected ${total}`);
      if (r.grade !== gradeFor(r.total, keys)) problems.push(`${key}: grade ${r.grade} for ${r.total}`);
      totalsOf.set(key, [...(totalsOf.get(key) ?? []), r.total!]);
    }
    for (const [key, totals] of totalsOf) {
      if (summaryOf.get(key)!.average !== averageOf(totals)) problems.push(`${key}: average`);
    }
    const byClassTerm = new Map<string, typeof summaries>();
    for (const s of summaries) {
      const group = `${s.class_id}/${s.term}`;
      byClassTerm.set(group, [...(byClassTerm.get(group) ?? []), s]);
    }
    for (const [group, members] of byClassTerm) {
      const expected = rankByAverage(members.map((m) => ({ key: m.student_id, average: m.average })));
      for (const { key, position } of expected) {
        const summary = members.find((m) => m.student_id === key)!;
        if (summary.position !== position)
          problems.push(`${group} ${key}: position ${summary.position}, expected ${position}`);
        if (summary.class_size !== members.length) problems.push(`${group} ${key}: class size`);
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
    expect(byClassTerm.size).toBe(16 * 3); // forms 1–4 of 2025-2026, three terms
    // Students now in form 1 were in primary school last year.
    const form1 = await db.selectFrom('students').select('id').where('class_id', 'like', '1%').execute();
    const form1Ids = new Set(form1.map((s) => s.id));
    expect(results.some((r) => form1Ids.has(r.student_id))).toBe(false);
  });

  it('refuses to seed a database that already has students', async () => {
    await expect(seedDemoSchool(db, { hashPassword: fakeHash, today: TODAY })).rejects.toThrow(/already has students/);
    const { n } = await db
      .selectFrom('students')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(counts.students);
  });
});
