import { z } from 'zod';
import { ClassIdSchema } from './form-class.js';
import { FormerStudentsQuerySchema } from './rollover.schemas.js';
import { StudentIdSchema } from './auth.schemas.js';
import { FIELD_MESSAGES, checkFieldValue, findField, yesNoText, type RegistrationField } from './registration.fields.js';
import type { ProgressFlags } from './registration.progress.js';

/**
 * The admin area (docs/requirements.md R11; R16 for the edit-save status and messages): the
 * student list, the Edit Student dialog's rules, the class reports and the student import. One
 * definition for the routes and the screens.
 */

// ---- the fixed words (R16) -----------------------------------------------------------------------

export const ADMIN_MESSAGES = {
  /** The dashboard student list (R11). */
  totalStudents: (count: number) => `Total Number of Students: ${count}`,
  /** The edit-save status (R16). */
  updating: 'Updating',
  updated: 'Updated Successfully.',
  error: 'Error Occured.',
  /** Edit Student (R5): first name, last name and pin must not be empty. */
  required: 'Required',
  /** Export Data (R11). */
  downloading: 'Downloading data...',
  /** The password-reset dialog (R11, R16). */
  passwordReset: 'password reset successfully',
} as const;

/** The file the registration spreadsheet downloads as (R11 Export Data). */
export const REGISTRATION_DATA_FILE_NAME = 'Registration Data.xlsx';

// ---- GET /api/students -------------------------------------------------------------------------

/**
 * Where a student's registration stands (docs/decisions.md D56): from the progress
 * flags no step done is not started, all six (the five steps and the submission) submitted,
 * anything between in progress; the office's decision, when there is one, is returned or verified.
 */
export const REGISTRATION_STATES = ['not_started', 'in_progress', 'submitted', 'returned', 'verified'] as const;
export type RegistrationState = (typeof REGISTRATION_STATES)[number];
export const REGISTRATION_STATE_LABELS: Record<RegistrationState, string> = {
  not_started: 'Not started',
  in_progress: 'In progress',
  submitted: 'Submitted',
  returned: 'Returned',
  verified: 'Verified',
};

/** The office's decision on a record, when there is one (registration_reviews). */
export type RegistrationDecision = 'returned' | 'verified';

/** The state of the six progress flags (null: no progress stored yet, so not started), unless the office decided. */
export function registrationStateOf(
  flags: Readonly<Record<Exclude<keyof ProgressFlags, 'termsAndConditions'>, number>> | null,
  decision: RegistrationDecision | null = null,
): RegistrationState {
  if (decision) return decision;
  if (!flags) return 'not_started';
  const done = [flags.studentData, flags.familyData, flags.healthData, flags.otherData, flags.documents, flags.submit].filter((flag) => flag === 1).length;
  return done === 0 ? 'not_started' : done === 6 ? 'submitted' : 'in_progress';
}

/** One row of the dashboard's student list. */
export const AdminStudentSchema = z.object({
  id: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  class_id: z.string().nullable(),
  /** yyyy-MM-dd */
  date_of_birth: z.string().nullable(),
  birth_certificate_no: z.string().nullable(),
  /** Shown in the Name column and searched (docs/decisions.md D82). */
  middle_name: z.string().nullable().optional(),
  /** Female or Male (the catalogue's choices); null until the record says. */
  sex: z.string().nullable().optional(),
  /** ISO-8601 time of the last change. */
  updatedAt: z.string(),
  registration: z.enum(REGISTRATION_STATES),
  /** A former student (D60): the day they left and their last class; absent or null while on the roll. */
  left_on: z.string().nullable().optional(),
  left_class: z.string().nullable().optional(),
});
export type AdminStudent = z.infer<typeof AdminStudentSchema>;
export const AdminStudentListSchema = z.array(AdminStudentSchema);

/** 'Last, First' as the Name column shows it (R11). */
export function listName(student: Pick<AdminStudent, 'first_name' | 'last_name'>): string {
  const last = student.last_name?.trim() ?? '';
  const first = student.first_name?.trim() ?? '';
  return last && first ? `${last}, ${first}` : last || first;
}

