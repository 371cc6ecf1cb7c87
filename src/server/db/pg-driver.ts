import { createRequire } from 'node:module';

type Pg = typeof import('pg');

let loaded: Pg | undefined;

/**
 * node-postgres, loaded when a PostgreSQL database is first opened: a portal on SQLite never
 * carries it (about 4 MB of a server at rest, docs/performance.md). Loading it sets how its
 * answers are read, so nothing above the repositories can tell the engines apart: bigint counts
 * as numbers, numeric as numbers, dates as text, as SQLite answers them.
 */
export function loadPg(): Pg {
  if (loaded) return loaded;
  const pg = createRequire(import.meta.url)('pg') as Pg;
  pg.types.setTypeParser(20, (value) => Number(value)); // int8 (count(*))
  pg.types.setTypeParser(1700, (value) => Number(value)); // numeric
  pg.types.setTypeParser(1082, (value) => value); // date
  loaded = pg;
  return pg;
}

/** node-postgres if a database opened it, else undefined (then no error can be one of its). */
export function loadedPg(): Pg | undefined {
  return loaded;
}
