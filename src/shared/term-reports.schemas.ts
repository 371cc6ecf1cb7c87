import { z } from 'zod';
import { ClassIdSchema } from './form-class.js';
import { StudentIdSchema } from './auth.schemas.js';
import { TERM_NAMES, academicYearLabel, type TermNumber } from './school.constants.js';

/**
 * Term reports (docs/requirements.md R9): the report card list, posting and removing,
 * scheduling, and the import of the marks behind the cards. Field rules live here once, for the routes and the screens.
 */

// ---- years and terms ---------------------------------------------------------------------------

/** Academic years the portal accepts (a year is named by the year it starts: 2025 = 2025-2026). */
const ACADEMIC_YEAR_MIN = 2000;
const ACADEMIC_YEAR_MAX = 2100;

const AcademicYearSchema = z.coerce
  .number({ message: 'Academic year must be a year such as 2025.' })
  .int('Academic year must be a year such as 2025.')
  .min(ACADEMIC_YEAR_MIN, `Academic year must be from ${ACADEMIC_YEAR_MIN} to ${ACADEMIC_YEAR_MAX}.`)
  .max(ACADEMIC_YEAR_MAX, `Academic year must be from ${ACADEMIC_YEAR_MIN} to ${ACADEMIC_YEAR_MAX}.`);

/** 1 Michaelmas, 2 Hilary, 3 Trinity (R17); accepted as a number or '1'–'3'. */
const TermSchema = z.coerce
  .number({ message: 'Term must be 1, 2 or 3.' })
  .int('Term must be 1, 2 or 3.')
  .min(1, 'Term must be 1, 2 or 3.')
  .max(3, 'Term must be 1, 2 or 3.')
  .transform((term) => term as TermNumber);

/** The calls answer the term as text (R15): '1', '2' or '3'. */
export const TermTextSchema = z.enum(['1', '2', '3']);
export type TermText = z.infer<typeof TermTextSchema>;

/** 'Term 1 Michaelmas 2025-2026', the subtitle of a report in the list (R9). */
export function termTitle(year: number, term: number): string {
  return `Term ${term} ${TERM_NAMES[term as TermNumber] ?? ''} ${academicYearLabel(year)}`.replace(/\s+/g, ' ');
}

// ---- the student's list: GET /api/report-card-terms/{userID} ---------------------------------

/** A term report record, as the student's list answers it (R9). */
export const ReportCardTermSchema = z.object({
  year: z.number().int(),
  term: TermTextSchema,
  posted: z.number().int(),
  /** 'yyyy-MM-dd HH:mm:ss' in the school's time zone, when the server posted the term (D84), or null. */
  date_posted: z.string().nullable(),
  form_level: z.number().int().nullable(),
  class_id: z.string().nullable(),
});
export type ReportCardTerm = z.infer<typeof ReportCardTermSchema>;
export const ReportCardTermListSchema = z.array(ReportCardTermSchema);

export const ReportCardTermsParamsSchema = z.object({
  userID: StudentIdSchema,
});

/** GET /api/report-card/{studentId}/{year}/{term} (its query: PdfQuerySchema, `download=1` saves it). */
export const ReportCardParamsSchema = z.object({
  studentId: StudentIdSchema,
  year: AcademicYearSchema,
  term: TermSchema,
});
/** Where the report card PDF of a student's term is (R15, the PDFs shown by address). */
export function reportCardUrl(studentId: string, year: number, term: number | string): string {
  return `/api/report-card/${encodeURIComponent(studentId)}/${year}/${term}`;
}

// ---- a class's cards at once: GET /api/report-cards/class/… and /form/… (D59) ------

/** A form level as a path names it: 1 to 6 (Form 6 where the school has one). */
const FormLevelSchema = z.coerce
  .number({ message: 'Form level must be a number from 1 to 6.' })
  .int('Form level must be a number from 1 to 6.')
  .min(1, 'Form level must be a number from 1 to 6.')
  .max(6, 'Form level must be a number from 1 to 6.');

export const ClassReportCardsParamsSchema = z.object({
  classId: ClassIdSchema,
  year: AcademicYearSchema,
  term: TermSchema,
});
export const FormReportCardsParamsSchema = z.object({
  formLevel: FormLevelSchema,
  year: AcademicYearSchema,
  term: TermSchema,
});

/** Report cards joined into one PDF per class, a few cards per rendering (D59: the measured part size). */
export const REPORT_CARDS_PER_PART = 8;

/** Where a class's report cards are built (one PDF, streamed with its progress). */
export function classReportCardsUrl(classId: string, year: number, term: number | string): string {
  return `/api/report-cards/class/${encodeURIComponent(classId)}/${year}/${term}`;
}
/** Where a form level's report cards are built (a zip of class PDFs, streamed with its progress). */
export function formReportCardsUrl(formLevel: number, year: number, term: number | string): string {
  return `/api/report-cards/form/${formLevel}/${year}/${term}`;
}