/**
 * 'Last, First Middle' as the Name column shows it: `listName` with the middle names after the
 * first name (docs/decisions.md D82).
 */
export function fullListName(student: Pick<AdminStudent, 'first_name' | 'last_name' | 'middle_name'>): string {
  const middle = student.middle_name?.trim() ?? '';
  const name = listName(student);
  if (middle === '') return name;
  return student.first_name?.trim() ? `${name} ${middle}` : [name, middle].filter(Boolean).join(', ');
}

/**
 * Text as the student search compares it: accents taken off (é → e, as NFD splits them from
 * their letter) and lower-cased, so "Chloe" finds "Chloé" and "chloe" finds "CHLOE".
 */
export function searchFolded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The student's names as the search reads them: first, middle and last, folded
 * (`searchFolded`). The server stores it in `students.search_name` whenever a name is written
 * (docs/decisions.md D82), so SQL finds what this finds on both engines.
 */
export function studentNameSearchText(student: Partial<Record<'first_name' | 'middle_name' | 'last_name', string | number | null | undefined>>): string {
  return searchFolded([student.first_name, student.middle_name, student.last_name].map((part) => (part === null || part === undefined ? '' : String(part).trim())).filter(Boolean).join(' '));
}

/**
 * The words of a search, folded: split at spaces and commas, so "Hassan Zaid", "Zaid Hassan" and
 * "Hassan, Zaid" are the same two words. None for an empty search (which finds everyone).
 */
export function studentSearchWords(search: string): string[] {
  return searchFolded(search)
    .split(/[\s,]+/)
    .filter((word) => word !== '');
}

/**
 * The student list's search, one definition for the browser (a small school's list filters in
 * the page) and the server (a large school's list, and the call list, filter in SQL: the
 * repository's `studentListQuery` looks in the same texts the same way). Every word of the
 * search occurs in one of `studentSearchTexts`, accent- and case-insensitively; the words in any
 * order, so a first and a last name together find the student either way round.
 */
export function studentSearchTexts(student: Pick<AdminStudent, 'id' | 'first_name' | 'last_name' | 'middle_name' | 'birth_certificate_no' | 'class_id' | 'date_of_birth'>): string[] {
  return [student.id, studentNameSearchText(student), student.birth_certificate_no, student.class_id, student.date_of_birth].flatMap((value) => (value ? [searchFolded(value)] : []));
}

/** True when every word of the search occurs in one of the student's `studentSearchTexts`. */
export function matchesStudentSearch(student: AdminStudent, search: string): boolean {
  const words = studentSearchWords(search);
  if (words.length === 0) return true;
  const texts = studentSearchTexts(student);
  return words.every((word) => texts.some((text) => text.includes(word)));
}

/**
 * The student list's filters, also the call-list export's query: the search text, one class,
 * one registration state (each optional). The list and the export apply them with
 * `matchesStudentFilter`, so the file holds exactly the rows on screen.
 */
export const StudentListFilterSchema = z.object({
  search: z.string().max(100, 'The search is at most 100 characters.').optional(),
  class_id: ClassIdSchema.optional(),
  registration: z.enum(REGISTRATION_STATES, { message: 'Registration is not_started, in_progress, submitted, returned or verified.' }).optional(),
  /** Former students (a rollover's leavers, D60) are left out unless `include`. */
  former: FormerStudentsQuerySchema.shape.former,
});
export type StudentListFilter = z.infer<typeof StudentListFilterSchema>;

export function matchesStudentFilter(student: AdminStudent, filter: StudentListFilter): boolean {
  if (filter.class_id !== undefined && student.class_id !== filter.class_id) return false;
  if (filter.registration !== undefined && student.registration !== filter.registration) return false;
  return matchesStudentSearch(student, filter.search ?? '');
}

// ---- GET /api/students?page=… (a large school's list, paged on the server) -----------------------

