import type { LookupName } from '../../shared/lookups.schemas.js';
import type { Db } from '../db/database.js';
import * as repo from './lookups.repository.js';

/** The lookup lists, by name (what the routes serve). */
export function listLookup(db: Db, name: LookupName): Promise<readonly object[]> {
  switch (name) {
    case 'towns':
      return repo.listTowns(db);
    case 'regionalCorporations':
      return repo.listRegionalCorporations(db);
    case 'religions':
      return repo.listReligions(db);
    case 'ethnicGroups':
      return repo.listEthnicGroups(db);
    case 'houses':
      return repo.listHouses(db);
    case 'formClasses':
      return repo.listFormClasses(db);
    case 'primarySchools':
      return repo.listPrimarySchools(db);
  }
}

/** Whether a value a record would store exists in its lookup (other features check selects with it). */
export function isLookupValue(db: Db, name: LookupName, value: string): Promise<boolean> {
  return repo.lookupValueExists(db, name, value);
}
