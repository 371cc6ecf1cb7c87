import type { LookupName } from '../../shared/lookups.schemas.js';
import type { Db } from '../db/database.js';

/** The lookup lists (docs/requirements.md R4), each in the order a select shows them. */

export const listTowns = (db: Db) => db.selectFrom('towns').select(['id', 'town_name']).orderBy('town_name').execute();
export const listRegionalCorporations = (db: Db) =>
  db.selectFrom('regional_corporations').select(['id', 'title']).orderBy('title').execute();
export const listReligions = (db: Db) => db.selectFrom('religions').select(['code', 'religion']).orderBy('religion').execute();
export const listEthnicGroups = (db: Db) => db.selectFrom('ethnic_groups').select(['id', 'group_type']).orderBy('group_type').execute();
export const listHouses = (db: Db) => db.selectFrom('houses').select(['id', 'name', 'color']).orderBy('name').execute();
export const listFormClasses = (db: Db) =>
  db.selectFrom('form_classes').select(['id', 'form_level']).orderBy('form_level').orderBy('id').execute();
export const listPrimarySchools = (db: Db) =>
  db.selectFrom('primary_schools').select(['id', 'name', 'district']).orderBy('name').execute();

/** Each lookup's table and the column a record stores its value in. */
const STORED_VALUE = {
  towns: (db: Db, value: string) => db.selectFrom('towns').select('id').where('town_name', '=', value),
  regionalCorporations: (db: Db, value: string) => db.selectFrom('regional_corporations').select('id').where('title', '=', value),
  religions: (db: Db, value: string) => db.selectFrom('religions').select('code').where('code', '=', value),
  ethnicGroups: (db: Db, value: string) => db.selectFrom('ethnic_groups').select('id').where('id', '=', value),
  houses: (db: Db, value: string) => db.selectFrom('houses').select('id').where('id', '=', value),
  formClasses: (db: Db, value: string) => db.selectFrom('form_classes').select('id').where('id', '=', value),
  primarySchools: (db: Db, value: string) => db.selectFrom('primary_schools').select('id').where('name', '=', value),
} satisfies Record<LookupName, unknown>;

/** Whether `value` is a row of the lookup (by the column a record stores). */
export async function lookupValueExists(db: Db, lookup: LookupName, value: string): Promise<boolean> {
  const row = await STORED_VALUE[lookup](db, value).executeTakeFirst();
  return row !== undefined;
}