/** The most rows one page of the list may ask for (the grid offers 25, 50 and 100). */
export const STUDENT_PAGE_SIZE_MAX = 100;
export const STUDENT_PAGE_SIZES = [25, 50, 100] as const;

/**
 * The columns the list sorts by: the grid's sortable columns (Name is 'Last, First', so last name
 * then first name, case-insensitive; Class is the class, then the names in it), and updatedAt,
 * the time of the last change.
 */
export const STUDENT_SORT_FIELDS = ['updatedAt', 'id', 'name', 'class_id', 'date_of_birth', 'birth_certificate_no', 'sex', 'registration'] as const;
export type StudentSortField = (typeof STUDENT_SORT_FIELDS)[number];

/** Text compared as SQL's lower() and ORDER BY compare it on both engines here: empty last, then by code point. */
function compareText(a: string | null | undefined, b: string | null | undefined, sign: 1 | -1): number {
  const [x, y] = [a?.toLowerCase() ?? null, b?.toLowerCase() ?? null];
  if (x === y) return 0;
  if (x === null) return 1;
  if (y === null) return -1;
  return sign * (x < y ? -1 : 1);
}

/**
 * The Class column's order in the browser, as the server sorts it (docs/decisions.md D82): the
 * class (empty last) in the direction asked, then last name, then first name A to Z, then the ID.
 */
export function compareByClassThenName(a: AdminStudent, b: AdminStudent, direction: 'asc' | 'desc'): number {
  return (
    compareText(a.class_id, b.class_id, direction === 'asc' ? 1 : -1) ||
    compareText(a.last_name, b.last_name, 1) ||
    compareText(a.first_name, b.first_name, 1) ||
    compareText(a.id, b.id, 1)
  );
}

/** The list's order until someone sorts by a column: by class, then last name, then first name (docs/decisions.md D82). */
export const DEFAULT_STUDENT_SORT = { sort: 'class_id', direction: 'asc' } as const satisfies { sort: StudentSortField; direction: 'asc' | 'desc' };

const wholeNumber = (label: string, max: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, `${label} is a whole number.`)
    .transform(Number)
    .pipe(z.number().max(max, `${label} is at most ${max}.`));

/**
 * One page of the student list, with its sort and filters (the list's filters above): the query
 * of `GET /api/students` when the grid runs on the server (docs/decisions.md D64). With
 * `page` left out the route answers the whole list, as a small school's grid wants it.
 */
export const StudentListQuerySchema = StudentListFilterSchema.extend({
  /** From 0, as the Data Grid counts. */
  page: wholeNumber('The page', 100_000).optional(),
  page_size: wholeNumber('The page size', STUDENT_PAGE_SIZE_MAX)
    .pipe(z.number().min(1, 'The page size is at least 1.'))
    .optional(),
  sort: z.enum(STUDENT_SORT_FIELDS, { message: `Sort by ${STUDENT_SORT_FIELDS.join(', ')}.` }).optional(),
  direction: z.enum(['asc', 'desc'], { message: 'The direction is asc or desc.' }).optional(),
});
export type StudentListQuery = z.infer<typeof StudentListQuerySchema>;

/** A page of the list as the route reads it: every choice made (25 by class and name unless asked otherwise). */
export interface StudentListPageRequest extends StudentListFilter {
  page: number;
  page_size: number;
  sort: StudentSortField;
  direction: 'asc' | 'desc';
}

export function pageRequestOf(query: StudentListQuery): StudentListPageRequest {
  const { page = 0, page_size = STUDENT_PAGE_SIZES[0], sort = DEFAULT_STUDENT_SORT.sort, direction = sort === 'updatedAt' ? 'desc' : 'asc', ...filter } = query;
  return { ...filter, page, page_size, sort, direction };
}

/**
 * One page of the list: its rows, how many match the filters (`total`, what the pager counts), how
 * many the caller may see at all (`totalStudents`, the 'Total Number of Students' line), and
 * whether that is past the school's threshold, so the grid pages on the server (`serverMode`).
 */
