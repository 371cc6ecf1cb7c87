/** Business constants (docs/requirements.md R17), one definition for both sides. */

export const TERM_NAMES = { 1: 'Michaelmas', 2: 'Hilary', 3: 'Trinity' } as const;
export type TermNumber = keyof typeof TERM_NAMES;

/** 'year-year+1', the academic year label (R17). */
export function academicYearLabel(year: number): string {
  return `${year}-${year + 1}`;
}

export const SAVE_INDICATOR_DELAY_MS = 600;
export const LOGOUT_DELAY_MS = 1000;
