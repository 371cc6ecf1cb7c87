import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, PostgresAdapter, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** SQLite file; ':memory:' for throwaway databases. */
  sqliteFile?: string;
}

// Normalise PostgreSQL's answers to what SQLite answers, so nothing above the repositories can
// tell the engines apart: bigint counts as numbers, numeric as numbers, dates as text.
pg.types.setTypeParser(20, (value) => Number(value)); // int8 (count(*))
pg.types.setTypeParser(1700, (value) => Number(value)); // numeric
pg.types.setTypeParser(1082, (value) => value); // date

/** Opens the database the configuration names: PostgreSQL when a URL is given, else SQLite. */
export function createDatabase(options: DatabaseOptions): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle pooled connection that the server ends (restart, failover, pg_terminate_backend)
    // emits 'error' on the pool; unhandled, that would crash the process. The pool drops the
    // broken client and the next query opens a new one, so there is nothing else to do here.
    pool.on('error', () => undefined);
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const file = options.sqliteFile ?? ':memory:';
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: a commit survives a process crash (SIGKILL); only an OS crash or power
  // loss may lose the last transactions. See docs/decisions.md.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

/** Distinct SQL texts kept compiled; dynamic ones (IN lists of varying length) fall out first. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely asks better-sqlite3 to prepare every query anew, and compiling a statement costs about
 * as much as running a small indexed query; on the autosave path (ten statements a save) it was
 * the largest single cost (docs/performance.md). Statements are compiled once per SQL text and
 * reused (least recently used dropped). Safe because Kysely runs one query at a time on SQLite's
 * single connection, and SQLite re-prepares a statement itself after a schema change.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: only the adapter is read
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The current time as the ISO text every timestamp column holds. */
export function nowIso(): string {
  return new Date().toISOString();
}
