/** Date helpers shared by both sides; dates travel as 'yyyy-MM-dd' text (SPEC §9). */

export const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

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

/** 'yyyy-MM-dd' → 'yyyymmdd', the form a reset password takes (SPEC §2, DESIGN §6). */
export function toCompactDate(isoDate: string): string {
  return isoDate.replaceAll('-', '');
}

/** 'yyyymmdd' → 'yyyy-MM-dd', or null when it is not a real date. */
export function fromCompactDate(compact: string): string | null {
  if (!/^\d{8}$/.test(compact)) return null;
  const iso = `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6, 8)}`;
  return isIsoDate(iso) ? iso : null;
}

/** One formatter per time zone: building an Intl.DateTimeFormat costs far more than using it. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's date in the given time zone as yyyy-MM-dd (the server's clock decides). */
export function todayIso(now: Date = new Date(), timeZone = 'America/Port_of_Spain'): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(now);
}