/** The file a class's cards are saved as: 'Report Cards 4A 2025-2026 Term 1.pdf'. */
export function classReportCardsFileName(classId: string, year: number, term: number): string {
  return `Report Cards ${classId} ${academicYearLabel(year)} Term ${term}.pdf`;
}
/** The zip a form level's cards are saved as: 'Report Cards Form 4 2025-2026 Term 1.zip'. */
export function formReportCardsFileName(formLevel: number, year: number, term: number): string {
  return `Report Cards Form ${formLevel} ${academicYearLabel(year)} Term ${term}.zip`;
}

/**
 * The build's answer is a stream of JSON lines (application/x-ndjson, D59), so the screen can show
 * how far the server has come before the file exists: `start` (how many cards), `progress` after
 * each part is rendered, the file itself as `data` lines (base64), then `end` with its size; a
 * failure after the start is an `error` line (the status is already 200 by then).
 */
export const ReportCardBuildEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('start'),
    total: z.number().int(),
    classes: z.number().int(),
    file_name: z.string(),
    content_type: z.string(),
  }),
  z.object({ type: z.literal('progress'), done: z.number().int(), total: z.number().int(), class_id: z.string() }),
  z.object({ type: z.literal('data'), base64: z.string() }),
  z.object({ type: z.literal('end'), bytes: z.number().int() }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type ReportCardBuildEvent = z.infer<typeof ReportCardBuildEventSchema>;

// ---- posting: GET /api/term-reports-posted, POST /api/post-term-reports ------------------------

/** A row of the admin's Post Term Reports table (R9), with the scheduling addition. */
export const PostedTermReportSchema = z.object({
  year: z.number().int(),
  term: TermTextSchema,
  posted: z.number().int(),
  date_posted: z.string().nullable(),
  /** ISO-8601 UTC time the term will be posted automatically, or null. */
  scheduled_at: z.string().nullable(),
  /** Students with results for the term. */
  students: z.number().int(),
});
export type PostedTermReport = z.infer<typeof PostedTermReportSchema>;
export const PostedTermReportListSchema = z.array(PostedTermReportSchema);

/**
 * Posting or removing a term's reports. The server records when reports are posted (its own clock,
 * in the school's time zone; docs/decisions.md D84): a `date_posted` sent with the call is refused
 * rather than silently replaced, so a client that believes its date is kept learns otherwise.
 * Null or absent is accepted, as the removal call has always sent it.
 */
export const PostTermReportsSchema = z.object({
  year: AcademicYearSchema,
  term: TermSchema,
  posted: z.coerce
    .number({ message: 'Posted must be 0 or 1.' })
    .int('Posted must be 0 or 1.')
    .refine((value) => value === 0 || value === 1, 'Posted must be 0 or 1.'),
  date_posted: z
    .unknown()
    .refine((value) => value === null || value === undefined, 'The portal records when reports are posted: leave Date posted out.')
    .optional(),
});
export type PostTermReportsInput = z.input<typeof PostTermReportsSchema>;
export type PostTermReportsData = z.output<typeof PostTermReportsSchema>;

/** Scheduling (an addition to R9 posting): post the term automatically at `scheduled_at`; null cancels. */
export const ScheduleTermReportsSchema = z.object({
  year: AcademicYearSchema,
  term: TermSchema,
  scheduled_at: z.iso
    .datetime({
      offset: true,
      message: 'Scheduled time must be a date and time such as 2026-12-18T08:00:00-04:00.',
    })
    .nullable(),
});
export type ScheduleTermReportsInput = z.input<typeof ScheduleTermReportsSchema>;

/** 'Report posted 2025-12-19' or 'Report not posted' (R9; the date as yyyy-MM-dd). */
export function postedText(record: { posted: number; date_posted: string | null }): string {
  if (record.posted !== 1) return 'Report not posted';
  return `Report posted ${record.date_posted?.slice(0, 10) ?? ''}`.trim();
}

// ---- import of term results --------------------------------------------------------------------

/** A file larger than this is refused with 413, before it is parsed. */
export const TERM_RESULTS_MAX_BYTES = 5 * 1024 * 1024;
/** Data rows a file may hold (a large school is ~2,000 students × 10 subjects). */
export const TERM_RESULTS_MAX_ROWS = 20_000;
export const SUBJECT_COMMENT_MAX_LENGTH = 200;
export const REMARKS_MAX_LENGTH = 500;

/** The columns of the import file, in template order; headers are matched ignoring case and spaces. */
export const TERM_RESULT_COLUMNS = [
  {
    key: 'student_id',
    header: 'Student ID',
    required: true,
    note: 'The student ID, e.g. 20220001',
  },
  {
    key: 'subject',
    header: 'Subject',
    required: true,
    note: 'Subject code (MATH) or name (Mathematics)',
  },
  {
    key: 'class_id',
    header: 'Class',
    required: false,
    note: 'Form class for that term, e.g. 4A; blank = the student’s class',
  },
  {
    key: 'coursework',
    header: 'Coursework',
    required: true,
    note: 'Mark from 0 to 100',
  },
  { key: 'exam', header: 'Exam', required: true, note: 'Mark from 0 to 100' },
  {
    key: 'comment',
    header: 'Comment',
    required: false,
    note: `The subject teacher’s comment, at most ${SUBJECT_COMMENT_MAX_LENGTH} characters`,
  },
  {
    key: 'form_teacher_remarks',
    header: 'Form Teacher Remarks',
    required: false,
    note: `Once per student (any of their rows), at most ${REMARKS_MAX_LENGTH} characters`,
  },
  {
    key: 'principal_remarks',
    header: 'Principal Remarks',
    required: false,
    note: `Once per student (any of their rows), at most ${REMARKS_MAX_LENGTH} characters`,
  },
] as const;
export type TermResultColumnKey = (typeof TERM_RESULT_COLUMNS)[number]['key'];

/**
 * The results template: blank, or a class's mark sheet for one subject (`class_id` with
 * `subject`: every student of the class on a row of their own, ID and name filled in).
 */
export const TemplateQuerySchema = z
  .object({
    format: z.enum(['xlsx', 'csv'], { message: 'Format must be xlsx or csv.' }).default('xlsx'),
    class_id: ClassIdSchema.optional(),
    subject: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9-]{1,20}$/, 'Name a subject by its code, such as MATH.')
      .optional(),
  })
  .superRefine((query, ctx) => {
    if ((query.class_id === undefined) !== (query.subject === undefined)) {
      const missing = query.class_id === undefined ? 'class_id' : 'subject';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'A mark sheet needs both a class and a subject.' });
    }
  });
