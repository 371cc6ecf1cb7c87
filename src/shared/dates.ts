/** Date helpers shared by both sides; dates travel as 'yyyy-MM-dd' text (SPEC §9). */

export const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar date written yyyy-MM-dd (rejects 2024-02-30). */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE_PATTERN.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
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
