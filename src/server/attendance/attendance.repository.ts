import { PostgresAdapter, type Insertable } from 'kysely';
import type { AcademicTerm, AttendanceRecord, SchoolHoliday, ScannerDevice } from '../../shared/attendance.schemas.js';
import type { ExcusingNote } from '../../shared/attendance.stats.js';
import { nowIso, type Db } from '../db/database.js';
import type { AttendanceRecordTable } from '../db/schema.js';
import { onRoll } from '../db/student-scope.js';

/** All attendance SQL (docs/architecture.md "Adding a server feature"): functions take a `Db` or a transaction first. */

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK_ROWS = 500;

function chunks<T>(items: readonly T[], size = CHUNK_ROWS): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// ---- students and terms -----------------------------------------------------------------------

export interface AttendanceStudent {
  id: string;
  first_name: string | null;
  last_name: string | null;
  class_id: string | null;
}

/** The student's name and form class, or undefined. */
export async function findStudent(db: Db, studentId: string): Promise<AttendanceStudent | undefined> {
  return db
    .selectFrom('students')
    .select(['id', 'first_name', 'last_name', 'class_id'])
    .where('id', '=', studentId)
    .executeTakeFirst();
}

/** A form class's level (4 for '4A'), or null for a class the school does not list. */
export async function findFormLevel(db: Db, classId: string): Promise<number | null> {
  const row = await db.selectFrom('form_classes').select('form_level').where('id', '=', classId).executeTakeFirst();
  return row?.form_level ?? null;
}

/** Which of these IDs are students of the school. */
export async function findExistingStudentIds(db: Db, studentIds: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunks([...new Set(studentIds)], 1000)) {
    const rows = await db.selectFrom('students').select('id').where('id', 'in', part).execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/** Terms that have started by `today`, newest first. */
export async function listStartedTerms(db: Db, today: string): Promise<AcademicTerm[]> {
  return db
    .selectFrom('academic_terms')
    .select(['year', 'term', 'start_date', 'end_date'])
    .where('start_date', '<=', today)
    .orderBy('start_date', 'desc')
    .execute();
}

export async function findTerm(db: Db, year: number, term: number): Promise<AcademicTerm | undefined> {
  return db
    .selectFrom('academic_terms')
    .select(['year', 'term', 'start_date', 'end_date'])
    .where('year', '=', year)
    .where('term', '=', term)
    .executeTakeFirst();
}

/** Terms that overlap the range, oldest first (for a report's heading). */
export async function listTermsOverlapping(db: Db, from: string, to: string): Promise<AcademicTerm[]> {
  return db
    .selectFrom('academic_terms')
    .select(['year', 'term', 'start_date', 'end_date'])
    .where('start_date', '<=', to)
    .where('end_date', '>=', from)
    .orderBy('start_date', 'asc')
    .execute();
}

// ---- holidays and settings ----------------------------------------------------------------------

/** Dates of school holidays from `from` to `to` inclusive. */
export async function listHolidayDates(db: Db, from: string, to: string): Promise<string[]> {
  const rows = await db.selectFrom('school_holidays').select('date').where('date', '>=', from).where('date', '<=', to).execute();
  return rows.map((row) => row.date);
}

export async function listHolidays(db: Db): Promise<SchoolHoliday[]> {
  return db.selectFrom('school_holidays').select(['id', 'date', 'name']).orderBy('date', 'asc').execute();
}

export async function findHolidayByDate(db: Db, date: string): Promise<SchoolHoliday | undefined> {
  return db.selectFrom('school_holidays').select(['id', 'date', 'name']).where('date', '=', date).executeTakeFirst();
}

export async function findHoliday(db: Db, id: number): Promise<SchoolHoliday | undefined> {
  return db.selectFrom('school_holidays').select(['id', 'date', 'name']).where('id', '=', id).executeTakeFirst();
}

export async function insertHoliday(db: Db, date: string, name: string): Promise<SchoolHoliday> {
  const iso = nowIso();
  return db
    .insertInto('school_holidays')
    .values({ date, name, created_at: iso, updated_at: iso })
    .returning(['id', 'date', 'name'])
    .executeTakeFirstOrThrow();
}

export async function deleteHoliday(db: Db, id: number): Promise<void> {
  await db.deleteFrom('school_holidays').where('id', '=', id).execute();
}

export async function getSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

export async function putSetting(db: Db, key: string, value: string): Promise<void> {
  const iso = nowIso();
  await db
    .insertInto('settings')
    .values({ key, value, created_at: iso, updated_at: iso })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: iso }))
    .execute();
}

// ---- attendance records ---------------------------------------------------------------------------

const RECORD_COLUMNS = [
  'date_scanned',
  'attendance_am',
  'attendance_pm',
  'time_in',
  'time_out',
  'late',
  'time_scanned_in',
  'time_scanned_out',
] as const;

/** The student's day records from `from` to `to` inclusive, oldest first. */
export async function listRecords(db: Db, studentId: string, from: string, to: string): Promise<AttendanceRecord[]> {
  return db
    .selectFrom('attendance_records')
    .select(RECORD_COLUMNS)
    .where('student_id', '=', studentId)
    .where('date_scanned', '>=', from)
    .where('date_scanned', '<=', to)
    .orderBy('date_scanned', 'asc')
    .execute();
}