export type TemplateQueryInput = z.input<typeof TemplateQuerySchema>;

/** The address of the results template, blank or as one class's mark sheet for one subject. */
export function termResultsTemplateUrl(query: TemplateQueryInput = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
  return `/api/term-results/template?${params.toString()}`;
}

/** A subject as the results screens offer it. */
export const SubjectSchema = z.object({ code: z.string(), name: z.string() });
export const SubjectListSchema = z.array(SubjectSchema);
export type Subject = z.infer<typeof SubjectSchema>;

export const ImportQuerySchema = z.object({
  year: AcademicYearSchema,
  term: TermSchema,
  /** 1 (default) checks the file and changes nothing; 0 commits it when every row is valid. */
  dryRun: z
    .enum(['0', '1', 'true', 'false'], { message: 'dryRun must be 1 or 0.' })
    .default('1')
    .transform((value) => value === '1' || value === 'true'),
});
export type ImportQueryInput = z.input<typeof ImportQuerySchema>;

/** One data row of the file as checked: what was read, what it computes to, and every error. */
export const ImportRowSchema = z.object({
  /** The row number in the spreadsheet (the header is row 1). */
  row: z.number().int(),
  student_id: z.string(),
  student_name: z.string().nullable(),
  subject: z.string(),
  class_id: z.string().nullable(),
  coursework: z.number().nullable(),
  exam: z.number().nullable(),
  total: z.number().nullable(),
  grade: z.string().nullable(),
  comment: z.string().nullable(),
  errors: z.array(z.string()),
});
export type ImportRow = z.infer<typeof ImportRowSchema>;

export const ImportReportSchema = z.object({
  year: z.number().int(),
  term: TermTextSchema,
  dry_run: z.boolean(),
  /** True only when the rows were written (all of them, in one transaction). */
  committed: z.boolean(),
  rows: z.array(ImportRowSchema),
  /** Rows with at least one error. */
  error_count: z.number().int(),
  /** Problems with the file as a whole (missing columns…); rows are not checked when present. */
  file_errors: z.array(z.string()),
  summary: z.object({
    rows: z.number().int(),
    students: z.number().int(),
    subjects: z.number().int(),
    classes: z.number().int(),
  }),
});
export type ImportReport = z.infer<typeof ImportReportSchema>;

// ---- grading settings --------------------------------------------------------------------------

const GradeBandSchema = z.object({
  grade: z.string().trim().min(1, 'Every grade needs a name.').max(5, 'A grade is at most 5 characters.'),
  min_total: z.number().min(0, 'The lowest total must be from 0 to 100.').max(100, 'The lowest total must be from 0 to 100.'),
  description: z.string().trim().max(50, 'At most 50 characters.').nullable(),
});
const FormWeightsSchema = z.object({
  form_level: z.number().int(),
  coursework_weight: z.number(),
  exam_weight: z.number(),
});
export const GradingSettingsSchema = z.object({
  grade_key: z.array(GradeBandSchema),
  weights: z.array(FormWeightsSchema),
});
export type GradingSettings = z.infer<typeof GradingSettingsSchema>;