export const StudentListPageSchema = z.object({
  rows: AdminStudentListSchema,
  total: z.number().int().min(0),
  totalStudents: z.number().int().min(0),
  serverMode: z.boolean(),
});
export type StudentListPage = z.infer<typeof StudentListPageSchema>;

/** The address of one page of the list (only the choices made are sent). */
export function studentPageUrl(request: StudentListPageRequest): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(request)) {
    const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
    if (text !== '') query.set(key, text);
  }
  return `/api/students?${query.toString()}`;
}

/** The call list of the filtered students (XLSX): what the list shows, with the parents' phones and e-mails. */
export function callListUrl(filter: StudentListFilter): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (typeof value === 'string' && value.trim() !== '') query.set(key, value.trim());
  const text = query.toString();
  return `/api/students/call-list${text ? `?${text}` : ''}`;
}

// ---- the Edit Student dialog (POST /api/student, admin) ------------------------------------------

/** The four fields of the Edit Student dialog (R11), in screen order. */
export const ADMIN_EDIT_FIELDS = ['first_name', 'last_name', 'date_of_birth', 'birth_certificate_no'] as const;
export type AdminEditField = (typeof ADMIN_EDIT_FIELDS)[number];

/** The Date of Birth picker's earliest date (R5). */
export const ADMIN_MIN_BIRTH_DATE = '1950-01-01';

function catalogueField(name: AdminEditField | AddStudentField): RegistrationField {
  const field = findField(name);
  if (!field) throw new Error(`The field catalogue has no ${name}.`);
  return field;
}

/**
 * The message under an Edit Student field, or null when the value may be saved: an empty value
 * says 'Required' (R5, Edit Student); otherwise the catalogue's rules (max lengths, no future
 * dates, the 1950-01-01 minimum) — the same rules `POST /api/student` applies on the server.
 */
export function adminEditFieldMessage(name: AdminEditField, value: string, options: { today?: string } = {}): string | null {
  if (value.trim() === '') return ADMIN_MESSAGES.required;
  const check = checkFieldValue(catalogueField(name), value, options);
  return check.ok ? null : (check.messages[0] ?? FIELD_MESSAGES.text);
}

/** The label of an Edit Student field (the catalogue's). */
export function adminEditFieldLabel(name: AdminEditField): string {
  return catalogueField(name).label;
}

// ---- a student's history (GET /api/students/{id}/history) -----------------------------------------

/** The most changes one page of a student's history holds. */
export const STUDENT_HISTORY_PAGE_MAX = 100;

/** `before_id` pages back (the last page's `next_before_id`); `limit` rows a page (25 unless asked). */
export const StudentHistoryQuerySchema = z.object({
  before_id: z
    .string()
    .regex(/^\d{1,15}$/, 'before_id is a whole number.')
    .transform(Number)
    .pipe(z.number().min(1, 'before_id is at least 1.'))
    .optional(),
  limit: wholeNumber('The limit', STUDENT_HISTORY_PAGE_MAX).pipe(z.number().min(1, 'The limit is at least 1.')).optional(),
});
export type StudentHistoryQuery = z.infer<typeof StudentHistoryQuerySchema>;

/** One recorded change of a student's record, as the office reads it. */
export const StudentChangeSchema = z.object({
  id: z.number().int(),
  /** When (ISO-8601 UTC); screens show it in school time. */
  at: z.string(),
  /** Who made it, as the audit log names them ('admin:office', 'student:20230001'). */
  who: z.string(),
  /** The column changed, and its label from the field catalogue. */
  field: z.string(),
  label: z.string(),
  /** The values in words (a yes/no answer as Yes, No or Not answered); null when empty. */
  old_value: z.string().nullable(),
  new_value: z.string().nullable(),
});
export type StudentChange = z.infer<typeof StudentChangeSchema>;

