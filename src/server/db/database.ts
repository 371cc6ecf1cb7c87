import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDatabase, type SqliteStatement } from 'kysely';
import { isPostgres } from './engine.js';
import { loadPg } from './pg-driver.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** SQLite file; ':memory:' for throwaway databases. */
  sqliteFile?: string;
}

/**
 * How the portal runs SQLite (the bench's baselines open their copies with the same list).
 * WAL: readers never wait for the writer. synchronous = FULL: every commit is on disk before it is
 * acknowledged, so a save answered as saved survives a power cut, as on PostgreSQL (docs/decisions.md
 * D11); group commit below shares that fsync among the saves of a turn. busy_timeout: a second
 * process on the same file waits for the write lock instead of failing.
 */
export const SQLITE_PRAGMAS = ['journal_mode = WAL', 'synchronous = FULL', 'foreign_keys = ON', 'busy_timeout = 5000'] as const;

/**
 * How long the portal waits on PostgreSQL (docs/decisions.md D36). A server that does not take the
 * connection within PG_CONNECT_TIMEOUT_MS counts as down: the call answers 503 at once instead of
 * holding the request, and its socket, until the operating system gives up minutes later.
 */
const PG_CONNECT_TIMEOUT_MS = 5_000;
/**
 * No statement of the portal comes near 30 s (the largest import writes in chunks); one that does
 * waits on a lock or a runaway plan, and the server cancels it (57014, a 503). Server-side, so the
 * connection stays usable; pg's client-side `query_timeout` would hand Kysely a connection whose
 * statement still runs, and Kysely would put it back in the pool for the next caller.
 */
const PG_STATEMENT_TIMEOUT_MS = 30_000;
/** A transaction left open by a stalled process would hold its row locks; the server ends it. */
const PG_IDLE_IN_TRANSACTION_TIMEOUT_MS = 5 * 60_000;
/** TCP keepalive finds a connection whose peer vanished without closing it (a cut network). */
const PG_KEEPALIVE_DELAY_MS = 10_000;

/** Opens the database the configuration names: PostgreSQL when a URL is given, else SQLite. */
export function createDatabase(options: DatabaseOptions): Db {
  if (options.databaseUrl) {
    const pool = new (loadPg().Pool)({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      statement_timeout: PG_STATEMENT_TIMEOUT_MS,
      idle_in_transaction_session_timeout: PG_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: PG_KEEPALIVE_DELAY_MS,
    });
    // A connection the server or the network ends (restart, failover, pg_terminate_backend, a
    // cut cable) emits 'error' on its client, and on the pool when idle; unhandled, either would
    // end the process. The query running on it fails on its own (a 503), the pool drops the
    // broken client, and the next query opens a new one, so there is nothing else to do here.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const file = options.sqliteFile ?? ':memory:';
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  for (const pragma of SQLITE_PRAGMAS) sqlite.pragma(pragma);
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

/**
 * After SQLITE_FULL, SQLITE_IOERR or SQLITE_NOMEM, SQLite may have rolled the transaction back
 * itself (https://www.sqlite.org/lang_transaction.html, "Response To Errors Within A
 * Transaction"). Kysely then sends ROLLBACK, which fails with "cannot rollback - no transaction is
 * active" and replaces the error that ended the transaction, so the log and the answer named the
 * rollback, not the full disk. With no transaction open, a ROLLBACK has nothing to do: it is skipped.
 */
const ROLLBACK_TEXT = /^\s*rollback\s*;?\s*$/i;
const ALREADY_ROLLED_BACK: SqliteStatement = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
};

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
      if (!sqlite.inTransaction && ROLLBACK_TEXT.test(text)) return ALREADY_ROLLED_BACK;
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
            // itself (disk full, I/O error): the work's own error fails the whole group (the
            // savepoint's "no such savepoint" would hide why), none of it answered as saved.
            try {
              await connection.executeQuery(ROLLBACK_TO);
              await connection.executeQuery(RELEASE);
            } catch {
              throw error;
            }
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

/** Which engine a database is (engine.ts): most callers ask it here, beside the database. */
export { isPostgres };

/** Runs the smallest query there is: throws whatever the engine throws when it cannot answer. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

/** The current time as the ISO text every timestamp column holds. */
export function nowIso(): string {
  return new Date().toISOString();
}
