import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  DEFAULT_STUDENT_SORT,
  REGISTRATION_STATES,
  REGISTRATION_STATE_LABELS,
  changedFieldLabel,
  changedValueText,
  listName,
  matchesStudentFilter,
  registrationStateOf,
  type AdminStudent,
  type RegistrationState,
  type StudentListFilter,
  type StudentListPage,
  type StudentChangesPage,
  type StudentHistoryQuery,
  type StudentListPageRequest,
} from '../../shared/students.schemas.js';
import { schoolDateTime, schoolToday } from '../../shared/dates.js';
import { formClassName } from '../../shared/form-class.js';
import { DEFAULT_REQUIRED_DOCUMENT_TYPES, computeProgress } from '../../shared/registration.progress.js';
import { writeAudit } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import { notFound } from '../http/errors.js';
import type { Actor } from '../http/request-context.js';
import * as repo from './students.repository.js';
import { PdfInParts, ROWS_PER_PART } from '../pdf/printout-in-parts.js';
import type { ReportSection } from './report-sections.js';
import { parentsContactFrame, type CallListRow } from './parents-contact.js';
import {
  registrationReportFrame,
  sumTotals,
  totalsOf,
  type ClassSummary,
  type ReportHeading,
  type ReportStudent,
} from './registration-report.pdf.js';

/** The student records' rules: the student list, the class reports made from the records, export auditing. */

/**
 * The dashboard's student list, by class and name (D82), each with how far the
 * registration has come: computed now from the record and its documents by the rules the
 * registration screens and the registration report use (stored flags exist only for records
 * saved through the screens), a page of records per event-loop turn.
 */
/** Every student's identity numbers (birth certificate, SEA), which a new student may not share (D40). */
export function listIdentifiers(db: Db): Promise<{ id: string; birth_certificate_no: string | null; sea_no: string | null }[]> {
  return repo.listIdentifiers(db);
}

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
 * One page of the student list (D64): the caller's students (`classIds`, null = all)
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
  if (registration === undefined && sort !== 'registration') {
    [total, rows] = await Promise.all([repo.countStudents(db, scope), repo.pageStudents(db, scope, sort, direction, offset, pageSize)]);
    states = await registrationStatesOf(db, rows.map((row) => row.id), today);
  } else {
    // The state is worked out, not stored: for its filter or its sort, every student the SQL leaves.
    const sqlSort = sort === 'registration' ? DEFAULT_STUDENT_SORT : { sort, direction };
    let ids = await repo.listStudentIdsInOrder(db, scope, sqlSort.sort, sqlSort.direction);
    states = await registrationStatesOf(db, ids, today);
    if (registration !== undefined) ids = ids.filter((id) => states.get(id) === registration);
    if (sort === 'registration') ids = inStateOrder(ids, states, direction);
    total = ids.length;
    rows = await repo.listStudentsByIds(db, ids.slice(offset, offset + pageSize));
  }
  return {
    rows: rows.map((row) => ({ ...row, registration: states.get(row.id) ?? 'not_started' })),
    total,
    totalStudents,
    serverMode: totalStudents > serverModeAbove,
  };
}

/**
 * Ids sorted by their registration state, in the stages' order (not started → verified) or its
 * reverse; within a state they keep the order they came in (class, then name).
 */
