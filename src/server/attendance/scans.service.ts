import { toClockSeconds, type RejectedScan, type ScanResult } from '../../shared/attendance.schemas.js';
import { schoolToday } from '../../shared/dates.js';
import { addDays } from '../../shared/school-days.js';
import type { Db } from '../db/database.js';
import * as repo from './attendance.repository.js';
import { deriveDailyRecord, timesOnRecord } from './daily-record.js';

/**
 * Scans into records: store each raw scan, ignoring exact repeats, then recompute the
 * record of every student and day that got a new scan from all of that day's scans. So the same
 * scan twice changes nothing, and scans arriving out of order give the same record as in order.
 */

export const BELL_TIME_KEY = 'bell_time';
const DEFAULT_BELL_TIME = '08:00';

/** A scan as the gate or a spreadsheet gave it, before checks. */
export interface IncomingScan {
  studentId: string;
  date: string;
  /** 'HH:mm' or 'HH:mm:ss' */
  time: string;
  /** Position in the batch or row in the file, for the rejection list. */
  index: number;
}

/** The bell time in force ('HH:mm'). */
export async function getBellTime(db: Db): Promise<string> {
  return (await repo.getSetting(db, BELL_TIME_KEY)) ?? DEFAULT_BELL_TIME;
}

const dayKey = (studentId: string, date: string) => `${studentId}\u0000${date}`;

/**
 * Finds the scans that cannot be stored: unknown students, and dates after tomorrow (a gate's
 * clock may run ahead by a time zone, never by days). Answers the rest and the rejections.
 */
export async function screenScans(
  db: Db,
  scans: readonly IncomingScan[],
  today = schoolToday(),
): Promise<{ accepted: IncomingScan[]; rejected: RejectedScan[] }> {
  const known = await repo.findExistingStudentIds(
    db,
    scans.map((scan) => scan.studentId),
  );
  const latest = addDays(today, 1);
  const accepted: IncomingScan[] = [];
  const rejected: RejectedScan[] = [];
  for (const scan of scans) {
    if (!known.has(scan.studentId)) rejected.push({ index: scan.index, student_id: scan.studentId, reason: 'No student has this ID.' });
    else if (scan.date > latest) rejected.push({ index: scan.index, student_id: scan.studentId, reason: 'The date is in the future.' });
    else accepted.push(scan);
  }
  return { accepted, rejected };
}

/**
 * Stores accepted scans and recomputes the days they touch, in the transaction given. Answers
 * the counts; `rejected` is passed through for the caller's answer.
 */
export async function storeScans(
  trx: Db,
  scans: readonly IncomingScan[],
  source: string,
  rejected: RejectedScan[] = [],
): Promise<ScanResult> {
  // Repeats inside one call are duplicates too; sorting keeps lock order the same for every call.
  const unique = new Map<string, repo.ScanRow>();
  for (const scan of scans) {
    const time = toClockSeconds(scan.time);
    unique.set(`${scan.studentId}\u0000${scan.date}\u0000${time}`, { studentId: scan.studentId, date: scan.date, time });
  }
  const rows = [...unique.values()].sort(
    (a, b) => a.studentId.localeCompare(b.studentId) || a.date.localeCompare(b.date) || a.time.localeCompare(b.time),
  );
  const inserted = await repo.insertScans(trx, rows, source);
  const days = new Map<string, repo.StudentDay>();
  for (const scan of inserted) days.set(dayKey(scan.studentId, scan.date), { studentId: scan.studentId, date: scan.date });
  const received = scans.length + rejected.length;
  if (days.size === 0) {
    return { received, stored: 0, duplicates: scans.length, records_updated: 0, rejected };
  }

  const dayList = [...days.values()];
  await repo.lockStudentDays(trx, dayList);
  const bellTime = await getBellTime(trx);
  const times = new Map<string, string[]>();
  const add = (key: string, time: string) => {
    const list = times.get(key);
    if (list) list.push(time);
    else times.set(key, [time]);
  };
  // Times already on a record (seeded, or entered before the gate had scanners) count as scans.
  for (const record of await repo.listRecordsForDays(trx, dayList)) {
    for (const time of timesOnRecord(record)) add(dayKey(record.student_id, record.date_scanned), time);
  }
  for (const scan of await repo.listScansForDays(trx, dayList)) add(dayKey(scan.studentId, scan.date), scan.time);

  const records: repo.RecordValues[] = [];
  for (const day of dayList) {
    const record = deriveDailyRecord(day.date, times.get(dayKey(day.studentId, day.date)) ?? [], bellTime);
    if (record) records.push({ student_id: day.studentId, ...record });
  }
  await repo.upsertRecords(trx, records);
  return {
    received,
    stored: inserted.length,
    duplicates: scans.length - inserted.length,
    records_updated: records.length,
    rejected,
  };
}

/** A scanner's call: checks, then stores and recomputes in one transaction. */
export async function ingestScans(db: Db, scans: readonly IncomingScan[], source: string): Promise<ScanResult> {
  const { accepted, rejected } = await screenScans(db, scans);
  if (accepted.length === 0) return { received: scans.length, stored: 0, duplicates: 0, records_updated: 0, rejected };
  return db.transaction().execute((trx) => storeScans(trx, accepted, source, rejected));
}
