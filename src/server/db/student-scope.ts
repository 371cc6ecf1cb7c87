import { sql, type RawBuilder } from 'kysely';

/**
 * Which students a list shows (docs/decisions.md D60): the students on the roll, never
 * the former students a year rollover kept (`students.left_on` set), unless the caller asks for
 * them (the student list's and the Registration Data export's "include former students"). Every
 * query that lists students uses this one condition, so a new list cannot forget it differently.
 * It names `students` unaliased: use it in queries over that table or joined to it.
 */
export const onRoll: RawBuilder<boolean> = sql<boolean>`${sql.ref('students.left_on')} is null`;

/** Everyone (true) or only the students on the roll, for a list with the "include former students" option. */
export function studentScope(includeFormer: boolean): RawBuilder<boolean> {
  return includeFormer ? sql<boolean>`1 = 1` : onRoll;
}
