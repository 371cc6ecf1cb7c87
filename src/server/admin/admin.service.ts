import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  REGISTRATION_STATE_LABELS,
  listName,
  matchesStudentFilter,
  registrationStateOf,
  type AdminStudent,
  type RegistrationState,
  type StudentListFilter,
  type StudentListPage,
  type StudentListPageRequest,
} from '../../shared/admin.schemas.js';
import { schoolDateTime, schoolToday } from '../../shared/dates.js';
import { formClassName } from '../../shared/form-class.js';
import { DEFAULT_REQUIRED_DOCUMENT_TYPES, computeProgress } from '../../shared/registration.progress.js';
import { writeAudit } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import { notFound } from '../http/errors.js';
import type { Actor } from '../http/request-context.js';
import * as repo from './admin.repository.js';
import type { CallListRow, ContactClass, ParentsContactData } from './parents-contact.js';
import type { RegistrationReportData, ReportClass, ReportStudent } from './registration-report.pdf.js';

/** The admin area's rules: the student list, report data, export auditing. */

/**
 * The dashboard's student list (SPEC §2, §3), newest change first, each with how far the
 * registration has come: computed now from the record and its documents by the rules the
 * registration screens and the registration report use (stored flags exist only for records
 * saved through the screens), a page of records per event-loop turn.
 */
/** The student list: every student, or only those of `classIds` (the classes a form teacher may see). */
export async function listStudents(db: Db, classIds: readonly string[] | null, now = new Date(), includeFormer = false): Promise<AdminStudent[]> {
  const [students, documents, decisions] = await Promise.all([
    repo.listStudents(db, classIds, includeFormer),
    repo.listDocumentTypesOfClass(db, null),
    repo.listRegistrationDecisions(db),
  ]);
  const today = schoolToday(now);
  const states = new Map<string, RegistrationState>();
  for (let afterId: string | null = null; ; ) {
    const page = await repo.listStudentRecordsPage(db, null, afterId, RECORDS_PER_PAGE, includeFormer);
    for (const record of page) {
      states.set(record.id, registrationStateOf(computeProgress(record, documents.get(record.id) ?? [], { today }), decisions.get(record.id) ?? null));
    }
    if (page.length < RECORDS_PER_PAGE) break;
    afterId = page.at(-1)!.id;
    await nextTurn();
  }
  return students.map((student) => ({ ...student, registration: states.get(student.id) ?? 'not_started' }));
}

/** How far each given student's registration has come (the rule `listStudents` applies), a page of records per event-loop turn. */
async function registrationStatesOf(db: Db, ids: readonly string[], today: string): Promise<Map<string, RegistrationState>> {
  const states = new Map<string, RegistrationState>();
  for (let i = 0; i < ids.length; i += RECORDS_PER_PAGE) {
    if (i > 0) await nextTurn();
    const chunk = ids.slice(i, i + RECORDS_PER_PAGE);
    const [records, documents, decisions] = await Promise.all([
      repo.findStudentRecords(db, chunk),
      repo.listFilledSlotsOf(db, chunk),
      repo.listRegistrationDecisionsOf(db, chunk),
    ]);
    for (const [id, record] of records) {
      states.set(id, registrationStateOf(computeProgress(record, documents.get(id) ?? [], { today }), decisions.get(id) ?? null));
    }
  }
  return states;
}

/**
 * One page of the student list (issue 20, D64): the caller's students (`classIds`, null = all)
 * narrowed by the search and the class in SQL, sorted and paged there, the registration state
 * worked out for the page's rows only. The state is computed from the record, not stored, so a
 * state filter works it out for every student the SQL leaves and pages after.
 */
