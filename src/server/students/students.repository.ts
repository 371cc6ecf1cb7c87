import { sql, type ExpressionBuilder, type OrderByItemBuilder, type RawBuilder, type Selectable } from 'kysely';
import { DEFAULT_STUDENT_SORT, studentSearchWords, type AdminStudent, type StudentListFilter, type StudentSortField } from '../../shared/students.schemas.js';
import type { Db } from '../db/database.js';
import type { Database, StudentTable } from '../db/schema.js';
import { onRoll, studentScope } from '../db/student-scope.js';
import { searchNameOfNew, searchNameOfUpdate } from '../db/student-search.js';

/** All SQL of the admin area (docs/architecture.md "Adding a server feature"). Nothing here reads document bytes. */

export type StudentRow = Selectable<StudentTable>;

/** The columns of one list row (docs/requirements.md R11); the registration state is the service's. */
export type StudentListRow = Omit<AdminStudent, 'registration'>;
const LIST_COLUMNS = ['id', 'first_name', 'middle_name', 'last_name', 'sex', 'class_id', 'date_of_birth', 'birth_certificate_no', 'updated_at', 'left_on', 'left_class'] as const;

/** Who the list is for and what it is narrowed to: the caller's classes (null = every class), the search, one class, and whether former students count. */
export interface StudentListScope {
  classIds: readonly string[] | null;
  filter?: Pick<StudentListFilter, 'search' | 'class_id' | 'former'>;
}

/** `%text%` for LIKE, with LIKE's own wildcards in the text taken literally (escaped with a backslash). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * The students of the list, as one WHERE: the caller's classes, the class chosen, and the search
 * as `matchesStudentSearch` (src/shared/students.schemas.ts) defines it — every word of the search
 * (folded: no accents, lower case) in the ID, the names (`search_name`, stored folded: D82), the
 * pin, the class or the date of birth; former students only when asked (D60). Every read of the
 * list (the whole list, a page, a count, the ids in order) starts here, so a narrowing is added once.
 */
export function studentListQuery(db: Db, { classIds, filter = {} }: StudentListScope) {
  let query = db.selectFrom('students').where(studentScope(filter.former === 'include'));
  if (classIds) query = classIds.length > 0 ? query.where('class_id', 'in', classIds) : query.where(sql<boolean>`1 = 0`);
  if (filter.class_id !== undefined) query = query.where('class_id', '=', filter.class_id);
  for (const word of studentSearchWords(filter.search ?? '')) {
    const pattern = containsPattern(word);
    // A contains-search reads every row of the scope: no B-tree index serves '%text%' (D64).
    // The word is folded already; the ID, pin, class and date are ASCII, so lower() folds them.
    const like = (text: RawBuilder<unknown>) => sql<boolean>`${text} like ${pattern} escape '\\'`;
    query = query.where(() =>
      sql<boolean>`(${sql.join(
        [like(sql`lower(id)`), like(sql.ref('search_name')), like(sql`lower(birth_certificate_no)`), like(sql`lower(class_id)`), like(sql.ref('date_of_birth'))],
        sql` or `,
      )})`,
    );
  }
  return query;
}

type ListQuery = ReturnType<typeof studentListQuery>;

/** Only a former student's row carries when and whence they left: the list's rows stay as they were. */
function toListRow({ updated_at, left_on, left_class, ...row }: Pick<StudentRow, (typeof LIST_COLUMNS)[number]>): StudentListRow {
  return { ...row, updatedAt: updated_at, ...(left_on ? { left_on, left_class } : {}) };
}

/** The whole list: only its columns, in the list's order (class, then name: D82), in one query; the former students too with `includeFormer`. */
export async function listStudents(db: Db, classIds: readonly string[] | null, includeFormer = false): Promise<StudentListRow[]> {
  const query = studentListQuery(db, { classIds, filter: includeFormer ? { former: 'include' } : {} });
  const rows = await inOrder(query, DEFAULT_STUDENT_SORT.sort, DEFAULT_STUDENT_SORT.direction).select(LIST_COLUMNS).execute();
  return rows.map(toListRow);
}