function inStateOrder(ids: readonly string[], states: ReadonlyMap<string, RegistrationState>, direction: 'asc' | 'desc'): string[] {
  const rank = (id: string) => REGISTRATION_STATES.indexOf(states.get(id) ?? 'not_started') * (direction === 'asc' ? 1 : -1);
  return [...ids].sort((a, b) => rank(a) - rank(b));
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

/** Readable names of the document slots (docs/requirements.md R7). */
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

const RECORDS_PER_PAGE = 250;
/**
 * Whole records a school-wide document reads at once (D94). A whole record is ~150 columns; 250 of
 * them fill the server's 4 MB young generation (D91), so each read outlived a scavenge and was
 * promoted, and a 10,000-student document left ~100 MB of them in the old generation before V8
 * collected it. 50 a read die young.
 */
const RECORDS_PER_READ = 50;

/** One class a school-wide printout covers, and the rows that are its students (D63). */
interface PrintoutClass {
  scope: repo.StudentScope;
  classId: string | null;
  formLevel: number | null;
  formTeacher: string | null;
  /** The students in none of the school's classes: a section only when there are some. */
  isRest: boolean;
}

/**
 * The classes a report covers, in school order: the one asked for, or every form class and then
 * the students in none of them (no class, or a class the school no longer has).
 */
async function printoutClasses(db: Db, only: repo.FormClassRow | null): Promise<PrintoutClass[]> {
  const classes = only ? [only] : await repo.listFormClasses(db);
  const groups: PrintoutClass[] = classes.map((c) => ({ scope: c.id, classId: c.id, formLevel: c.form_level, formTeacher: c.form_teacher, isRest: false }));
  if (!only) groups.push({ scope: { notIn: classes.map((c) => c.id) }, classId: null, formLevel: null, formTeacher: null, isRest: true });
  return groups;
}

/** The time a printout is printed at and its scope, as its first page and its feet say them. */
function reportHeading(schoolName: string, formClass: repo.FormClassRow | null, now: Date): ReportHeading {
  return { schoolName, scope: scopeLabel(formClass), printedAt: schoolDateTime(now) };
}

/**
 * A class's students in the reports' order (by name, as `byName` compares them, the same on both
 * engines): only their names are read for the whole class, and the ids handed back in pieces of
 * at most `perPiece` students, as even as may be, each printed as a section of its own (D94). A class's rows are
 * then read a piece at a time, so what is held is a piece, not a class, however large the class.
 */
async function classPieces(db: Db, scope: repo.StudentScope, perPiece: number): Promise<string[][]> {
  const ids = (await repo.listStudentNames(db, scope)).sort(byName).map((student) => student.id);
  if (ids.length === 0) return [];
  // Pieces of even size: a class one student over a piece is two halves, not a page of one.
  const size = Math.ceil(ids.length / Math.ceil(ids.length / perPiece));
  const pieces: string[][] = [];
  for (let at = 0; at < ids.length; at += size) pieces.push(ids.slice(at, at + size));
  return pieces;
}

/** Students a piece of a class holds: a part's rows, less the class's total line. */
function studentsPerPiece(options: PrintoutOptions): number {
  return Math.max(1, (options.rowsPerPart ?? ROWS_PER_PART) - 1);
}

/**
 * A piece of a class of the registration report: its records RECORDS_PER_READ at a time with
 * their documents and the office's decisions, each student's progress computed by the rules the
 * registration screens use, a read per event-loop turn, in the piece's order.
 */
async function gatherReportStudents(db: Db, ids: readonly string[], today: string): Promise<ReportStudent[]> {
  const students: ReportStudent[] = [];
  for (let at = 0; at < ids.length; at += RECORDS_PER_READ) {
    if (at > 0) await nextTurn();
    const chunk = ids.slice(at, at + RECORDS_PER_READ);
    const [records, documents, decisions] = await Promise.all([
      repo.findStudentRecords(db, chunk),
      repo.listFilledSlotsOf(db, chunk),
      repo.listRegistrationDecisionsOf(db, chunk),
    ]);
    for (const id of chunk) {
      const record = records.get(id);
      // Gone since the names were read: not printed.
      if (!record) continue;
      const uploaded = documents.get(id) ?? [];
      const progress = computeProgress(record, uploaded, { today });
      students.push({
        id,
        name: listName(record),
        progress,
        state: registrationStateOf(progress, decisions.get(id) ?? null),
        missingDocuments: DEFAULT_REQUIRED_DOCUMENT_TYPES.filter((type) => !uploaded.includes(type)).map(documentLabel),
        termsAgreed: record.agree_terms_conditions === 1,
        termsAgreedOn: record.agree_terms_conditions === 1 ? record.agree_terms_date : null,
      });
    }
  }
  return students;
}

/** How a school-wide printout is made: when it is printed, and its part size (tests make small parts). */
export interface PrintoutOptions {
  now?: Date;
  rowsPerPart?: number;
}

/**
 * The registration report PDF of one class or of all, made a class at a time (D63): each class is
 * read a piece at a time and handed to the pool's layout (a few classes a part; a class larger
 * than a part in pieces, D94) while the next is read; only its totals are kept for the summary,
 * which is laid out last and put first. Memory is a part's, whatever the size of the school or
 * of a class.
 */
export async function makeRegistrationReport(db: Db, schoolName: string, formClass: repo.FormClassRow | null, options: PrintoutOptions = {}): Promise<Buffer> {
  const now = options.now ?? new Date();
  const heading = reportHeading(schoolName, formClass, now);
  const today = schoolToday(now);
  const pdf = new PdfInParts<ReportSection>(registrationReportFrame(heading), { rowsPerPart: options.rowsPerPart, openingLater: true });
  const summary: ClassSummary[] = [];
  for (const group of await printoutClasses(db, formClass)) {
    const pieces = await classPieces(db, group.scope, studentsPerPiece(options));
    if (group.isRest && pieces.length === 0) continue;
    const reportClass = { classId: group.classId, formLevel: group.formLevel, formTeacher: group.formTeacher };
    if (pieces.length === 0) await pdf.add({ layout: 'registration-class', group: { ...reportClass, students: [] } }, 1);
    let totals = totalsOf([]);
    for (const [index, ids] of pieces.entries()) {
      const students = await gatherReportStudents(db, ids, today);
      totals = sumTotals([totals, totalsOf(students)]);
      // A class in several pieces: the pieces after the first say so, the last carries the class's totals.
      const piece = pieces.length > 1 ? { continued: index > 0, totals: index === pieces.length - 1 ? totals : null } : undefined;
      await pdf.add({ layout: 'registration-class', group: { ...reportClass, students, piece } }, students.length + 1, { continued: index > 0 });
    }
    summary.push({ ...reportClass, totals });
  }
  return pdf.finish({ layout: 'registration-summary', heading, classes: summary });
}

/**
 * The Parents Contact PDF of one class or of all, made a class at a time (D63): a section per
 * class, read a piece at a time (a class larger than a part in pieces, D94).
 */
export async function makeParentsContact(db: Db, schoolName: string, formClass: repo.FormClassRow | null, options: PrintoutOptions = {}): Promise<Buffer> {
  const heading = reportHeading(schoolName, formClass, options.now ?? new Date());
  const pdf = new PdfInParts<ReportSection>(parentsContactFrame(heading), { rowsPerPart: options.rowsPerPart });
  // The school's header opens the first class's section.
  let opening: ReportHeading | undefined = heading;
  for (const group of await printoutClasses(db, formClass)) {
    const pieces = await classPieces(db, group.scope, studentsPerPiece(options));
    if (group.isRest && pieces.length === 0) continue;
    const contactClass = { classId: group.classId, formLevel: group.formLevel, formTeacher: group.formTeacher };
    const studentCount = pieces.reduce((sum, ids) => sum + ids.length, 0);
    for (const [index, ids] of (pieces.length > 0 ? pieces : [[]]).entries()) {
      const students = await gatherContacts(db, ids);
      const piece = pieces.length > 1 ? { continued: index > 0, studentCount } : undefined;
      await pdf.add({ layout: 'parents-contact-class', group: { ...contactClass, students, piece }, heading: opening }, students.length + 1, { continued: index > 0 });
      opening = undefined;
    }
  }
  // A school without a class or a student: the header alone.
  if (opening) await pdf.add({ layout: 'parents-contact-header', heading: opening }, 1);
  return pdf.finish();
}

/** The contact rows of a piece of a class, RECORDS_PER_PAGE a read, in the piece's order. */
async function gatherContacts(db: Db, ids: readonly string[]): Promise<repo.ContactRow[]> {
  const students: repo.ContactRow[] = [];
  for (let at = 0; at < ids.length; at += RECORDS_PER_PAGE) {
    const chunk = ids.slice(at, at + RECORDS_PER_PAGE);
    const byId = new Map((await repo.listContactsOf(db, chunk)).map((row) => [row.id, row]));
    for (const id of chunk) {
      const row = byId.get(id);
      if (row) students.push(row);
    }
  }
  return students;
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

/** The page size of a student's history unless the caller asks for another. */
const HISTORY_PAGE_SIZE = 25;

/**
 * A page of a student's history, newest first: each change with its field's label from the
 * catalogue and its values in words (yes/no answers as Yes, No or Not answered); 404 for a
 * student the school does not have. Who may read it is the access layer's (student.read).
 */
export async function pageStudentHistory(db: Db, studentId: string, query: StudentHistoryQuery): Promise<StudentChangesPage> {
  if (!(await repo.studentExists(db, studentId))) throw notFound('No student has this ID.');
  const limit = query.limit ?? HISTORY_PAGE_SIZE;
  const rows = await repo.pageFieldChanges(db, studentId, query.before_id ?? null, limit + 1);
  const page = rows.slice(0, limit);
  return {
    student_id: studentId,
    changes: page.map((row) => ({
      id: row.id,
      at: row.created_at,
      who: row.actor_label,
      field: row.field,
      label: changedFieldLabel(row.field),
      old_value: changedValueText(row.field, row.old_value),
      new_value: changedValueText(row.field, row.new_value),
    })),
    next_before_id: rows.length > limit ? page.at(-1)!.id : null,
  };
}