export async function pageStudentList(
  db: Db,
  classIds: readonly string[] | null,
  request: StudentListPageRequest,
  serverModeAbove: number,
  now = new Date(),
): Promise<StudentListPage> {
  const { search, class_id: classId, registration, former, sort, direction, page, page_size: pageSize } = request;
  const scope: repo.StudentListScope = {
    classIds,
    filter: { ...(search !== undefined ? { search } : {}), ...(classId !== undefined ? { class_id: classId } : {}), ...(former !== undefined ? { former } : {}) },
  };
  const today = schoolToday(now);
  const offset = page * pageSize;
  const totalStudents = await repo.countStudents(db, { classIds, ...(former !== undefined ? { filter: { former } } : {}) });
  let rows: repo.StudentListRow[];
  let total: number;
  let states: Map<string, RegistrationState>;
  if (registration === undefined) {
    [total, rows] = await Promise.all([repo.countStudents(db, scope), repo.pageStudents(db, scope, sort, direction, offset, pageSize)]);
    states = await registrationStatesOf(db, rows.map((row) => row.id), today);
  } else {
    const ids = await repo.listStudentIdsInOrder(db, scope, sort, direction);
    states = await registrationStatesOf(db, ids, today);
    const matching = ids.filter((id) => states.get(id) === registration);
    total = matching.length;
    rows = await repo.listStudentsByIds(db, matching.slice(offset, offset + pageSize));
  }
  return {
    rows: rows.map((row) => ({ ...row, registration: states.get(row.id) ?? 'not_started' })),
    total,
    totalStudents,
    serverMode: totalStudents > serverModeAbove,
  };
}

/** The form class a report names, or null for 'all'; 404 for a class the school does not have. */
export async function resolveReportClass(db: Db, classId: string): Promise<repo.FormClassRow | null> {
  if (classId === 'all') return null;
  const found = (await repo.listFormClasses(db)).find((c) => c.id.toLowerCase() === classId.toLowerCase());
  if (!found) throw notFound(`The school has no form class ${classId}.`);
  return found;
}

export function scopeLabel(formClass: repo.FormClassRow | null): string {
  return formClass === null ? 'All classes' : (formClassName(formClass.id, formClass.form_level) ?? formClass.id);
}

/** Readable names of the document slots (SPEC §3 document types). */
const DOCUMENT_LABELS: Record<string, string> = {
  birth_certificate: 'Birth Certificate',
  immunization_card: 'Immunization Card',
  sea_slip: 'SEA Slip',
  picture: 'Picture',
  passport: 'Passport',
  student_permit: 'Student Permit',
};
const documentLabel = (type: string) => DOCUMENT_LABELS[type] ?? type.replaceAll('_', ' ');

const byName = (a: { first_name: string | null; last_name: string | null; id: string }, b: typeof a) =>
  (a.last_name ?? '').localeCompare(b.last_name ?? '', 'en') || (a.first_name ?? '').localeCompare(b.first_name ?? '', 'en') || a.id.localeCompare(b.id);

/** Groups rows under the school's classes, in school order; students without a class come last. */
function groupByClass<R extends { class_id: string | null }, G>(
  classes: readonly repo.FormClassRow[],
  rows: readonly R[],
  only: repo.FormClassRow | null,
  make: (formClass: repo.FormClassRow | null, rows: R[]) => G,
): G[] {
  const byClass = new Map<string | null, R[]>();
  for (const row of rows) {
    const list = byClass.get(row.class_id);
    if (list) list.push(row);
    else byClass.set(row.class_id, [row]);
  }
  const groups = (only ? [only] : classes).map((formClass) => make(formClass, byClass.get(formClass.id) ?? []));
  if (!only) {
    const known = new Set(classes.map((c) => c.id));
    const orphans = rows.filter((row) => row.class_id === null || !known.has(row.class_id));
    if (orphans.length > 0) groups.push(make(null, orphans));
  }
  return groups;
}

const PROGRESS_PER_TURN = 200;
const RECORDS_PER_PAGE = 250;

/**
 * The registration report's data: the classes, the (student, document type) pairs, and the
 * records 250 at a time; progress is computed here by the same rules the registration screens
 * use. Pages and progress are taken a slice per event-loop turn, so a 2,000-student report does
 * not hold other users' requests (the PDF itself renders on the worker pool).
 */
