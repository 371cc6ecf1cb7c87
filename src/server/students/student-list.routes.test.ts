import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import {
  AdminStudentListSchema,
  REGISTRATION_STATES,
  STUDENT_PAGE_SIZE_MAX,
  StudentListPageSchema,
  matchesStudentFilter,
  studentPageUrl,
  type AdminStudent,
  type StudentListFilter,
  type StudentListPage,
  type StudentListPageRequest,
  type StudentSortField,
} from '../../shared/students.schemas.js';
import { DEMO_STAFF, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';

/**
 * The student list paged on the server (D64), on SQLite and PostgreSQL, against the demo
 * school (640 students) with the threshold lowered to 100: each page, each sort, the search as the
 * browser's search finds, the class and registration filters, the counts, the form teacher's
 * classes whatever the query says, and bad queries refused.
 */

let t: TestApp;
let ipCounter = 0;
const client = () => new TestClient(t.app, `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);
let office: TestClient;
let teacher: TestClient;
/** The whole list as the small school's path answers it: the reference the pages are checked against. */
let everyone: AdminStudent[];

beforeAll(async () => {
  t = await createTestApp({ studentListServerModeAbove: 100 });
  office = await client().signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);
  teacher = await client().signInAdmin(DEMO_STAFF.formTeacher.username, DEMO_STAFF.formTeacher.password);
  everyone = AdminStudentListSchema.parse((await office.get('/api/students')).json());
});
afterAll(async () => {
  await t?.close();
});

const request = (options: Partial<StudentListPageRequest> = {}): StudentListPageRequest => ({ page: 0, page_size: 25, sort: 'class_id', direction: 'asc', ...options });

async function pageOf(c: TestClient, options: Partial<StudentListPageRequest> = {}): Promise<StudentListPage> {
  const response = await c.get(studentPageUrl(request(options)));
  expect(response.statusCode, response.body).toBe(200);
  return StudentListPageSchema.parse(response.json());
}

/** Every page of a query, in order, checking each page's counts. */
async function allPages(c: TestClient, options: Partial<StudentListPageRequest> = {}): Promise<AdminStudent[]> {
  const rows: AdminStudent[] = [];
  for (let page = 0; ; page++) {
    const answer = await pageOf(c, { ...options, page, page_size: STUDENT_PAGE_SIZE_MAX });
    rows.push(...answer.rows);
    expect(answer.rows.length).toBeLessThanOrEqual(STUDENT_PAGE_SIZE_MAX);
    if (answer.rows.length < STUDENT_PAGE_SIZE_MAX) {
      expect(rows.length).toBe(answer.total);
      return rows;
    }
  }
}

const ids = (rows: readonly AdminStudent[]) => rows.map((row) => row.id);
/** SQL's lower() on both engines as the demo school's names need it (ASCII). */
const lower = (text: string | null) => text?.replace(/[A-Z]/g, (c) => c.toLowerCase()) ?? null;
const SORT_KEYS: Record<Exclude<StudentSortField, 'class_id' | 'registration'>, (row: AdminStudent) => (string | null)[]> = {
  updatedAt: (row) => [row.updatedAt],
  id: (row) => [row.id],
  name: (row) => [lower(row.last_name), lower(row.first_name)],
  date_of_birth: (row) => [row.date_of_birth],
  birth_certificate_no: (row) => [row.birth_certificate_no],
  sex: (row) => [row.sex ?? null],
};

const compareWith = (sign: number) => (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : sign * (a < b ? -1 : 1));
/** By class (empty last), then last name, then first name A to Z whichever way the classes go, then the id. */
function byClass(sign: number) {
  const asc = compareWith(1);
  return (a: AdminStudent, b: AdminStudent) =>
    compareWith(sign)(a.class_id, b.class_id) || asc(lower(a.last_name), lower(b.last_name)) || asc(lower(a.first_name), lower(b.first_name)) || asc(a.id, b.id);
}

/**
 * The order the server promises: the column's values (empty last either way), then the id in the
 * same direction; a class with its students by name; the registration state in the stages' order,
 * by class and name within a state.
 */
function sortedLikeTheServer(rows: readonly AdminStudent[], sort: StudentSortField, direction: 'asc' | 'desc'): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  if (sort === 'class_id') return ids([...rows].sort(byClass(sign)));
  if (sort === 'registration') {
    const rank = (row: AdminStudent) => REGISTRATION_STATES.indexOf(row.registration) * sign;
    return ids([...rows].sort((a, b) => rank(a) - rank(b) || byClass(1)(a, b)));
  }
  const compare = compareWith(sign);
  return ids(
    [...rows].sort((a, b) => {
      const [keysA, keysB] = [SORT_KEYS[sort](a), SORT_KEYS[sort](b)];
      for (let i = 0; i < keysA.length; i++) {
        const order = compare(keysA[i]!, keysB[i]!);
        if (order !== 0) return order;
      }
      return sign * (a.id < b.id ? -1 : 1);
    }),
  );
}

const expected = (filter: StudentListFilter) => everyone.filter((student) => matchesStudentFilter(student, filter));

describe('GET /api/students with a query: one page', () => {
  it('keeps the whole list without a query, and answers a page with the counts and the mode', async () => {
    expect(everyone.length).toBe(640);
    const first = await StudentListPageSchema.parseAsync((await office.get('/api/students?page=0')).json());
    expect(first.total).toBe(640);
    expect(first.totalStudents).toBe(640);
    expect(first.serverMode).toBe(true);
    // The list's own order, by class then last and first name, as the whole list is sorted.
    expect(ids(everyone)).toEqual(sortedLikeTheServer(everyone, 'class_id', 'asc'));
    expect(ids(first.rows)).toEqual(ids(everyone.slice(0, 25)));
    expect(first.rows).toEqual(everyone.slice(0, 25));
    const third = await pageOf(office, { page: 2, page_size: 50 });
    expect(ids(third.rows)).toEqual(ids(everyone.slice(100, 150)));
    const beyond = await pageOf(office, { page: 99 });
    expect(beyond).toMatchObject({ rows: [], total: 640, totalStudents: 640 });
  });

  it('sorts by each sortable column both ways, the pages together holding every student once', async () => {
    for (const sort of ['id', 'name', 'class_id', 'date_of_birth', 'birth_certificate_no', 'updatedAt', 'sex', 'registration'] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        const rows = await allPages(office, { sort, direction });
        expect(ids(rows), `${sort} ${direction}`).toEqual(sortedLikeTheServer(everyone, sort, direction));
      }
    }
  });

  it('searches as the browser searches: id, names both ways, pin, class and date of birth, case-insensitive', async () => {
    const sample = everyone.find((student) => student.id === DEMO_STUDENTS.registered.student_id)!;
    const needles = [
      sample.id,
      sample.last_name!.toUpperCase(),
      `${sample.last_name}, ${sample.first_name}`,
      `${sample.first_name} ${sample.last_name!.slice(0, 2)}`.toLowerCase(),
      sample.birth_certificate_no!.slice(-4),
      '5a',
      '2012-0',
      '  an  ',
      // LIKE's wildcards are text: nobody's data holds them.
      '%',
      '_',
      'zzzz-nobody',
    ];
    for (const search of needles) {
      const rows = await allPages(office, { search, sort: 'id', direction: 'asc' });
      expect(ids(rows), search).toEqual(sortedLikeTheServer(expected({ search }), 'id', 'asc'));
    }
    expect((await pageOf(office, { search: '%' })).total).toBe(0);
    expect((await pageOf(office, { search: sample.id })).rows).toEqual([sample]);
  });

  it('filters by class and by registration state, alone and with the search, the total counting the matches', async () => {
    const inClass = await allPages(office, { class_id: '2B' });
    expect(inClass.length).toBe(32);
    expect(ids(inClass)).toEqual(ids(expected({ class_id: '2B' })));
    for (const registration of REGISTRATION_STATES) {
      const rows = await allPages(office, { registration });
      expect(ids(rows), registration).toEqual(ids(expected({ registration })));
    }
    const states = new Set(everyone.map((student) => student.registration));
    expect(states.size).toBeGreaterThan(1);
    const combined = { class_id: '5A', registration: everyone.find((s) => s.class_id === '5A')!.registration, search: 'a' } as const;
    const page = await pageOf(office, { ...combined, sort: 'name', direction: 'asc', page_size: 5 });
    expect(page.total).toBe(expected(combined).length);
    expect(page.totalStudents).toBe(640);
    expect(ids(page.rows)).toEqual(sortedLikeTheServer(expected(combined), 'name', 'asc').slice(0, 5));
  });

  it("gives a form teacher their classes only, whatever the query names", async () => {
    const own = await pageOf(teacher, { page_size: 100 });
    expect(own.totalStudents).toBe(32);
    expect(own.total).toBe(32);
    expect(own.serverMode).toBe(false);
    expect(new Set(own.rows.map((row) => row.class_id))).toEqual(new Set(['5A']));
    const other = everyone.find((student) => student.class_id === '1A')!;
    expect(await pageOf(teacher, { class_id: '1A' })).toMatchObject({ rows: [], total: 0, totalStudents: 32 });
    expect(await pageOf(teacher, { search: other.id })).toMatchObject({ rows: [], total: 0 });
    expect((await pageOf(teacher, { class_id: '5A', sort: 'name', direction: 'asc' })).total).toBe(32);
  });

  it('refuses a visitor (401) and a student (403)', async () => {
    expectError(await client().get('/api/students?page=0'), 401, 'unauthenticated');
    const student = await client().signInStudent(DEMO_STUDENTS.registered.student_id, DEMO_STUDENTS.registered.password);
    expectError(await student.get('/api/students?page=0&class_id=5A'), 403, 'forbidden');
  });

  it('refuses bad queries with 400 and names each bad field', async () => {
    const bad: [string, string][] = [
      ['page=-1', 'page'],
      ['page=one', 'page'],
      ['page=1.5', 'page'],
      ['page_size=0', 'page_size'],
      [`page_size=${STUDENT_PAGE_SIZE_MAX + 1}`, 'page_size'],
      ['page_size=100000', 'page_size'],
      ['sort=password_hash', 'sort'],
      ['sort=updated_at;drop', 'sort'],
      ['direction=up', 'direction'],
      ['class_id=5A%27--', 'class_id'],
      ['registration=done', 'registration'],
      [`search=${'x'.repeat(101)}`, 'search'],
    ];
    for (const [query, field] of bad) {
      const body = expectError(await office.get(`/api/students?${query}`), 400);
      expect(Object.keys(body.errors ?? {}), query).toContain(field);
    }
    // The largest page is allowed.
    expect((await pageOf(office, { page_size: STUDENT_PAGE_SIZE_MAX })).rows.length).toBe(STUDENT_PAGE_SIZE_MAX);
  });
});

describe('GET /api/students: the search by name as a person types it', () => {
  const added = [
    { id: '20269601', first_name: 'Zaid', last_name: 'Hassan', birth_certificate_no: 'B14-9600001' },
    { id: '20269602', first_name: 'Hassan', last_name: 'Zaid', birth_certificate_no: 'B14-9600002' },
    { id: '20269603', first_name: 'Chloé', last_name: 'Dúran', birth_certificate_no: 'B14-9600003' },
  ];

  beforeAll(async () => {
    for (const student of added) {
      const response = await office.post('/api/students', { ...student, date_of_birth: '2014-06-15', class_id: '1A' });
      expect(response.statusCode, response.body).toBe(201);
    }
    // A middle name given later, through the record's save.
    const saved = await office.post('/api/student', { id: '20269603', middle_name: 'Émilie' });
    expect(saved.statusCode, saved.body).toBe(200);
    everyone = AdminStudentListSchema.parse((await office.get('/api/students')).json());
  });

  const found = async (search: string) => ids(await allPages(office, { search, sort: 'id', direction: 'asc' }));

  /** What the server finds is what the browser's filter finds, and holds the students named. */
  async function expectFound(search: string, named: readonly string[]) {
    const rows = await found(search);
    expect(rows, search).toEqual(ids(everyone.filter((s) => matchesStudentFilter(s, { search }))).sort());
    expect(rows, search).toEqual(expect.arrayContaining([...named]));
    return rows;
  }

  it('finds a first and a last name together, in either order', async () => {
    for (const search of ['Hassan Zaid', 'zaid hassan', 'Hassan, Zaid', '  ZAID   HASSAN ']) await expectFound(search, ['20269601', '20269602']);
    const both = await expectFound('Zaid Hassan 1A', ['20269601', '20269602']);
    expect(both.every((id) => everyone.find((s) => s.id === id)!.class_id === '1A')).toBe(true);
    expect(await found('Zaid Hassan nobody')).toEqual([]);
  });

  it('finds accented names without the accents and in any case', async () => {
    for (const search of ['Chloe', 'chloé', 'CHLOE duran', 'Duran']) await expectFound(search, ['20269603']);
    expect(await found('chloe duran')).toEqual(['20269603']);
  });

  it('shows the middle name in the row and finds it', async () => {
    const row = everyone.find((s) => s.id === '20269603')!;
    expect(row.middle_name).toBe('Émilie');
    expect(await found('emilie')).toEqual(['20269603']);
    expect(await found('Chloe Emilie Duran')).toEqual(['20269603']);
    // The names stored as the search reads them, on both engines.
    const stored = await t.database.db.selectFrom('students').select('search_name').where('id', '=', '20269603').executeTakeFirstOrThrow();
    expect(stored.search_name).toBe('chloe emilie duran');
  });
});
