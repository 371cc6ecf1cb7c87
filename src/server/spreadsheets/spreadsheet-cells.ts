import { isIsoDate, schoolClock } from '../../shared/dates.js';

/**
 * Cell values for the spreadsheets the office downloads. Every text cell goes through
 * `inertText`: a value a parent typed that starts with = + - @ (or a tab or carriage return)
 * would be read as a formula by a spreadsheet program once the file is re-saved as CSV or the
 * cell is edited (OWASP "CSV Injection"), so it is prefixed with a single quote and stays text.
 */

const FORMULA_TRIGGER = /^[=+\-@\t\r]/;

/** The text as it is safe to put in a cell: unchanged, or prefixed with ' when it could start a formula. */
export function inertText(value: string): string {
  return FORMULA_TRIGGER.test(value) ? `'${value}` : value;
}

/** True when the text would start a formula in a spreadsheet program. */
export function isFormulaLike(value: string): boolean {
  return FORMULA_TRIGGER.test(value);
}

/** 'yyyy-MM-dd' → a Date at UTC midnight, which a spreadsheet shows as that calendar day; else null. */
export function excelDate(isoDate: string | null | undefined): Date | null {
  if (!isoDate || !isIsoDate(isoDate)) return null;
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
}

/**
 * An ISO timestamp → a Date whose UTC fields are the school's wall-clock time: spreadsheets have
 * no time zones, so the office sees the time as it was in Trinidad, not in UTC.
 */
export function excelDateTime(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return null;
  const c = schoolClock(instant);
  return new Date(Date.UTC(Number(c.year), Number(c.month) - 1, Number(c.day), Number(c.hour), Number(c.minute), Number(c.second)));
}

/**
 * Undoes `inertText` on a value read back from a spreadsheet (the import of an exported file):
 * a quote before a formula character was ours, so the stored text is what the parent typed.
 */
export function restoreText(value: string): string {
  return /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
}
