import { REGISTRATION_FIELDS, type FieldValue, type RegistrationField } from './registration.fields.js';
import type { ProgressFlags } from './registration.progress.js';

/**
 * The two answers a registration step shows its first screen from — the student's record
 * (`GET /api/student-record/{id}`) and the window's status (`GET /api/registration-status`) —
 * with checks that need no zod. The browser parses these answers with them, so the step's first
 * screen loads no schema library (26 kB gzip; docs/performance.md, web); the server's routes
 * declare the zod schemas of registration.schemas.ts, which read the same column rule
 * (`isNumberColumn`), and a test holds each check to its schema.
 */

/** A record column holds a whole number (the switches, 0/1) rather than text or null. */
export function isNumberColumn(field: RegistrationField): boolean {
  return field.control === 'switch';
}

/** The progress flags of a record, in the order the answer lists them. */
export const PROGRESS_FLAG_NAMES = [
  'studentData',
  'familyData',
  'healthData',
  'otherData',
  'documents',
  'submit',
  'termsAndConditions',
] as const satisfies readonly (keyof ProgressFlags)[];

/** One registration record as `GET /api/student-record/{id}` answers it (in a list). */
export interface StudentRecord {
  id: string;
  house_code: string | null;
  class_id: string | null;
  agree_terms_date: string | null;
  updated_at: string;
  progress: ProgressFlags;
  [field: string]: FieldValue | ProgressFlags;
}

/**
 * The window for the signed-in student's form level. `editable` is the server's verdict:
 * open = 1 and the deadline (inclusive, Trinidad time) not passed; `reason` says why not.
 */
export interface RegistrationStatus {
  open: 0 | 1;
  deadline: string | null;
  editable: boolean;
  reason?: string;
  form_level: number | null;
}

/** A record's field values by column name (for the screens and the progress rules). */
export function recordValues(record: StudentRecord): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const field of REGISTRATION_FIELDS) out[field.name] = (record[field.name] as FieldValue | undefined) ?? null;
  return out;
}

/** What a check answers: zod's `safeParse` shape, so the web client's `apiRequest` takes either. */
export type Checked<T> = { success: true; data: T } | { success: false };

const FAILED = { success: false } as const;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);
const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';
const isBit = (value: unknown): value is 0 | 1 => value === 0 || value === 1;

/** A record checked column by column; like zod's object, the answer keeps only the known keys. */
function checkRecord(value: unknown): StudentRecord | undefined {
  if (!isObject(value)) return undefined;
  const { id, agree_terms_date, updated_at, progress } = value;
  if (typeof id !== 'string' || !isTextOrNull(agree_terms_date) || typeof updated_at !== 'string' || !isObject(progress))
    return undefined;
  const flags: Record<string, 0 | 1> = {};
  for (const name of PROGRESS_FLAG_NAMES) {
    const flag = progress[name];
    if (!isBit(flag)) return undefined;
    flags[name] = flag;
  }
  const record: Record<string, unknown> = {
    id,
    agree_terms_date,
    updated_at,
    progress: flags,
  };
  for (const field of REGISTRATION_FIELDS) {
    const column = value[field.name];
    if (isNumberColumn(field) ? !isInteger(column) : !isTextOrNull(column)) return undefined;
    record[field.name] = column;
  }
  return record as StudentRecord;
}

/** The record answer (a list of records), checked as `StudentRecordListSchema` checks it. */
export const StudentRecordListParser = {
  safeParse(value: unknown): Checked<StudentRecord[]> {
    if (!Array.isArray(value)) return FAILED;
    const records: StudentRecord[] = [];
    for (const item of value) {
      const record = checkRecord(item);
      if (!record) return FAILED;
      records.push(record);
    }
    return { success: true, data: records };
  },
};

/** The window's status answer, checked as `RegistrationStatusSchema` checks it. */
export const RegistrationStatusParser = {
  safeParse(value: unknown): Checked<RegistrationStatus> {
    if (!isObject(value)) return FAILED;
    const { open, deadline, editable, reason, form_level } = value;
    if (!isBit(open) || !isTextOrNull(deadline) || typeof editable !== 'boolean') return FAILED;
    if (reason !== undefined && typeof reason !== 'string') return FAILED;
    if (form_level !== null && !isInteger(form_level)) return FAILED;
    // The schema's key order; an absent reason stays absent.
    const data =
      reason === undefined ? { open, deadline, editable, form_level } : { open, deadline, editable, reason, form_level };
    return { success: true, data };
  },
};
