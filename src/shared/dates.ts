/** Date helpers shared by both sides; dates travel as 'yyyy-MM-dd' text (docs/requirements.md R17). */

const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar date written yyyy-MM-dd (rejects 2024-02-30). */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE_PATTERN.test(value)) return false;
  // Read from the digits, without splitting or a Date: every progress computation checks each
  // date of a record (docs/performance.md).
  const y = digitsAt(value, 0, 4);
  const m = digitsAt(value, 5, 2);
  const d = digitsAt(value, 8, 2);
  // Years 0000–0099 stay refused, as when this was read through Date.UTC (which maps them to 19xx).
  return y >= 100 && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

function digitsAt(value: string, start: number, length: number): number {
  let n = 0;
  for (let i = start; i < start + length; i++) n = n * 10 + (value.charCodeAt(i) - 48);
  return n;
}

/** Days in a month of the proleptic Gregorian calendar (month 1–12). */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** 'yyyy-MM-dd' → 'yyyymmdd', the form a reset password takes (R3, R11). */
export function toCompactDate(isoDate: string): string {
  return isoDate.replaceAll('-', '');
}

/** 'yyyymmdd' → 'yyyy-MM-dd', or null when it is not a real date. */
export function fromCompactDate(compact: string): string | null {
  if (!/^\d{8}$/.test(compact)) return null;
  const iso = `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6, 8)}`;
  return isIsoDate(iso) ? iso : null;
}

/** 'dd/MM/yyyy' (the day first, as the school writes dates on paper; one-digit day or month taken) → 'yyyy-MM-dd', or null. */
export function fromDayFirstDate(text: string): string | null {
  const parts = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (!parts) return null;
  const iso = `${parts[3]}-${parts[2]!.padStart(2, '0')}-${parts[1]!.padStart(2, '0')}`;
  return isIsoDate(iso) ? iso : null;
}

/** 'yyyy-MM-dd' → 'dd/MM/yyyy', the way the date forms show a date they took (docs/decisions.md D77). */
export function toDayFirstDate(isoDate: string): string {
  return `${isoDate.slice(8, 10)}/${isoDate.slice(5, 7)}/${isoDate.slice(0, 4)}`;
}

/** The format the typed-date forms ask for in their placeholder (D77). */
export const DAY_FIRST_FORMAT = 'dd/MM/yyyy';

/**
 * A date as people type it → 'yyyy-MM-dd', or null. The one reading of a typed date (D77):
 * dd/MM/yyyy as the forms' placeholder says, yyyy-MM-dd and the digits alone ('20140309', the
 * password an office reset gives). The New School Year's term dates read the same way (D79).
 */
export function parseTypedDate(text: string): string | null {
  const trimmed = text.trim();
  if (isIsoDate(trimmed)) return trimmed;
  return fromDayFirstDate(trimmed) ?? fromCompactDate(trimmed);
}

/**
 * A date of birth as people type it (the first sign-in, the family's "Add a child", the Student ID
 * finder and the student's password reset): the one reading of a typed date, `parseTypedDate`.
 */
export function parseBirthDate(text: string): string | null {
  return parseTypedDate(text);
}

/** The school's time zone: its day decides deadlines, "no future dates" and dates on paper. */
export const SCHOOL_TIME_ZONE = 'America/Port_of_Spain';

// Built on first use: building an Intl.DateTimeFormat costs far more than using it (and a browser
// 15–25 ms the first time), and a page that never asks for the day should not pay for it.
let dayFormat: Intl.DateTimeFormat | undefined;
let clockFormat: Intl.DateTimeFormat | undefined;

/** The school's day at `now` as yyyy-MM-dd (the server's clock decides on the server). */
export function schoolToday(now: Date = new Date()): string {
  dayFormat ??= new Intl.DateTimeFormat('en-CA', { timeZone: SCHOOL_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
  return dayFormat.format(now);
}

/** An instant's wall-clock time in the school's time zone, each part as two or four digits. */
export interface SchoolClock {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

export function schoolClock(instant: Date): SchoolClock {
  clockFormat ??= new Intl.DateTimeFormat('en-CA', {
    timeZone: SCHOOL_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const clock: SchoolClock = { year: '', month: '', day: '', hour: '', minute: '', second: '' };
  for (const part of clockFormat.formatToParts(instant)) if (part.type in clock) clock[part.type as keyof SchoolClock] = part.value;
  return clock;
}

/**
 * 'yyyy-MM-dd HH:mm' of an instant in the school's time zone (footers of printed documents), or
 * 'yyyy-MM-dd HH:mm:ss' with seconds (the form of a posting date, R17).
 */
export function schoolDateTime(instant: Date, options: { seconds?: boolean } = {}): string {
  const c = schoolClock(instant);
  return `${c.year}-${c.month}-${c.day} ${c.hour}:${c.minute}${options.seconds ? `:${c.second}` : ''}`;
}

/**
 * A stored instant (ISO text, as the API answers timestamps) as 'yyyy-MM-dd HH:mm' in the school's
 * time zone: every time a screen shows a person, whatever the browser's own zone (D84).
 */
export function schoolTimeOf(iso: string): string {
  return schoolDateTime(new Date(iso));
}

/** A stored instant's day (yyyy-MM-dd) in the school's time zone: 'uploaded 2026-11-27' after 8 pm is still the 27th. */
export function schoolDayOf(iso: string): string {
  return schoolToday(new Date(iso));
}

/**
 * 'yyyy-MM-ddTHH:mm' (what a datetime-local field gives) read as the school's wall-clock time →
 * the instant, or null for text that is not such a time. The school's offset at that moment is
 * taken from the time zone, not assumed.
 */
export function instantOfSchoolTime(local: string): Date | null {
  const parts = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d)$/.exec(local);
  if (!parts || !isIsoDate(parts[1]!)) return null;
  const [year, month, day] = parts[1]!.split('-').map(Number) as [number, number, number];
  const asIfUtc = Date.UTC(year, month - 1, day, Number(parts[2]), Number(parts[3]));
  const c = schoolClock(new Date(asIfUtc));
  const shown = Date.UTC(Number(c.year), Number(c.month) - 1, Number(c.day), Number(c.hour), Number(c.minute));
  return new Date(asIfUtc + (asIfUtc - shown));
}
