/**
 * The school's numbering rule for student IDs (docs/decisions.md D61): the entry year, then a
 * 4-digit sequence within that year, '20260001'. A new ID continues after the highest number of
 * its year already taken, so a gap (a student deleted) is never filled again and an ID is never
 * handed to a second child. The demo seed and the new Form 1's finalise both number with it.
 */

export const STUDENT_SEQUENCE_DIGITS = 4;
const MAX_SEQUENCE = 10 ** STUDENT_SEQUENCE_DIGITS - 1;

/** The ID of the `sequence`th student of an entry year: (2026, 7) → '20260007'. */
export function studentIdOf(entryYear: number, sequence: number): string {
  if (!Number.isInteger(sequence) || sequence < 1 || sequence > MAX_SEQUENCE) {
    throw new RangeError(`Entry year ${entryYear} has no student number left after ${MAX_SEQUENCE}.`);
  }
  return `${entryYear}${String(sequence).padStart(STUDENT_SEQUENCE_DIGITS, '0')}`;
}

/** The sequence of an ID of that entry year ('20260007' → 7), or null for any other ID. */
export function sequenceOf(id: string, entryYear: number): number | null {
  const prefix = String(entryYear);
  if (id.length !== prefix.length + STUDENT_SEQUENCE_DIGITS || !id.startsWith(prefix)) return null;
  const digits = id.slice(prefix.length);
  return /^\d+$/.test(digits) ? Number(digits) : null;
}

/**
 * A numberer that hands out the next ID of an entry year, each call continuing after the highest
 * number of that year among `taken` and the IDs it already handed out. Throws a RangeError when a
 * year's 9,999 numbers are used up.
 */
export function createStudentNumberer(taken: Iterable<string>): (entryYear: number) => string {
  const takenIds = [...taken];
  const highest = new Map<number, number>();
  const highestOf = (entryYear: number): number => {
    let found = highest.get(entryYear);
    if (found === undefined) {
      found = 0;
      for (const id of takenIds) found = Math.max(found, sequenceOf(id, entryYear) ?? 0);
    }
    return found;
  };
  return (entryYear) => {
    const next = highestOf(entryYear) + 1;
    const id = studentIdOf(entryYear, next);
    highest.set(entryYear, next);
    return id;
  };
}