/** The records of one day of the students named (a family's children), one read whatever their number. */
export async function listRecordsOfStudentsOn(db: Db, studentIds: readonly string[], date: string): Promise<(AttendanceRecord & { student_id: string })[]> {
  if (studentIds.length === 0) return [];
  return db
    .selectFrom('attendance_records')
    .select(['student_id', ...RECORD_COLUMNS])
    .where('student_id', 'in', [...studentIds])
    .where('date_scanned', '=', date)
    .execute();
}

/** The day records from `from` to `to` inclusive of the students now in a form class, by student then date. */
export async function listClassRecords(db: Db, classId: string, from: string, to: string): Promise<(AttendanceRecord & { student_id: string })[]> {
  return db
    .selectFrom('attendance_records')
    .innerJoin('students', 'students.id', 'attendance_records.student_id')
    .select(['attendance_records.student_id', ...RECORD_COLUMNS.map((column) => `attendance_records.${column}` as const)])
    .where('students.class_id', '=', classId)
    .where(onRoll)
    .where('attendance_records.date_scanned', '>=', from)
    .where('attendance_records.date_scanned', '<=', to)
    .orderBy('attendance_records.student_id')
    .orderBy('attendance_records.date_scanned')
    .execute();
}

/** Whether the school recorded attendance for anyone from `from` to `to` inclusive (the date index answers it). */
export async function hasSchoolRecords(db: Db, from: string, to: string): Promise<boolean> {
  const row = await db
    .selectFrom('attendance_records')
    .select('id')
    .where('date_scanned', '>=', from)
    .where('date_scanned', '<=', to)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The dates from `from` to `to` on which the school recorded anyone's attendance (the date index answers it). */
export async function listRecordedDates(db: Db, from: string, to: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('attendance_records')
    .select('date_scanned')
    .where('date_scanned', '>=', from)
    .where('date_scanned', '<=', to)
    .groupBy('date_scanned')
    .execute();
  return new Set(rows.map((row) => row.date_scanned));
}

// ---- what excuses an absence (docs/decisions.md D93) -------------------------------------------

const EXCUSING_COLUMNS = ['absence_notes.student_id', 'absence_notes.date_from', 'absence_notes.date_to', 'absence_notes.part'] as const;

/**
 * The student's accepted absence notes that cover any day from `from` to `to`: excused is derived
 * from them, never stored on the records (D93). The `(student_id, date_from)` index finds them.
 */
export async function listExcusingNotes(db: Db, studentId: string, from: string, to: string): Promise<(ExcusingNote & { student_id: string })[]> {
  return db
    .selectFrom('absence_notes')
    .select(EXCUSING_COLUMNS)
    .where('absence_notes.student_id', '=', studentId)
    .where('absence_notes.state', '=', 'accepted')
    .where('absence_notes.date_from', '<=', to)
    .where('absence_notes.date_to', '>=', from)
    .execute();
}

/** The accepted absence notes of the students now in a form class that cover any day from `from` to `to`. */
export async function listClassExcusingNotes(db: Db, classId: string, from: string, to: string): Promise<(ExcusingNote & { student_id: string })[]> {
  return db
    .selectFrom('absence_notes')
    .innerJoin('students', 'students.id', 'absence_notes.student_id')
    .select(EXCUSING_COLUMNS)
    .where('students.class_id', '=', classId)
    .where(onRoll)
    .where('absence_notes.state', '=', 'accepted')
    .where('absence_notes.date_from', '<=', to)
    .where('absence_notes.date_to', '>=', from)
    .execute();
}

/** A student's day: the key of a record and of the scans that make it. */
export interface StudentDay {
  studentId: string;
  date: string;
}

/**
 * On PostgreSQL, locks the records of these days (creating empty ones first) so two scanner
 * calls for the same student and day recompute one after the other: the second then reads the
 * first's scans. SQLite runs one writer at a time, so there it does nothing. Days are locked in
 * one order, so two calls cannot wait on each other.
 */
export async function lockStudentDays(db: Db, days: readonly StudentDay[]): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter) || days.length === 0) return;
  const sorted = [...days].sort((a, b) => a.studentId.localeCompare(b.studentId) || a.date.localeCompare(b.date));
  const iso = nowIso();
  for (const part of chunks(sorted)) {
    await db
      .insertInto('attendance_records')
      .values(
        part.map((day) => ({ student_id: day.studentId, date_scanned: day.date, attendance_am: 0, attendance_pm: 0, late: 0, created_at: iso, updated_at: iso })),
      )
      .onConflict((oc) => oc.columns(['student_id', 'date_scanned']).doNothing())
      .execute();
    await db
      .selectFrom('attendance_records')
      .select('id')
      .where((eb) =>
        eb(
          eb.refTuple('student_id', 'date_scanned'),
          'in',
          part.map((day) => eb.tuple(day.studentId, day.date)),
        ),
      )
      .orderBy('student_id')
      .orderBy('date_scanned')
      .forUpdate()
      .execute();
  }
}

