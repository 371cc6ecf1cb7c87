import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
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

/**
 * How the portal runs SQLite (the bench's baselines open their copies with the same list).
 * WAL: readers never wait for the writer. synchronous = FULL: every commit is on disk before it is
 * acknowledged, so a save answered as saved survives a power cut, as on PostgreSQL (docs/decisions.md
 * D11); group commit below shares that fsync among the saves of a turn. busy_timeout: a second
 * process on the same file waits for the write lock instead of failing.
 */
export const SQLITE_PRAGMAS = ['journal_mode = WAL', 'synchronous = FULL', 'foreign_keys = ON', 'busy_timeout = 5000'] as const;

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
  for (const pragma of SQLITE_PRAGMAS) sqlite.pragma(pragma);
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

/** Distinct SQL texts kept prepared; dynamic ones (IN lists of varying length) fall out first. */
const STATEMENT_CACHE_SIZE = 500;
/** Statements that change the schema: prepared statements (and their column lists) are dropped first. */
const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

/**
 * better-sqlite3 behind Kysely's public `SqliteDatabase` interface, keeping each prepared statement
 * per SQL text (least recently used dropped). Kysely asks the driver to prepare every query anew,
 * and preparing a small statement costs about as much as running it (docs/performance.md). Safe
 * because Kysely runs one query at a time on SQLite's single connection (its driver holds a
 * mutex), and SQLite re-prepares a statement itself after a schema change.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = cache.get(text);
      if (statement) {
        cache.delete(text);
      } else {
        if (SCHEMA_CHANGE.test(text)) cache.clear();
        statement = sqlite.prepare(text);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Group commit

interface GroupedWork {
  work: (trx: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const waitingByDatabase = new WeakMap<Db, GroupedWork[]>();
const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');
const SAVEPOINT = CompiledQuery.raw('savepoint grouped_work');
const RELEASE = CompiledQuery.raw('release grouped_work');
const ROLLBACK_TO = CompiledQuery.raw('rollback to grouped_work');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

/**
 * Runs `work` in a transaction and settles only after that transaction has committed (or failed).
 * On SQLite, the works that arrive in the same turn of the event loop share one transaction, each
 * in a savepoint of its own (group commit): a work that throws is rolled back alone and fails
 * alone, the others commit together and are answered after the shared commit. With
 * `synchronous = FULL` a commit waits for its fsync, the largest single cost of a small write, and
 * SQLite runs one writer at a time anyway; so a burst of saves pays for one fsync. `begin
 * immediate` takes the write lock first, so a second process on the same file waits
 * (busy_timeout) instead of failing midway. On PostgreSQL, where the pool runs transactions side
 * by side and rows are locked one by one, each work keeps a transaction of its own.
 *
 * Written with Kysely's public API only: the group holds the one connection through
 * `db.connection()`, so every other query waits for the commit as it would for a transaction.
 */
export function inGroupedTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (isPostgres(db)) return db.transaction().execute(work);
  return new Promise<T>((resolve, reject) => {
    let waiting = waitingByDatabase.get(db);
    if (!waiting) {
      const group: GroupedWork[] = (waiting = []);
      waitingByDatabase.set(db, group);
      setImmediate(() => {
        waitingByDatabase.delete(db);
        void commitGroup(db, group);
      });
    }
    waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
  });
}

async function commitGroup(db: Db, group: readonly GroupedWork[]): Promise<void> {
  const outcomes: (() => void)[] = [];
  try {
    await db.connection().execute(async (connection) => {
      await connection.executeQuery(BEGIN_IMMEDIATE);
      try {
        for (const { work, resolve, reject } of group) {
          await connection.executeQuery(SAVEPOINT);
          try {
            const value = await work(connection);
            await connection.executeQuery(RELEASE);
            outcomes.push(() => resolve(value));
          } catch (error) {
            // Undo this work alone. Should even that fail, SQLite has ended the transaction
            // itself (disk full, I/O error): the throw fails the whole group, none of it answered as saved.
            await connection.executeQuery(ROLLBACK_TO);
            await connection.executeQuery(RELEASE);
            outcomes.push(() => reject(error));
          }
        }
        await connection.executeQuery(COMMIT);
      } catch (error) {
        await connection.executeQuery(ROLLBACK).catch(() => undefined);
        throw error;
      }
    });
  } catch (error) {
    for (const { reject } of group) reject(error);
    return;
  }
  for (const settle of outcomes) settle();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: only the adapter is read
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The current time as the ISO text every timestamp column holds. */
export function nowIso(): string {
  return new Date().toISOString();
}