export async function gatherRegistrationReport(db: Db, schoolName: string, formClass: repo.FormClassRow | null, now = new Date()): Promise<RegistrationReportData> {
  const classId = formClass?.id ?? null;
  const [classes, documents, decisions] = await Promise.all([
    repo.listFormClasses(db),
    repo.listDocumentTypesOfClass(db, classId),
    repo.listRegistrationDecisions(db, classId),
  ]);
  const records: repo.StudentRow[] = [];
  for (;;) {
    const page = await repo.listStudentRecordsPage(db, classId, records.at(-1)?.id ?? null, RECORDS_PER_PAGE);
    records.push(...page);
    if (page.length < RECORDS_PER_PAGE) break;
    await nextTurn();
  }
  const today = schoolToday(now);
  records.sort(byName);
  const toStudent = (record: repo.StudentRow): ReportStudent => {
    const uploaded = documents.get(record.id) ?? [];
    const progress = computeProgress(record, uploaded, { today });
    return {
      id: record.id,
      name: listName(record),
      progress,
      state: registrationStateOf(progress, decisions.get(record.id) ?? null),
      missingDocuments: DEFAULT_REQUIRED_DOCUMENT_TYPES.filter((type) => !uploaded.includes(type)).map(documentLabel),
      termsAgreed: record.agree_terms_conditions === 1,
      termsAgreedOn: record.agree_terms_conditions === 1 ? record.agree_terms_date : null,
    };
  };
  const students = new Map<string, ReportStudent>();
  for (const [index, record] of records.entries()) {
    if (index > 0 && index % PROGRESS_PER_TURN === 0) await nextTurn();
    students.set(record.id, toStudent(record));
  }
  const groups = groupByClass(classes, records, formClass, (c, rows): ReportClass => ({
    classId: c?.id ?? null,
    formLevel: c?.form_level ?? null,
    formTeacher: c?.form_teacher ?? null,
    students: rows.map((row) => students.get(row.id)!),
  }));
  return { schoolName, scope: scopeLabel(formClass), printedAt: schoolDateTime(now), classes: groups };
}

/** The Parents Contact data in two queries (classes, contacts). */
export async function gatherParentsContact(db: Db, schoolName: string, formClass: repo.FormClassRow | null, now = new Date()): Promise<ParentsContactData> {
  const [classes, contacts] = await Promise.all([repo.listFormClasses(db), repo.listContacts(db, formClass?.id ?? null)]);
  contacts.sort(byName);
  const groups = groupByClass(classes, contacts, formClass, (c, rows): ContactClass => ({
    classId: c?.id ?? null,
    formLevel: c?.form_level ?? null,
    formTeacher: c?.form_teacher ?? null,
    students: rows,
  }));
  return { schoolName, scope: scopeLabel(formClass), printedAt: schoolDateTime(now), classes: groups };
}

/** Pages of contact rows for the spreadsheet (keyset by id). */
export async function* contactPages(db: Db, classId: string | null, pageSize = 500): AsyncGenerator<repo.ContactRow[]> {
  let afterId: string | null = null;
  for (;;) {
    const page = await repo.pageContacts(db, afterId, pageSize, classId);
    if (page.length === 0) return;
    yield page;
    if (page.length < pageSize) return;
    afterId = page[page.length - 1]!.id;
  }
}

/**
 * The call list: the students the list shows for this filter (the same shared filter), sorted by
 * class and name, with their contact columns.
 */
export async function gatherCallList(db: Db, filter: StudentListFilter): Promise<CallListRow[]> {
  const students = (await listStudents(db, null, new Date(), filter.former === 'include')).filter((student) => matchesStudentFilter(student, filter));
  const state = new Map(students.map((student) => [student.id, student.registration]));
  const contacts = await repo.listContactsOf(db, [...state.keys()]);
  contacts.sort((a, b) => (a.class_id ?? '~').localeCompare(b.class_id ?? '~', 'en') || byName(a, b));
  return contacts.map((row) => ({ ...row, registration: state.get(row.id)! }));
}

/** 'Call List - 2B, Not started.xlsx': the filter in words, for the file name and the audit row. */
export function callListScope(filter: StudentListFilter): string {
  const parts = [filter.class_id ?? 'All classes', filter.registration ? REGISTRATION_STATE_LABELS[filter.registration] : null, filter.search?.trim() ? `search ${filter.search.trim()}` : null, filter.former === 'include' ? 'with former students' : null];
  return parts.filter(Boolean).join(', ');
}

/** One audit row per download of personal data (who took which export, when, from where). */
export async function auditExport(db: Db, actor: Actor, what: string): Promise<void> {
  await writeAudit(db, { ...actor, action: 'export', entity: 'students', entity_id: null, field: null, old_value: null, new_value: what });
}