/** A page of a student's changes, newest first; `next_before_id` asks for the older ones (null: no more). */
export const StudentChangesPageSchema = z.object({
  student_id: z.string(),
  changes: z.array(StudentChangeSchema),
  next_before_id: z.number().int().nullable(),
});
export type StudentChangesPage = z.infer<typeof StudentChangesPageSchema>;

/** A changed field's label: the catalogue's, or for a column the catalogue does not show, its name in words. */
export function changedFieldLabel(field: string): string {
  const known = findField(field)?.label;
  if (known) return known;
  const words = field.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A stored value of a changed field in words: yes/no answers with `yesNoText`, the rest as stored. */
export function changedValueText(field: string, stored: string | null): string | null {
  const control = findField(field)?.control;
  if (control === 'switch' || control === 'yesno') return yesNoText(stored);
  return stored === null || stored === '' ? null : stored;
}

/** The address of a page of a student's history. */
export function studentHistoryUrl(studentId: string, beforeId: number | null = null): string {
  return `/api/students/${encodeURIComponent(studentId)}/history${beforeId === null ? '' : `?before_id=${beforeId}`}`;
}

// ---- Add Student (POST /api/students, admin) -------------------------------------------------------

/** What a new student needs, whether added one at a time or by Import Students (student-import.ts). */
export const NEW_STUDENT_REQUIRED = ['first_name', 'last_name', 'date_of_birth', 'class_id'] as const;

/** The Add Student form's fields in screen order: the required ones, then the pin and the SEA number (one of the two). */
export const ADD_STUDENT_FIELDS = ['first_name', 'last_name', 'date_of_birth', 'class_id', 'birth_certificate_no', 'sea_no'] as const;
export type AddStudentField = (typeof ADD_STUDENT_FIELDS)[number];

export const NEW_STUDENT_MESSAGES = {
  required: 'Required for a new student.',
  /** The first sign-in asks for one of them with the date of birth (R3). */
  pinOrSea: 'A new student needs a Birth Certificate Pin or an SEA Number for the first sign-in.',
  idTaken: (id: string) => `Student ${id} already exists. Search for it in the list to change it.`,
} as const;

/**
 * The Add Student form's values (text as typed; an empty pin or SEA number may be left out).
 * The catalogue's rules and the new-student rules apply (`addStudentProblems`); the service
 * then checks the class against the school's classes and the pin, SEA number and ID against
 * every other student, as Import Students does.
 */
const ADD_STUDENT_KEYS: readonly string[] = ['id', ...ADD_STUDENT_FIELDS];
export const AddStudentSchema = z
  .looseObject({
    id: StudentIdSchema,
    first_name: z.string(),
    last_name: z.string(),
    date_of_birth: z.string().meta({ description: 'yyyy-MM-dd' }),
    class_id: z.string().meta({ description: 'A form class such as 1A' }),
    birth_certificate_no: z.string().optional(),
    sea_no: z.string().optional(),
  })
  .superRefine((input, ctx) => {
    // Any other key is named, not ignored: a field the form does not have would be lost silently.
    for (const key of Object.keys(input)) if (!ADD_STUDENT_KEYS.includes(key)) ctx.addIssue({ code: 'custom', path: [key], message: 'Unknown field.' });
    for (const [path, messages] of Object.entries(addStudentProblems(input))) {
      for (const message of messages) ctx.addIssue({ code: 'custom', path: [path], message });
    }
  });
export type AddStudentInput = Pick<z.infer<typeof AddStudentSchema>, 'id' | AddStudentField>;

/** Field → its problems under the catalogue's rules and the new-student rules (nothing when the values may be sent). */
export function addStudentProblems(
  input: Partial<Record<AddStudentField, string>>,
  options: { today?: string } = {},
): Partial<Record<AddStudentField, string[]>> {
  const problems: Partial<Record<AddStudentField, string[]>> = {};
  for (const name of ADD_STUDENT_FIELDS) {
    const value = input[name]?.trim() ?? '';
    if (value === '') {
      if ((NEW_STUDENT_REQUIRED as readonly string[]).includes(name)) problems[name] = [NEW_STUDENT_MESSAGES.required];
      continue;
    }
    const check = checkFieldValue(catalogueField(name), value, options);
    if (!check.ok) problems[name] = check.messages;
  }
  if (!input.birth_certificate_no?.trim() && !input.sea_no?.trim()) problems.birth_certificate_no = [NEW_STUDENT_MESSAGES.pinOrSea];
  return problems;
}

// ---- reports ---------------------------------------------------------------------------------

/** `all` or a form class id such as `3B` (checked against the classes by the service). */
export const ReportClassParamsSchema = z.object({
  classId: z
    .string()
    .trim()
    .regex(/^(all|[A-Za-z0-9-]{1,10})$/, 'Name a form class such as 3B, or all.'),
});
export type ReportClassParams = z.infer<typeof ReportClassParamsSchema>;

/** The registration report PDF of one class or all (R15: /api/registration-report/all). */
export function registrationReportUrl(classId: ReportClassParams['classId']): string {
  return `/api/registration-report/${encodeURIComponent(classId)}`;
}
/** The Parents Contact PDF of one class or all. */
export function parentsContactUrl(classId: ReportClassParams['classId']): string {
  return `/api/parents-contact/${encodeURIComponent(classId)}`;
}
/** The Parents Contact spreadsheet of one class or all. */
export function parentsContactSpreadsheetUrl(classId: ReportClassParams['classId']): string {
  return `/api/parents-contact-spreadsheet/${encodeURIComponent(classId)}`;
}
/** The printable registration form of a student (R8). */
export function registrationFormUrl(studentId: string): string {
  return `/api/registration-form/${encodeURIComponent(studentId)}`;
}

export const REGISTRATION_SPREADSHEET_URL = '/api/registration-data-spreadsheet';
export const IMPORT_TEMPLATE_URL = '/api/students/import-template';
export const IMPORT_TEMPLATE_FILE_NAME = 'Student Import Template.xlsx';

// ---- Import Students ---------------------------------------------------------------------------

/** `?dryRun=1` previews (the default), `?dryRun=0` imports. */
export const StudentImportQuerySchema = z.object({
  dryRun: z
    .enum(['0', '1'], { message: 'dryRun is 0 or 1.' })
    .default('1')
    .transform((value) => value === '1'),
});

export const IMPORT_ACTIONS = ['create', 'update', 'unchanged', 'error'] as const;
export type ImportAction = (typeof IMPORT_ACTIONS)[number];

/** One data row of the file and what the import does (or would do) with it. */
export const StudentImportRowSchema = z.object({
  /** The row number as the spreadsheet shows it (the header is row 1). */
  row: z.number().int(),
  id: z.string().nullable(),
  name: z.string(),
  action: z.enum(IMPORT_ACTIONS),
  /** Column (field name) → every problem with its value; `row` for problems of the whole row. */
  errors: z.record(z.string(), z.array(z.string())),
  /** The fields a create sets or an update changes. */
  changes: z.array(z.string()),
});
export type StudentImportRow = z.infer<typeof StudentImportRowSchema>;

const StudentImportSummarySchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  /** Rows with at least one problem. */
  errors: z.number().int(),
});
export type StudentImportSummary = z.infer<typeof StudentImportSummarySchema>;

export const StudentImportResultSchema = z.object({
  dryRun: z.boolean(),
  /** True only when the rows were written (a real import without problems). */
  committed: z.boolean(),
  fileName: z.string(),
  /** The recognised columns, as field names, in file order. */
  columns: z.array(z.string()),
  /** Headings that name no importable field; their cells are not read. */
  ignoredColumns: z.array(z.string()),
  rows: z.array(StudentImportRowSchema),
  summary: StudentImportSummarySchema,
});
export type StudentImportResult = z.infer<typeof StudentImportResultSchema>;

/** The largest number of data rows one import file may hold. */
export const IMPORT_MAX_ROWS = 5000;