/** The stored records of these days (to keep times recorded before the scans). */
export async function listRecordsForDays(db: Db, days: readonly StudentDay[]): Promise<(AttendanceRecord & { student_id: string })[]> {
  const out: (AttendanceRecord & { student_id: string })[] = [];
  for (const part of chunks(days)) {
    const rows = await db
      .selectFrom('attendance_records')
      .select(['student_id', ...RECORD_COLUMNS])
      .where((eb) =>
        eb(
          eb.refTuple('student_id', 'date_scanned'),
          'in',
          part.map((day) => eb.tuple(day.studentId, day.date)),
        ),
      )
      .execute();
    out.push(...rows);
  }
  return out;
}

export type RecordValues = Omit<Insertable<AttendanceRecordTable>, 'created_at' | 'updated_at'>;

/** Writes whole day records: inserts new days, replaces the values of existing ones. */
export async function upsertRecords(db: Db, records: readonly RecordValues[]): Promise<void> {
  const iso = nowIso();
  for (const part of chunks(records)) {
    await db
      .insertInto('attendance_records')
      .values(part.map((record) => ({ ...record, created_at: iso, updated_at: iso })))
      .onConflict((oc) =>
        oc.columns(['student_id', 'date_scanned']).doUpdateSet((eb) => ({
          attendance_am: eb.ref('excluded.attendance_am'),
          attendance_pm: eb.ref('excluded.attendance_pm'),
          time_in: eb.ref('excluded.time_in'),
          time_out: eb.ref('excluded.time_out'),
          late: eb.ref('excluded.late'),
          time_scanned_in: eb.ref('excluded.time_scanned_in'),
          time_scanned_out: eb.ref('excluded.time_scanned_out'),
          updated_at: iso,
        })),
      )
      .execute();
  }
}

// ---- raw scans -------------------------------------------------------------------------------------

export interface ScanRow {
  studentId: string;
  date: string;
  /** 'HH:mm:ss' */
  time: string;
}

/**
 * Stores scans, ignoring exact repeats (the unique student/date/time key); answers the scans
 * that were new. Both engines answer RETURNING only for rows actually inserted.
 */
export async function insertScans(db: Db, scans: readonly ScanRow[], source: string): Promise<ScanRow[]> {
  const iso = nowIso();
  const inserted: ScanRow[] = [];
  for (const part of chunks(scans)) {
    const rows = await db
      .insertInto('attendance_scans')
      .values(
        part.map((scan) => ({
          student_id: scan.studentId,
          scanned_date: scan.date,
          scanned_time: scan.time,
          source,
          created_at: iso,
          updated_at: iso,
        })),
      )
      .onConflict((oc) => oc.columns(['student_id', 'scanned_date', 'scanned_time']).doNothing())
      .returning(['student_id', 'scanned_date', 'scanned_time'])
      .execute();
    for (const row of rows) inserted.push({ studentId: row.student_id, date: row.scanned_date, time: row.scanned_time });
  }
  return inserted;
}

/** Every stored scan of these days. */
export async function listScansForDays(db: Db, days: readonly StudentDay[]): Promise<ScanRow[]> {
  const out: ScanRow[] = [];
  for (const part of chunks(days)) {
    const rows = await db
      .selectFrom('attendance_scans')
      .select(['student_id', 'scanned_date', 'scanned_time'])
      .where((eb) =>
        eb(
          eb.refTuple('student_id', 'scanned_date'),
          'in',
          part.map((day) => eb.tuple(day.studentId, day.date)),
        ),
      )
      .execute();
    for (const row of rows) out.push({ studentId: row.student_id, date: row.scanned_date, time: row.scanned_time });
  }
  return out;
}

// ---- scanner devices -------------------------------------------------------------------------------

const DEVICE_COLUMNS = ['id', 'name', 'created_at', 'last_seen_at', 'revoked_at'] as const;

export async function listDevices(db: Db): Promise<ScannerDevice[]> {
  return db.selectFrom('scanner_devices').select(DEVICE_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export async function findDevice(db: Db, id: number): Promise<ScannerDevice | undefined> {
  return db.selectFrom('scanner_devices').select(DEVICE_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function findDeviceByKeyHash(db: Db, keyHash: string): Promise<ScannerDevice | undefined> {
  return db.selectFrom('scanner_devices').select(DEVICE_COLUMNS).where('key_hash', '=', keyHash).executeTakeFirst();
}

export async function insertDevice(db: Db, name: string, keyHash: string): Promise<ScannerDevice> {
  const iso = nowIso();
  return db
    .insertInto('scanner_devices')
    .values({ name, key_hash: keyHash, created_at: iso, updated_at: iso })
    .returning(DEVICE_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Marks the device revoked (once; a second revoke keeps the first time). */
export async function revokeDevice(db: Db, id: number): Promise<void> {
  const iso = nowIso();
  await db.updateTable('scanner_devices').set({ revoked_at: iso, updated_at: iso }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

export async function touchDevice(db: Db, id: number, at: string): Promise<void> {
  await db.updateTable('scanner_devices').set({ last_seen_at: at }).where('id', '=', id).execute();
}
