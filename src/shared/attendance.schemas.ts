import { z } from 'zod';
import { ClassIdSchema } from './form-class.js';
import { StudentIdSchema } from './auth.schemas.js';
import { isIsoDate } from './dates.js';

/**
 * Request and response schemas of attendance (docs/requirements.md R10; the
 * `/api/student-attendance/{userID}` answer and the attendance report), the gate scanners'
 * calls and the admin's attendance settings. The server's routes and the web's forms
 * and fetchers use these same definitions.
 */

// ---- field rules ------------------------------------------------------------------------------

/** 'yyyy-MM-dd', a real calendar date (R17). */
export const IsoDateSchema = z
  .string()
  .trim()
  .refine(isIsoDate, 'Enter a date as yyyy-MM-dd.');

const CLOCK_PATTERN = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;

/** A time of day, 'HH:mm' or 'HH:mm:ss' (24-hour clock), as scanners and spreadsheets send it. */
export const ClockTimeSchema = z
  .string()
  .trim()
  .regex(CLOCK_PATTERN, 'Enter a time as HH:mm or HH:mm:ss (24-hour clock).');

/** The bell time: 'HH:mm'; arriving after it is late. */
const BellTimeSchema = z
  .string()
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter the bell time as HH:mm (24-hour clock).');

/** 'HH:mm' or 'HH:mm:ss' → 'HH:mm:ss', the one form scans are stored in (so 08:00 = 08:00:00). */
export function toClockSeconds(time: string): string {
  const trimmed = time.trim();
  return trimmed.length === 5 ? `${trimmed}:00` : trimmed;
}

const TermNumberSchema = z.coerce
  .number()
  .int()
  .refine((term) => term === 1 || term === 2 || term === 3, 'Term is 1, 2 or 3.');

// ---- GET /api/student-attendance/{userID} -------------------------------------------------------

export const StudentAttendanceParamsSchema = z.object({ userID: StudentIdSchema });

/** Optional term: both year and term, or neither (then the current term). */
export const StudentAttendanceQuerySchema = z
  .object({
    year: z.coerce.number().int().min(2000, 'Year is from 2000.').max(2100, 'Year is until 2100.').optional(),
    term: TermNumberSchema.optional(),
  })
  .refine((query) => (query.year === undefined) === (query.term === undefined), {
    message: 'Give both year and term, or neither.',
    path: ['term'],
  });
export type StudentAttendanceQuery = z.infer<typeof StudentAttendanceQuerySchema>;

/** One day's record (R10): flags 0/1, times 'HH:mm', scan moments 'yyyy-MM-dd HH:mm:ss'. */
export const AttendanceRecordSchema = z.object({
  date_scanned: z.string(),
  attendance_am: z.number().int(),
  attendance_pm: z.number().int(),
  time_in: z.string().nullable(),
  time_out: z.string().nullable(),
  late: z.number().int(),
  time_scanned_in: z.string().nullable(),
  time_scanned_out: z.string().nullable(),
});
export type AttendanceRecord = z.infer<typeof AttendanceRecordSchema>;

export const AcademicTermSchema = z.object({
  year: z.number().int(),
  term: z.number().int(),
  start_date: z.string(),
  end_date: z.string(),
});
export type AcademicTerm = z.infer<typeof AcademicTermSchema>;

/**
 * The attendance answer (R10, R15): class_id, term, possible_attendance, attendance, lates and
 * attendance_records. possible_attendance and attendance count sessions (two per school day),
 * lates the days late (one arrival a day, D76); `term` is '1', '2' or '3' as in
 * the term report record, or null when the school has no term yet. The rest are additions the
 * screen needs (the student's name, the term's year and dates, the terms one can choose).
 */
/**
 * Absent sessions and late days split by what accepted absence notes excuse (docs/decisions.md
 * D93): the attendance answers keep their counts and add these.
 */
