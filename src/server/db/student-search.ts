import { studentNameSearchText } from '../../shared/students.schemas.js';
import type { Db } from './database.js';

/**
 * `students.search_name` (migration 0022, docs/decisions.md D82) follows the names: every write of
 * a student's first, middle or last name goes through one of these, so the list's search finds
 * the record by its names as `studentNameSearchText` folds them.
 */

const NAME_COLUMNS = ['first_name', 'middle_name', 'last_name'] as const;

type Values = Record<string, unknown>;

function touchesNames(values: Values): boolean {
  return NAME_COLUMNS.some((name) => name in values);
}

/** The column for a new record's values. */
export function searchNameOfNew(values: Values): { search_name: string } {
  return { search_name: studentNameSearchText(values) };
}

/**
 * The column for an update of an existing record: nothing when the update leaves the names alone;
 * otherwise the names as the update leaves them (the others read from the row, in the caller's
 * transaction).
 */
export async function searchNameOfUpdate(db: Db, id: string, values: Values): Promise<{ search_name?: string }> {
  if (!touchesNames(values)) return {};
  const row = await db.selectFrom('students').select(NAME_COLUMNS).where('id', '=', id).executeTakeFirst();
  return searchNameOfNew({ ...row, ...values });
}
