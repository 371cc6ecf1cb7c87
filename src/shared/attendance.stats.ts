/**
 * The attendance figures of SPEC §5, one definition for the server (API, report PDF) and the
 * screen (doughnuts). Counts are in sessions: a school day has an AM and a PM session
 * (school-days.ts), and lateness belongs to the AM session, so one late arrival is one late
 * session (docs/decisions.md "Attendance counts").
 */

/** The session flags of one day's record, as attendance_records stores them (SPEC §3). */
export interface DailySessions {
  attendance_am: number;
  attendance_pm: number;
  time_in: string | null;
  time_out: string | null;
  late: number;
}

/**
 * A whole percentage of `part` in `whole`, rounded to the nearest whole percent (SPEC §5, §9),
 * except that 100 % means nothing was missed and 0 % means nothing was had: 199 of 200 shows
 * 99 %, not 100 %, and 1 of 200 shows 1 %, not 0 % (docs/decisions.md "Percentages at the edges").
 * 0 when `whole` is 0 or less (SPEC §5).
 */
export function wholePercent(part: number, whole: number): number {
  if (!(whole > 0)) return 0;
  const bounded = Math.min(Math.max(part, 0), whole);
  if (bounded === 0) return 0;
  if (bounded === whole) return 100;
  // part * 100 is exact for whole counts, so x.5 rounds up the same on every engine and browser.
  const rounded = Math.round((bounded * 100) / whole);
  return Math.min(99, Math.max(1, rounded));
}

/** Attendance = present / possible, whole percent, 0 % when nothing is possible (SPEC §5). */
export function attendancePercent(present: number, possible: number): number {
  return wholePercent(present, possible);
}

/** Punctuality = (attendance − lates) / attendance, whole percent, 0 % when attendance is 0 (SPEC §5). */
export function punctualityPercent(attendance: number, lates: number): number {
  if (!(attendance > 0)) return 0;
  return wholePercent(attendance - Math.min(Math.max(lates, 0), attendance), attendance);
}

/** Morning session present: the flag, or a time in without a time out (SPEC §4). */
export function isPresentAm(record: DailySessions): boolean {
  return record.attendance_am === 1 || (record.time_in !== null && record.time_out === null);
}

/** Afternoon session present: the flag, or a time in without a time out (SPEC §4). */
export function isPresentPm(record: DailySessions): boolean {
  return record.attendance_pm === 1 || (record.time_in !== null && record.time_out === null);
}

/** Sessions attended on one day: 0, 1 or 2. */
function sessionsPresent(record: DailySessions): number {
  return (isPresentAm(record) ? 1 : 0) + (isPresentPm(record) ? 1 : 0);
}

export interface AttendanceSummary {
  /** Sessions the student could have attended (two per school day). */
  possible: number;
  /** Sessions attended ('Present: n'). */
  present: number;
  /** possible − present, never below 0 ('Absent: n'). */
  absent: number;
  /** Late arrivals, one session each ('Late: n'). */
  lates: number;
  /** Sessions attended on time: present − lates ('Early'). */
  early: number;
  attendancePercent: number;
  punctualityPercent: number;
}

/** Totals and both percentages from a possible-session count and the attendance and late counts. */
export function summarizeAttendance(possible: number, present: number, lates: number): AttendanceSummary {
  const boundedLates = Math.min(Math.max(lates, 0), Math.max(present, 0));
  return {
    possible,
    present,
    absent: Math.max(possible - present, 0),
    lates: boundedLates,
    early: Math.max(present - boundedLates, 0),
    attendancePercent: attendancePercent(present, possible),
    punctualityPercent: punctualityPercent(present, boundedLates),
  };
}

/** Present sessions and late arrivals over day records (each record one school day). */
export function countAttendance(records: readonly DailySessions[]): { present: number; lates: number } {
  let present = 0;
  let lates = 0;
  for (const record of records) {
    present += sessionsPresent(record);
    if (record.late === 1) lates += 1;
  }
  return { present, lates };
}