/** How many students the scope holds. */
export async function countStudents(db: Db, scope: StudentListScope): Promise<number> {
  const row = await studentListQuery(db, scope).select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The columns a SQL sort reads: the registration state is worked out after (the service sorts by it). */
export type SqlSortField = Exclude<StudentSortField, 'registration'>;

/**
 * The list's order by one column (empty values last in either direction), then by id, so a page
 * is the same on both engines and no row shows on two pages. Names sort case-insensitively
 * (lower(), which the 0018 index serves), as the Name column reads; a class sorts its students by
 * last name, then first name, A to Z whichever way the classes go (D82).
 */
function inOrder(query: ListQuery, sort: SqlSortField, direction: 'asc' | 'desc'): ListQuery {
  const way = (order: OrderByItemBuilder) => (direction === 'asc' ? order.asc() : order.desc()).nullsLast();
  const byName = (order: OrderByItemBuilder) => order.asc().nullsLast();
  if (sort === 'class_id') {
    return query.orderBy('class_id', way).orderBy(sql`lower(last_name)`, byName).orderBy(sql`lower(first_name)`, byName).orderBy('id');
  }
  const columns = sort === 'name' ? [sql`lower(last_name)`, sql`lower(first_name)`] : [sql.ref(sort === 'updatedAt' ? 'updated_at' : sort)];
  for (const column of columns) query = query.orderBy(column, way);
  return query.orderBy('id', direction);
}

/** One page of the scope in the order asked for. */
export async function pageStudents(db: Db, scope: StudentListScope, sort: SqlSortField, direction: 'asc' | 'desc', offset: number, limit: number): Promise<StudentListRow[]> {
  const rows = await inOrder(studentListQuery(db, scope), sort, direction).select(LIST_COLUMNS).offset(offset).limit(limit).execute();
  return rows.map(toListRow);
}

/** The ids of the whole scope in the order asked for (a filter the SQL cannot apply narrows them after). */
export async function listStudentIdsInOrder(db: Db, scope: StudentListScope, sort: SqlSortField, direction: 'asc' | 'desc'): Promise<string[]> {
  const rows = await inOrder(studentListQuery(db, scope), sort, direction).select('id').execute();
  return rows.map((row) => row.id);
}

/** List rows of the given ids, in the order of `ids`. */
export async function listStudentsByIds(db: Db, ids: readonly string[]): Promise<StudentListRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('students').select(LIST_COLUMNS).where('id', 'in', ids).execute();
  const byId = new Map(rows.map((row) => [row.id, toListRow(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Contact rows of the given students (those that exist), for the call list. */
export async function listContactsOf(db: Db, ids: readonly string[]): Promise<(ContactRow & Pick<StudentRow, 'date_of_birth'>)[]> {
  const rows: (ContactRow & Pick<StudentRow, 'date_of_birth'>)[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    rows.push(...(await db.selectFrom('students').select([...CONTACT_COLUMNS, 'date_of_birth']).where('id', 'in', ids.slice(i, i + 500)).execute()));
  }
  return rows;
}

export interface FormClassRow {
  id: string;
  form_level: number;
  form_teacher: string | null;
}

/** The form classes in school order (form level, then name). */
export function listFormClasses(db: Db): Promise<FormClassRow[]> {
  return db.selectFrom('form_classes').select(['id', 'form_level', 'form_teacher']).orderBy('form_level').orderBy('id').execute();
}

/**
 * Whose rows a query of the class reports reads: every student (null), one form class's (its id),
 * or the students in none of the school's classes (`notIn` the school's class ids: no class, or
 * a class the school no longer has). The school-wide documents read a class at a time (D63).
 */
export type StudentScope = string | null | { notIn: readonly string[] };

/** The condition on `students` for a scope other than everyone. */
function inScope(scope: Exclude<StudentScope, null>) {
  return (eb: ExpressionBuilder<Database, 'students'>) => {
    if (typeof scope === 'string') return eb('students.class_id', '=', scope);
    if (scope.notIn.length === 0) return eb.lit(true);
    return eb.or([eb('students.class_id', 'is', null), eb('students.class_id', 'not in', scope.notIn)]);
  };
}

/**
 * One page of whole student records after `afterId`, by id (keyset pagination: each page is an
 * index range scan, however deep into the table), optionally of one class.
 */
export function pageStudentRecords(db: Db, afterId: string | null, limit: number, classId: string | null = null, includeFormer = false): Promise<StudentRow[]> {
  let query = db.selectFrom('students').selectAll().where(studentScope(includeFormer)).orderBy('id').limit(limit);
  if (afterId !== null) query = query.where('id', '>', afterId);
  if (classId !== null) query = query.where('class_id', '=', classId);
  return query.execute();
}

/**
 * Full student records of one class (or all), a page at a time: keyset by id, `limit` rows after
 * `afterId`. A whole school's records read in one statement hold the event loop for ~30 ms on SQLite.
 */
export function listStudentRecordsPage(db: Db, scope: StudentScope, afterId: string | null, limit: number, includeFormer = false): Promise<StudentRow[]> {
  let query = db.selectFrom('students').selectAll().where(studentScope(includeFormer)).orderBy('id').limit(limit);
  if (scope !== null) query = query.where(inScope(scope));
  if (afterId !== null) query = query.where('id', '>', afterId);
  return query.execute();
}

/** (student, document type) pairs of the given students: which slots hold a file. */
export async function listDocumentTypesOf(db: Db, studentIds: readonly string[]): Promise<Map<string, string[]>> {
  const byStudent = new Map<string, string[]>();
  for (let i = 0; i < studentIds.length; i += 500) {
    const chunk = studentIds.slice(i, i + 500);
    const rows = await db.selectFrom('documents').select(['student_id', 'file_type']).where('student_id', 'in', chunk).execute();
    for (const row of rows) {
      const list = byStudent.get(row.student_id);
      if (list) list.push(row.file_type);
      else byStudent.set(row.student_id, [row.file_type]);
    }
  }
  return byStudent;
}

/** (student, document type) pairs of one class or the whole school, in one query. */
export async function listDocumentTypesOfClass(db: Db, scope: StudentScope): Promise<Map<string, string[]>> {
  // A returned document does not fill its slot (D56), as on the registration screens.
  let query = db
    .selectFrom('documents')
    .innerJoin('students', 'students.id', 'documents.student_id')
    .select(['documents.student_id', 'documents.file_type'])
    .where('documents.review_state', '<>', 'returned');
  if (scope !== null) query = query.where(inScope(scope));
  const byStudent = new Map<string, string[]>();
  for (const row of await query.execute()) {
    const list = byStudent.get(row.student_id);
    if (list) list.push(row.file_type);
    else byStudent.set(row.student_id, [row.file_type]);
  }
  return byStudent;
}

/** The lookups whose stored value is a code, as code → name (religion, ethnic group, house). */
export interface LookupNames {
  religions: Map<string, string>;
  ethnicGroups: Map<string, string>;
  houses: Map<string, string>;
}

export async function loadLookupNames(db: Db): Promise<LookupNames> {
  const [religions, ethnicGroups, houses] = await Promise.all([
    db.selectFrom('religions').select(['code', 'religion']).execute(),
    db.selectFrom('ethnic_groups').select(['id', 'group_type']).execute(),
    db.selectFrom('houses').select(['id', 'name']).execute(),
  ]);
  return {
    religions: new Map(religions.map((r) => [r.code, r.religion])),
    ethnicGroups: new Map(ethnicGroups.map((g) => [g.id, g.group_type])),
    houses: new Map(houses.map((h) => [h.id, h.name])),
  };
}

/** The parent, guardian and emergency columns of the Parents Contact report. */
export const CONTACT_COLUMNS = [
  'id',
  'first_name',
  'last_name',
  'class_id',
  'living_status',
  'mother_name',
  'mobile_phone_mother',
  'mother_home_phone',
  'mother_business_phone',
  'email_mother',
  'father_name',
  'mobile_phone_father',
  'father_home_phone',
  'father_business_phone',
  'email_father',
  'guardian_name',
  'mobile_phone_guardian',
  'home_phone_guardian',
  'business_phone_guardian',
  'email_guardian',
  'emergency_contact',
  'emergency_home_phone',
  'relation_to_child',
] as const;
export type ContactRow = Pick<StudentRow, (typeof CONTACT_COLUMNS)[number]>;

/** One page of contact rows after `afterId` (keyset by id), optionally of one class. */
export function pageContacts(db: Db, afterId: string | null, limit: number, classId: string | null): Promise<ContactRow[]> {
  let query = db.selectFrom('students').select(CONTACT_COLUMNS).where(onRoll).orderBy('id').limit(limit);
  if (afterId !== null) query = query.where('id', '>', afterId);
  if (classId !== null) query = query.where('class_id', '=', classId);
  return query.execute();
}

/**
 * The names of the students on the roll of one class, of the students in no class, or of all:
 * what the class reports sort by before they read a class's rows a few hundred at a time (D94).
 */
export function listStudentNames(db: Db, scope: StudentScope): Promise<Pick<StudentRow, 'id' | 'first_name' | 'last_name'>[]> {
  let query = db.selectFrom('students').select(['id', 'first_name', 'last_name']).where(onRoll);
  if (scope !== null) query = query.where(inScope(scope));
  return query.execute();
}

// ---- import ------------------------------------------------------------------------------------

/** Whole records of the given ids (those that exist). */
export async function findStudentRecords(db: Db, ids: readonly string[]): Promise<Map<string, StudentRow>> {
  const found = new Map<string, StudentRow>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.selectFrom('students').selectAll().where('id', 'in', ids.slice(i, i + 500)).execute();
    for (const row of rows) found.set(row.id, row);
  }
  return found;
}

/** Every student's birth certificate pin and SEA number (to keep them unique per student). */
export function listIdentifiers(db: Db): Promise<{ id: string; birth_certificate_no: string | null; sea_no: string | null }[]> {
  return db.selectFrom('students').select(['id', 'birth_certificate_no', 'sea_no']).execute();
}

/** Creates a student record. */
export async function insertStudent(db: Db, id: string, values: Record<string, string | number | null>, at: string): Promise<void> {
  await db
    .insertInto('students')
    .values({ ...(values as Partial<StudentRow>), ...searchNameOfNew(values), id, created_at: at, updated_at: at })
    .execute();
}

/** The account a new student signs in with the first time (first_login = 1, no password yet). */
export async function insertFirstLoginUser(db: Db, studentId: string, displayName: string, at: string): Promise<void> {
  await db
    .insertInto('users')
    .values({ role: 'student', student_id: studentId, username: null, display_name: displayName, password_hash: null, first_login: 1, password_reset: 0, created_at: at, updated_at: at })
    .execute();
}

/** Writes changed columns of a record and its new `updated_at`. */
export async function updateStudent(db: Db, id: string, values: Record<string, string | number | null>, at: string): Promise<void> {
  await db
    .updateTable('students')
    .set({ ...(values as Partial<StudentRow>), ...(await searchNameOfUpdate(db, id, values)), updated_at: at })
    .where('id', '=', id)
    .execute();
}

/** The office's decision on each record that has one (D56): student id → returned or verified. */
export async function listRegistrationDecisions(db: Db, scope: StudentScope = null): Promise<Map<string, 'returned' | 'verified'>> {
  let query = db.selectFrom('registration_reviews').innerJoin('students', 'students.id', 'registration_reviews.student_id').select(['registration_reviews.student_id', 'registration_reviews.state']);
  if (scope !== null) query = query.where(inScope(scope));
  return new Map((await query.execute()).map((row) => [row.student_id, row.state]));
}

/** The filled document slots of the given students: a returned document does not fill its slot (D56), as in `listDocumentTypesOfClass`. */
export async function listFilledSlotsOf(db: Db, studentIds: readonly string[]): Promise<Map<string, string[]>> {
  const byStudent = new Map<string, string[]>();
  if (studentIds.length === 0) return byStudent;
  const rows = await db.selectFrom('documents').select(['student_id', 'file_type']).where('student_id', 'in', studentIds).where('review_state', '<>', 'returned').execute();
  for (const row of rows) {
    const list = byStudent.get(row.student_id);
    if (list) list.push(row.file_type);
    else byStudent.set(row.student_id, [row.file_type]);
  }
  return byStudent;
}

/** The office's decision on those of the given students that have one. */
export async function listRegistrationDecisionsOf(db: Db, studentIds: readonly string[]): Promise<Map<string, 'returned' | 'verified'>> {
  if (studentIds.length === 0) return new Map();
  const rows = await db.selectFrom('registration_reviews').select(['student_id', 'state']).where('student_id', 'in', studentIds).execute();
  return new Map(rows.map((row) => [row.student_id, row.state]));
}

// ---- a student's history ---------------------------------------------------------------------------

/** The audit actions that record no change of the record (reads, exports, report cards opened). */
const NOT_CHANGES = ['read', 'export', 'report-card-viewed', 'report-card-printed'];

export interface FieldChangeRow {
  id: number;
  created_at: string;
  actor_label: string;
  field: string;
  old_value: string | null;
  new_value: string | null;
}

/**
 * A page of one student's field changes (their record's and documents' audit rows that name a
 * field), newest first, older than `beforeId` when given: the index `(entity, entity_id)` of
 * migration 0003 finds the student's rows.
 */
export async function pageFieldChanges(db: Db, studentId: string, beforeId: number | null, limit: number): Promise<FieldChangeRow[]> {
  let query = db
    .selectFrom('audit_log')
    .select(['id', 'created_at', 'actor_label', 'field', 'old_value', 'new_value'])
    .where('entity', 'in', ['student', 'document'])
    .where('entity_id', '=', studentId)
    .where('field', 'is not', null)
    .where('action', 'not in', NOT_CHANGES)
    .orderBy('id', 'desc')
    .limit(limit);
  if (beforeId !== null) query = query.where('id', '<', beforeId);
  const rows = await query.execute();
  return rows.map((row) => ({ ...row, id: Number(row.id), field: row.field ?? '' }));
}

/** Whether a student of this id exists (on the roll or not). */
export async function studentExists(db: Db, studentId: string): Promise<boolean> {
  return (await db.selectFrom('students').select('id').where('id', '=', studentId).executeTakeFirst()) !== undefined;
}
