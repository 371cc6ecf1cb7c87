/**
 * The demo school's calendar: academic terms, Trinidad and Tobago's public holidays, which term
 * reports are posted, and the clock arithmetic the seeder needs (text dates, docs/requirements.md
 * R17; day arithmetic is in src/shared/school-days.ts).
 */

/** The academic year the demo school is in: 2026-2027 (a year is named by the year it starts). */
export const DEMO_ACADEMIC_YEAR = 2026;

/**
 * Term dates: 2025-2026 as the Ministry of Education published them (Cabinet's revised calendar,
 * August 2025); 2026-2027 follows the same 14-12-13 week pattern and is provisional.
 */
export const DEMO_ACADEMIC_TERMS: readonly { year: number; term: 1 | 2 | 3; start_date: string; end_date: string }[] = [
  { year: 2025, term: 1, start_date: '2025-09-08', end_date: '2025-12-12' },
  { year: 2025, term: 2, start_date: '2026-01-05', end_date: '2026-03-27' },
  { year: 2025, term: 3, start_date: '2026-04-13', end_date: '2026-07-10' },
  { year: 2026, term: 1, start_date: '2026-09-07', end_date: '2026-12-11' },
  { year: 2026, term: 2, start_date: '2027-01-04', end_date: '2027-03-26' },
  { year: 2026, term: 3, start_date: '2027-04-12', end_date: '2027-07-09' },
];

/**
 * Days the school is closed from September 2025 to August 2027: the public holidays (Public
 * Holidays and Festivals Act; a Sunday holiday moves to Monday) and Carnival Monday and Tuesday,
 * which are school holidays though not public ones. Divali and Eid-ul-Fitr follow lunar calendars
 * and are proclaimed a week or two ahead, so the 2026-2027 dates marked provisional are estimates.
 * Holidays outside term time are kept too: a school that moves its term dates still has them.
 */
export const DEMO_SCHOOL_HOLIDAYS: readonly { date: string; name: string }[] = [
  { date: '2025-09-01', name: 'Independence Day (observed)' },
  { date: '2025-09-24', name: 'Republic Day' },
  { date: '2025-10-20', name: 'Divali' },
  { date: '2025-12-25', name: 'Christmas Day' },
  { date: '2025-12-26', name: 'Boxing Day' },
  { date: '2026-01-01', name: "New Year's Day" },
  { date: '2026-02-16', name: 'Carnival Monday' },
  { date: '2026-02-17', name: 'Carnival Tuesday' },
  { date: '2026-03-20', name: 'Eid-ul-Fitr' },
  { date: '2026-03-30', name: 'Spiritual Baptist/Shouter Liberation Day' },
  { date: '2026-04-03', name: 'Good Friday' },
  { date: '2026-04-06', name: 'Easter Monday' },
  { date: '2026-05-30', name: 'Indian Arrival Day' },
  { date: '2026-06-04', name: 'Corpus Christi' },
  { date: '2026-06-19', name: 'Labour Day' },
  { date: '2026-08-01', name: 'African Emancipation Day' },
  { date: '2026-08-31', name: 'Independence Day' },
  { date: '2026-09-24', name: 'Republic Day' },
  { date: '2026-11-09', name: 'Divali (observed, provisional)' },
  { date: '2026-12-25', name: 'Christmas Day' },
  { date: '2026-12-26', name: 'Boxing Day' },
  { date: '2027-01-01', name: "New Year's Day" },
  { date: '2027-02-08', name: 'Carnival Monday' },
  { date: '2027-02-09', name: 'Carnival Tuesday' },
  { date: '2027-03-10', name: 'Eid-ul-Fitr (provisional)' },
  { date: '2027-03-26', name: 'Good Friday' },
  { date: '2027-03-29', name: 'Easter Monday' },
  { date: '2027-03-30', name: 'Spiritual Baptist/Shouter Liberation Day' },
  { date: '2027-05-27', name: 'Corpus Christi' },
  { date: '2027-05-31', name: 'Indian Arrival Day (observed)' },
  { date: '2027-06-19', name: 'Labour Day' },
  { date: '2027-08-02', name: 'African Emancipation Day (observed)' },
  { date: '2027-08-31', name: 'Independence Day' },
];

/** Which term reports exist and which are posted ('yyyy-MM-dd HH:mm:ss', the R17 format). */
export const DEMO_TERM_REPORTS = [
  { year: 2025, term: 1, posted: 1, date_posted: '2025-12-19 14:05:00' },
  { year: 2025, term: 2, posted: 1, date_posted: '2026-04-10 10:30:00' },
  { year: 2025, term: 3, posted: 0, date_posted: null },
  { year: 2026, term: 1, posted: 0, date_posted: null },
] as const;

const DAY_MS = 86_400_000;

function toUtcMs(isoDate: string): number {
  return Date.parse(`${isoDate}T00:00:00Z`);
}

/** Two digits, zero-padded. */
export function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** 'HH:mm' from minutes after midnight. */
export function clock(minutes: number): string {
  return `${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`;
}

/** A Trinidad local time (UTC-4 all year, no daylight saving) as the ISO text of the timestamp columns. */
export function localToIso(isoDate: string, hhmm: string, seconds: number): string {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return new Date(toUtcMs(isoDate) + ((h + 4) * 3600 + m * 60 + seconds) * 1000).toISOString();
}

/**
 * A moment `fraction` of the way through the days from one date to another, during the hours
 * people use the portal (08:00–20:00 Trinidad time), as ISO text; collapses to `from` when empty.
 */
export function momentBetween(fromIsoDate: string, toIsoDate: string, fraction: number): string {
  const days = Math.max(1, Math.round((toUtcMs(toIsoDate) - toUtcMs(fromIsoDate)) / DAY_MS) + 1);
  const scaled = fraction * days;
  const day = toIsoDate < fromIsoDate ? 0 : Math.floor(scaled);
  const withinDay = scaled - Math.floor(scaled);
  return new Date(toUtcMs(fromIsoDate) + day * DAY_MS + (12 + withinDay * 12) * 3_600_000).toISOString();
}

/** The term containing `today`, else the latest that has started (holidays show its last weeks). */
export function findDemoAttendanceTerm(today: string): (typeof DEMO_ACADEMIC_TERMS)[number] | undefined {
  return (
    DEMO_ACADEMIC_TERMS.find((t) => t.start_date <= today && today <= t.end_date) ??
    [...DEMO_ACADEMIC_TERMS].reverse().find((t) => t.start_date <= today)
  );
}
