import { SESSIONS_PER_SCHOOL_DAY, listSchoolDays } from './school-days.js';

/**
 * The attendance figures and their words, one definition for the server (API, report
 * PDF, the family's home cards, the daily digest's words) and the screen (doughnuts and totals).
 * Attendance counts sessions: a school day has a morning and an afternoon session
 * (school-days.ts). Punctuality counts days at school: a late arrival happens once a day, so it
 * is a day late, and the days on time are the days at school less the days late
 * (docs/decisions.md D15, D76).
 */

/** The session flags of one day's record, as attendance_records stores them (docs/requirements.md R10). */
export interface DailySessions {
  attendance_am: number;
  attendance_pm: number;
  time_in: string | null;
  time_out: string | null;
  late: number;
}

/**
 * A whole percentage of `part` in `whole`, rounded to the nearest whole percent (R5),
 * except that 100 % means nothing was missed and 0 % means nothing was had: 199 of 200 shows
 * 99 %, not 100 %, and 1 of 200 shows 1 %, not 0 % (docs/decisions.md "Percentages at the edges").
 * 0 when `whole` is 0 or less.
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

/** Attendance = present / possible, whole percent, 0 % when nothing is possible (R5). */
export function attendancePercent(present: number, possible: number): number {
  return wholePercent(present, possible);
}

/** Punctuality = (attendance − lates) / attendance, whole percent, 0 % when attendance is 0 (R5). */
export function punctualityPercent(attendance: number, lates: number): number {
  if (!(attendance > 0)) return 0;
  return wholePercent(attendance - Math.min(Math.max(lates, 0), attendance), attendance);
}

/** Morning session present: the flag, or a time in without a time out (R10). */
export function isPresentAm(record: DailySessions): boolean {
  return record.attendance_am === 1 || (record.time_in !== null && record.time_out === null);
}

/** Afternoon session present: the flag, or a time in without a time out (R10). */
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
  /** Late arrivals, one session each (the report card's "Sessions Late"). */
  lates: number;
  attendancePercent: number;
  punctualityPercent: number;
}

/**
 * Totals and both percentages from a possible-session count and the attendance and late counts,
 * all in sessions: the report card's figures. The attendance screen, its report and the family's
 * cards count with `attendanceFigures`, whose punctuality is in days.
 */