const ExcusedCountsSchema = z.object({
  /** Absent sessions an accepted note excuses; with `absent_unexcused`, every absent session. */
  absent_excused: z.number().int(),
  absent_unexcused: z.number().int(),
  /** Late days an accepted note excuses, of the late days. */
  lates_excused: z.number().int(),
});

export const StudentAttendanceSchema = z.object({
  /** The form class the student was in that term (its report's class), null when not recorded. */
  class_id: z.string().nullable(),
  /** That class's form level, for writing it as people do ('Form 4 4A'); null when not known. */
  form_level: z.number().int().nullable(),
  term: z.string().nullable(),
  possible_attendance: z.number().int(),
  attendance: z.number().int(),
  lates: z.number().int(),
  ...ExcusedCountsSchema.shape,
  /** The school days an accepted note excuses something on, oldest first: the morning's absence, the afternoon's, a late arrival. */
  excused_days: z.array(z.object({ date: z.string(), am: z.boolean(), pm: z.boolean(), late: z.boolean() })),
  attendance_records: z.array(AttendanceRecordSchema),
  student: z.object({ id: z.string(), first_name: z.string().nullable(), last_name: z.string().nullable() }),
  year: z.number().int().nullable(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  /** The last day counted: the term's end, or today while the term runs. */
  counted_until: z.string().nullable(),
  /**
   * Whether the school recorded anyone's attendance from the start to `counted_until`; when not,
   * the counts are 0 and nothing is absent ("No attendance was recorded for this term").
   */
  recorded: z.boolean(),
  /** Every school day from the start to `counted_until`, oldest first: a day without a record is a day absent. */
  school_days: z.array(z.string()),
  /** Terms that have started, newest first, for choosing another term. */
  terms: z.array(AcademicTermSchema),
});
export type StudentAttendance = z.infer<typeof StudentAttendanceSchema>;

// ---- GET /api/student-attendance-report/{studentId}/{startDate}/{endDate} ---------------------

/** The longest range one report covers: a school year and a little. */
const REPORT_MAX_DAYS = 400;

export const AttendanceReportParamsSchema = z.object({
  studentId: StudentIdSchema,
  startDate: IsoDateSchema,
  endDate: IsoDateSchema,
});
export type AttendanceReportParams = z.infer<typeof AttendanceReportParamsSchema>;

/**
 * The report dialog's rule, shared with the server: both dates given, neither after `today`,
 * the start not after the end. Answers field → message, empty when the range is good.
 */
export function checkReportRange(startDate: string | null, endDate: string | null, today: string): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!startDate) problems.startDate = 'Choose a start date.';
  else if (!isIsoDate(startDate)) problems.startDate = 'Enter a date as yyyy-MM-dd.';
  else if (startDate > today) problems.startDate = 'The start date cannot be in the future.';
  if (!endDate) problems.endDate = 'Choose an end date.';
  else if (!isIsoDate(endDate)) problems.endDate = 'Enter a date as yyyy-MM-dd.';
  else if (endDate > today) problems.endDate = 'The end date cannot be in the future.';
  if (!problems.startDate && !problems.endDate && startDate! > endDate!) {
    problems.endDate = 'The end date cannot be before the start date.';
  }
  if (!problems.startDate && !problems.endDate) {
    const days = (Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`)) / 86_400_000 + 1;
    if (days > REPORT_MAX_DAYS) problems.endDate = `A report covers at most ${REPORT_MAX_DAYS} days.`;
  }
  return problems;
}

/** The report's address, embedded in a frame (R15, the PDFs shown by address). */
export function attendanceReportPath(studentId: string, startDate: string, endDate: string): string {
  return `/api/student-attendance-report/${encodeURIComponent(studentId)}/${startDate}/${endDate}`;
}

// ---- GET /api/class-attendance (admin): a class over a date range ------------------------------


/**
 * The class attendance's query: the class, and the range, or neither date for the current term so
 * far. A range follows the student's report's rule (checkReportRange): both dates, neither in the
 * future, the start not after the end, at most a school year and a little. `today` is the
 * school's today, so the server and the screen judge alike.
 */
export function classAttendanceQuerySchema(today: () => string) {
  return z
    .object({ class_id: ClassIdSchema, from: z.string().trim().optional(), to: z.string().trim().optional() })
    .superRefine((query, ctx) => {
      if (!query.from && !query.to) return;
      const problems = checkReportRange(query.from || null, query.to || null, today());
      if (problems.startDate) ctx.addIssue({ code: 'custom', path: ['from'], message: problems.startDate });
      if (problems.endDate) ctx.addIssue({ code: 'custom', path: ['to'], message: problems.endDate });
    })
    .transform((query) => ({ class_id: query.class_id, ...(query.from && query.to ? { from: query.from, to: query.to } : {}) }));
}
export type ClassAttendanceQuery = z.infer<ReturnType<typeof classAttendanceQuerySchema>>;

/** One student's figures over the range as the student's own screen counts them: present and absent in sessions (two per school day), lates in days, punctuality of the days at school (D76). */
export const ClassAttendanceRowSchema = z.object({
  id: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  present: z.number().int(),
  absent: z.number().int(),
  lates: z.number().int(),
  ...ExcusedCountsSchema.shape,
  attendance_percent: z.number().int(),
  punctuality_percent: z.number().int(),
});
export type ClassAttendanceRow = z.infer<typeof ClassAttendanceRowSchema>;

export const ClassAttendanceSchema = z.object({
  class_id: z.string(),
  /** 'Form 4 4A', as the term report list writes a class (R9). */
  class_name: z.string(),
  form_teacher: z.string().nullable(),
  from: z.string(),
  to: z.string(),
  school_days: z.number().int(),
  /** Sessions each student could attend: two per school day (0 when nothing was recorded). */
  possible: z.number().int(),
  /** Whether the school recorded anyone's attendance in the range (D41): when not, every figure is 0. */
  recorded: z.boolean(),
  /** The class's students now, in list order (last name, first name). */
  students: z.array(ClassAttendanceRowSchema),
  /** The class's sessions together: present and absent summed, the percentage of the sum. */
  totals: z.object({ present: z.number().int(), absent: z.number().int(), lates: z.number().int(), ...ExcusedCountsSchema.shape, attendance_percent: z.number().int() }),
});
export type ClassAttendance = z.infer<typeof ClassAttendanceSchema>;

export type ClassAttendanceFile = 'pdf' | 'xlsx';

/** The screen's data (without dates: the current term so far), or the same as a PDF or XLSX download. */
export function classAttendanceUrl(query: { class_id: string; from?: string; to?: string }, file?: ClassAttendanceFile): string {
  const search = new URLSearchParams({ class_id: query.class_id, ...(query.from && query.to ? { from: query.from, to: query.to } : {}) });
  return `/api/class-attendance${file ? `/${file}` : ''}?${search.toString()}`;
}

// ---- gate scanners: POST /api/attendance/scans --------------------------------------------------

/** Most scans one call may carry; a whole school's morning fits in a few calls. */
const MAX_SCANS_PER_CALL = 2000;

/** One scan: the student (ID, or the card's serial, which is the student ID), date and time. */
export const ScanSchema = z
  .object({
    student_id: z.optional(StudentIdSchema),
    card_serial: z.optional(StudentIdSchema),
    date: IsoDateSchema,
    time: ClockTimeSchema,
  })
  .refine((scan) => Boolean(scan.student_id ?? scan.card_serial), {
    message: 'Give the student_id or the card_serial.',
    path: ['student_id'],
  });
export type ScanInput = z.infer<typeof ScanSchema>;

/** One scan, or a batch `{ scans: [...] }` in any order. */
export const ScanBatchSchema = z.union([
  ScanSchema,
  z.object({
    scans: z
      .array(ScanSchema)
      .min(1, 'Send at least one scan.')
      .max(MAX_SCANS_PER_CALL, `Send at most ${MAX_SCANS_PER_CALL} scans per call.`),
  }),
]);
export type ScanBatchInput = z.infer<typeof ScanBatchSchema>;

export const RejectedScanSchema = z.object({
  /** Position in the batch (0-based), or the spreadsheet row (1-based, header = 1) for imports. */
  index: z.number().int(),
  student_id: z.string(),
  reason: z.string(),
});
export type RejectedScan = z.infer<typeof RejectedScanSchema>;

/** What a scanner call or an import did: new scans stored, exact repeats ignored, days recomputed. */
export const ScanResultSchema = z.object({
  received: z.number().int(),
  stored: z.number().int(),
  duplicates: z.number().int(),
  records_updated: z.number().int(),
  rejected: z.array(RejectedScanSchema),
});
export type ScanResult = z.infer<typeof ScanResultSchema>;

// ---- scanner devices (admin) --------------------------------------------------------------------

export const CreateScannerDeviceSchema = z.object({
  name: z.string().trim().min(1, 'This field is required.').max(60, 'At most 60 characters.'),
});
export type CreateScannerDeviceInput = z.infer<typeof CreateScannerDeviceSchema>;

export const ScannerDeviceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  last_seen_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ScannerDevice = z.infer<typeof ScannerDeviceSchema>;

/** The new device with its key, shown this once; only the key's sha256 is kept. */
export const CreatedScannerDeviceSchema = ScannerDeviceSchema.extend({ key: z.string() });
export type CreatedScannerDevice = z.infer<typeof CreatedScannerDeviceSchema>;

export const ScannerDeviceParamsSchema = z.object({ id: z.coerce.number().int().positive('Unknown device.') });

// ---- import of scans (admin) ---------------------------------------------------------------------

export const ImportQuerySchema = z.object({
  dryRun: z.enum(['1', '0', 'true', 'false']).default('1').transform((value) => value === '1' || value === 'true'),
});

export const ImportRowErrorSchema = z.object({ row: z.number().int(), field: z.string(), message: z.string() });
export type ImportRowError = z.infer<typeof ImportRowErrorSchema>;

/** A dry run's preview or an import's outcome; nothing is stored when any row has an error. */
export const ImportResultSchema = z.object({
  dry_run: z.boolean(),
  rows: z.number().int(),
  valid: z.number().int(),
  errors: z.array(ImportRowErrorSchema),
  students: z.number().int(),
  first_date: z.string().nullable(),
  last_date: z.string().nullable(),
  result: ScanResultSchema.nullable(),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;

/** Columns an import file may name (header row, any case); the first of each group found is used. */
export const IMPORT_COLUMNS = {
  student: ['student_id', 'card_serial', 'student id', 'card serial', 'id'],
  date: ['date', 'scanned_date', 'date_scanned'],
  time: ['time', 'scanned_time', 'time_scanned'],
} as const;

// ---- settings: bell time and school holidays (admin) -----------------------------------------------

export const AttendanceSettingsSchema = z.object({ bell_time: BellTimeSchema });
export type AttendanceSettings = z.infer<typeof AttendanceSettingsSchema>;

export const SchoolHolidaySchema = z.object({ id: z.number().int(), date: z.string(), name: z.string() });
export type SchoolHoliday = z.infer<typeof SchoolHolidaySchema>;

export const CreateSchoolHolidaySchema = z.object({
  date: IsoDateSchema,
  name: z.string().trim().min(1, 'This field is required.').max(100, 'At most 100 characters.'),
});
export type CreateSchoolHolidayInput = z.infer<typeof CreateSchoolHolidaySchema>;

export const SchoolHolidayParamsSchema = z.object({ id: z.coerce.number().int().positive('Unknown holiday.') });
