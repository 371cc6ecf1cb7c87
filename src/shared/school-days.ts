/**
 * School days: the weekdays of a date range that are not school holidays. Possible attendance is
 * two sessions (AM and PM) for each school day (docs/requirements.md R10, and R5 for the percentages). Pure date
 * maths on 'yyyy-MM-dd' text, computed in UTC so the server's time zone never shifts a day.
 */

const DAY_MS = 86_400_000;

/** Sessions a student can attend on one school day: morning and afternoon. */
export const SESSIONS_PER_SCHOOL_DAY = 2;

function toUtcMs(isoDate: string): number {
  return Date.parse(`${isoDate}T00:00:00Z`);
}

function nextDay(isoDate: string): string {
  return new Date(toUtcMs(isoDate) + DAY_MS).toISOString().slice(0, 10);
}

/** True from Monday to Friday. */
export function isWeekday(isoDate: string): boolean {
  const day = new Date(toUtcMs(isoDate)).getUTCDay();
  return day !== 0 && day !== 6;
}

function asSet(holidays: Iterable<string>): ReadonlySet<string> {
  return holidays instanceof Set ? (holidays as ReadonlySet<string>) : new Set(holidays);
}

/** The school days from `start` to `end`, both included, in order; empty when end < start. */
export function listSchoolDays(start: string, end: string, holidays: Iterable<string> = []): string[] {
  const closed = asSet(holidays);
  const days: string[] = [];
  if (Number.isNaN(toUtcMs(start)) || Number.isNaN(toUtcMs(end))) return days;
  for (let day = start; day <= end; day = nextDay(day)) {
    if (isWeekday(day) && !closed.has(day)) days.push(day);
  }
  return days;
}

/** How many school days lie from `start` to `end`, both included (0 when end < start). */
export function countSchoolDays(start: string, end: string, holidays: Iterable<string> = []): number {
  return listSchoolDays(start, end, holidays).length;
}

/** The possible attendance sessions from `start` to `end`: two per school day. */
export function countPossibleSessions(start: string, end: string, holidays: Iterable<string> = []): number {
  return countSchoolDays(start, end, holidays) * SESSIONS_PER_SCHOOL_DAY;
}

/** The date `days` after `isoDate` (before it when negative). */
export function addDays(isoDate: string, days: number): string {
  return new Date(toUtcMs(isoDate) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The earlier of two 'yyyy-MM-dd' dates. */
export function earlierDate(a: string, b: string): string {
  return a < b ? a : b;
}