export function summarizeAttendance(possible: number, present: number, lates: number): AttendanceSummary {
  const boundedLates = Math.min(Math.max(lates, 0), Math.max(present, 0));
  return {
    possible,
    present,
    absent: Math.max(possible - present, 0),
    lates: boundedLates,
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

// ---- sessions and days: the attendance screen, its report and the family's cards -----------------

/** One day's record with its date, as the attendance answer carries it. */
export interface DatedSessions extends DailySessions {
  date_scanned: string;
}

/**
 * The parts of a school day an absence note explains (docs/decisions.md D93): the whole day, one
 * session, or a late arrival. One list for the note's form, the server's rules and the figures.
 */
export const ABSENCE_PARTS = ['whole_day', 'am', 'pm', 'late'] as const;
export type AbsencePart = (typeof ABSENCE_PARTS)[number];

/** What an accepted note excuses on one day: the morning's absence, the afternoon's, a late arrival. */
export interface ExcusedParts {
  am: boolean;
  pm: boolean;
  late: boolean;
}

/**
 * What each part excuses (D93): the whole day covers both sessions and a late arrival; a morning
 * note covers the morning and a late arrival (arriving late is missing part of the morning); an
 * afternoon note the afternoon; a late note the late arrival only.
 */
const PART_EXCUSES: Record<AbsencePart, ExcusedParts> = {
  whole_day: { am: true, pm: true, late: true },
  am: { am: true, pm: false, late: true },
  pm: { am: false, pm: true, late: false },
  late: { am: false, pm: false, late: true },
};

/** An accepted absence note's days and part, as the figures need it. */
export interface ExcusingNote {
  date_from: string;
  date_to: string;
  part: AbsencePart;
}

/**
 * The days accepted notes excuse, and what on each: excused is derived from the accepted notes,
 * never stored on the attendance records (D93), so a day with no record (absent all day) is
 * excused as well as a recorded one, and a note accepted or withdrawn changes every figure at once.
 */
export function excusedDaysOf(notes: readonly ExcusingNote[]): Map<string, ExcusedParts> {
  const days = new Map<string, ExcusedParts>();
  for (const note of notes) {
    const excuses = PART_EXCUSES[note.part];
    for (const day of listSchoolDays(note.date_from, note.date_to)) {
      const found = days.get(day) ?? { am: false, pm: false, late: false };
      days.set(day, { am: found.am || excuses.am, pm: found.pm || excuses.pm, late: found.late || excuses.late });
    }
  }
  return days;
}

/**
 * A student's figures over a range, each in the unit it is said in: sessions for attendance (two a
 * school day), days for being at school, absent and on time (docs/decisions.md D76). Absent
 * sessions and late days are split into excused (an accepted absence note covers them) and not.
 */
export interface AttendanceFigures {
  /** School days of the range (weekdays that are not school holidays). */
  schoolDays: number;
  /** Sessions the student could attend: two a school day. */
  possibleSessions: number;
  sessionsPresent: number;
  /** possibleSessions − sessionsPresent: whole days and half days missed. */
  sessionsAbsent: number;
  /** Absent sessions an accepted absence note covers (D93). */
  sessionsAbsentExcused: number;
  /** sessionsAbsent − sessionsAbsentExcused. */
  sessionsAbsentUnexcused: number;
  /** School days with at least one session attended. */
  daysAtSchool: number;
  /** School days with no session attended. */
  daysAbsent: number;
  /** Days at school that began after the bell. */
  daysLate: number;
  /** Late days an accepted absence note covers (D93). */
  daysLateExcused: number;
  /** daysAtSchool − daysLate. */
  daysOnTime: number;
  /** sessionsPresent / possibleSessions, whole percent. */
  attendancePercent: number;
  /** daysOnTime / daysAtSchool, whole percent (counted in days). */
  punctualityPercent: number;
}

/**
 * The figures of a range from its school days and the student's records. Records on a day the
 * school was closed (a Saturday sports day) are shown elsewhere but never counted, so every figure
 * is a share of the days the school was open. A range in which the school recorded no one's
 * attendance counts nothing (`recorded` false, docs/decisions.md D41). `excused` (excusedDaysOf)
 * splits the absent sessions and late days; the percentages do not change with it.
 */
export function attendanceFigures(
  schoolDays: readonly string[],
  records: readonly DatedSessions[],
  recorded = true,
  excused: ReadonlyMap<string, ExcusedParts> = new Map(),
): AttendanceFigures {
  if (!recorded) return figuresFrom(0, 0, 0, 0, 0, 0);
  const open = new Set(schoolDays);
  // One record a day is stored; a second for the same date would count the day twice.
  const byDay = new Map<string, DatedSessions>();
  for (const record of records) {
    if (open.has(record.date_scanned) && !byDay.has(record.date_scanned)) byDay.set(record.date_scanned, record);
  }
  let present = 0;
  let daysAtSchool = 0;
  let daysLate = 0;
  let absentExcused = 0;
  let lateExcused = 0;
  for (const day of open) {
    const record = byDay.get(day);
    const am = record !== undefined && isPresentAm(record);
    const pm = record !== undefined && isPresentPm(record);
    const covered = excused.get(day);
    present += (am ? 1 : 0) + (pm ? 1 : 0);
    if (covered) absentExcused += (!am && covered.am ? 1 : 0) + (!pm && covered.pm ? 1 : 0);
    if (am || pm) {
      daysAtSchool += 1;
      if (record.late === 1) {
        daysLate += 1;
        if (covered?.late) lateExcused += 1;
      }
    }
  }
  return figuresFrom(open.size, present, daysAtSchool, daysLate, absentExcused, lateExcused);
}

function figuresFrom(schoolDays: number, sessionsPresent: number, daysAtSchool: number, daysLate: number, absentExcused: number, lateExcused: number): AttendanceFigures {
  const possibleSessions = schoolDays * SESSIONS_PER_SCHOOL_DAY;
  const sessionsAbsent = Math.max(possibleSessions - sessionsPresent, 0);
  return {
    schoolDays,
    possibleSessions,
    sessionsPresent,
    sessionsAbsent,
    sessionsAbsentExcused: absentExcused,
    sessionsAbsentUnexcused: sessionsAbsent - absentExcused,
    daysAtSchool,
    daysAbsent: Math.max(schoolDays - daysAtSchool, 0),
    daysLate,
    daysLateExcused: lateExcused,
    daysOnTime: Math.max(daysAtSchool - daysLate, 0),
    attendancePercent: attendancePercent(sessionsPresent, possibleSessions),
    punctualityPercent: punctualityPercent(daysAtSchool, daysLate),
  };
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The words of the figures, the same on the screen and in the report PDF. */
export const ATTENDANCE_WORDS = {
  attendance: 'Attendance',
  punctuality: 'Punctuality',
  sessionsPresent: 'Sessions present',
  sessionsAbsent: 'Sessions absent',
  /** Absent sessions an accepted absence note covers, and the rest (D93). */
  sessionsAbsentExcused: 'Sessions absent (excused)',
  sessionsAbsentUnexcused: 'Sessions absent (unexcused)',
  daysAbsent: 'Days absent',
  daysAtSchool: 'Days at school',
  onTime: 'On time',
  late: 'Late',
  /** Late days an accepted absence note covers (D93). */
  lateExcused: 'Late (excused)',
  /** A column of days late beside sessions (the class's table), and the excused ones among them. */
  daysLate: 'Days late',
  daysLateExcused: 'Days late (excused)',
  /** A daily table's absent session or day that an accepted note covers, and the word beside a late arrival it covers. */
  absentExcused: 'Absent (excused)',
  absentAllDay: 'Absent all day',
  absentAllDayExcused: 'Absent all day (excused)',
  absentAllDayMorningExcused: 'Absent all day (morning excused)',
  absentAllDayAfternoonExcused: 'Absent all day (afternoon excused)',
  excused: 'Excused',
  schoolDays: 'School days',
  /** What the figures count, under them. */
  explained:
    'Attendance counts sessions: two a school day, morning and afternoon. Punctuality counts days at school: on time, or late after the bell. Weekends and school holidays are not school days.',
} as const;

/** One line of the totals: its words and its value as said ('108 of 116 (two a day)'). */
export interface AttendanceLine {
  label: string;
  value: string;
}

/** The totals, in order, as the screen and the report PDF list them. */
export function attendanceLines(figures: AttendanceFigures): AttendanceLine[] {
  const w = ATTENDANCE_WORDS;
  return [
    { label: w.schoolDays, value: String(figures.schoolDays) },
    { label: w.sessionsPresent, value: `${figures.sessionsPresent} of ${figures.possibleSessions} (two a day)` },
    { label: w.sessionsAbsent, value: String(figures.sessionsAbsent) },
    { label: w.sessionsAbsentExcused, value: String(figures.sessionsAbsentExcused) },
    { label: w.sessionsAbsentUnexcused, value: String(figures.sessionsAbsentUnexcused) },
    { label: w.daysAbsent, value: String(figures.daysAbsent) },
    { label: w.daysAtSchool, value: `${figures.daysAtSchool} of ${figures.schoolDays}` },
    { label: w.onTime, value: `${count(figures.daysOnTime, 'day', 'days')} of ${figures.daysAtSchool}` },
    { label: w.late, value: count(figures.daysLate, 'day', 'days') },
    { label: w.lateExcused, value: count(figures.daysLateExcused, 'day', 'days') },
    { label: w.attendance, value: `${figures.attendancePercent}% of sessions` },
    { label: w.punctuality, value: `${figures.punctualityPercent}% of days at school on time` },
  ];
}

// ---- one day: today's card and the daily digest ------------------------------------------------------

/** What one school day's record says: absent, a session missed, late, or on time. */
export type DayAttendance = 'absent' | 'absent-am' | 'absent-pm' | 'late' | 'on-time';

/**
 * One school day, from its record (none: no arrival at the gate). A missed morning outranks a late
 * arrival (arriving after midday is both), and a late arrival a missed afternoon, as the daily
 * digest words a day.
 */
export function dayAttendanceOf(record: DailySessions | undefined): DayAttendance {
  if (!record) return 'absent';
  if (!isPresentAm(record)) return 'absent-am';
  if (record.late === 1) return 'late';
  if (!isPresentPm(record)) return 'absent-pm';
  return 'on-time';
}

/** A day's words, as a sentence's end: "Jaden: absent for the morning session". */
export const DAY_ATTENDANCE_WORDS: Record<DayAttendance, string> = {
  absent: 'absent (no arrival recorded at the gate)',
  'absent-am': 'absent for the morning session',
  'absent-pm': 'absent for the afternoon session',
  late: 'late',
  'on-time': 'at school, on time',
};
