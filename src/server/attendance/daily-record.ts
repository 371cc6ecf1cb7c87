import type { AttendanceRecord } from '../../shared/attendance.schemas.js';

/**
 * How a student's scans of one day become that day's record: the first scan is the
 * time in, the last the time out; late when the time in is after the bell; the sessions as
 * docs/requirements.md R10 and docs/decisions.md D15 ("Scans into records") say. Pure, so the same scans give the same
 * record whatever order they arrived in and however often.
 */

/** The morning session ends at midday: arriving from then on misses it. */
const MIDDAY = '12:00:00';
/** The afternoon register: leaving before it misses the afternoon session. */
const AFTERNOON_REGISTER = '13:00:00';
/**
 * A second scan this soon after the first is the same arrival (a card held to the reader twice,
 * or two readers at one gate), not a time out: otherwise a double tap at 07:40 would sign the
 * student out at 07:40 and lose the afternoon.
 */
const REPEAT_SCAN_WINDOW_SECONDS = 5 * 60;

function secondsOf(time: string): number {
  const [h, m, s] = time.split(':').map(Number) as [number, number, number?];
  return h * 3600 + m * 60 + (s ?? 0);
}

/** 'HH:mm:ss' from a stored scan moment 'yyyy-MM-dd HH:mm:ss' or a time 'HH:mm'. */
function clockOf(value: string): string {
  const time = value.includes(' ') ? value.slice(value.indexOf(' ') + 1) : value;
  return time.length === 5 ? `${time}:00` : time.slice(0, 8);
}

/** Times of day already on a stored record (seeded or imported before scans): kept as scans. */
export function timesOnRecord(record: Pick<AttendanceRecord, 'time_in' | 'time_out' | 'time_scanned_in' | 'time_scanned_out'>): string[] {
  const times: string[] = [];
  const timeIn = record.time_scanned_in ?? record.time_in;
  const timeOut = record.time_scanned_out ?? record.time_out;
  if (timeIn) times.push(clockOf(timeIn));
  if (timeOut) times.push(clockOf(timeOut));
  return times;
}

/**
 * The day's record from its scan times ('HH:mm:ss', any order, repeats allowed) and the bell
 * time ('HH:mm'). Undefined when there are no scans.
 */
export function deriveDailyRecord(date: string, times: readonly string[], bellTime: string): AttendanceRecord | undefined {
  const sorted = [...new Set(times)].sort();
  const first = sorted[0];
  if (first === undefined) return undefined;
  const last = sorted[sorted.length - 1]!;
  const out = secondsOf(last) - secondsOf(first) >= REPEAT_SCAN_WINDOW_SECONDS ? last : null;
  // R10: a time in without a time out counts both sessions.
  const am = out === null || first < MIDDAY ? 1 : 0;
  const pm = out === null || out >= AFTERNOON_REGISTER ? 1 : 0;
  return {
    date_scanned: date,
    attendance_am: am,
    attendance_pm: pm,
    time_in: first.slice(0, 5),
    time_out: out === null ? null : out.slice(0, 5),
    late: first > `${bellTime}:00` ? 1 : 0,
    time_scanned_in: `${date} ${first}`,
    time_scanned_out: out === null ? null : `${date} ${out}`,
  };
}
