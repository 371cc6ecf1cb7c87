import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  PostgresAdapter,
  CompiledQuery,
  type Compilable,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
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
  return new Kysely<Database>({ dialect: new ClaimedSqliteDialect(withStatementCache(sqlite), file) });
}

// ---------------------------------------------------------------------------------------------
// Compiled statements run directly on SQLite's one connection

/**
 * SQLite's one connection (the statement-cached better-sqlite3 handle) and how many Kysely callers
 * have asked for it and not yet given it back: a query in flight, an open transaction, a
 * `connection()` block, including those still waiting for it.
 */
interface SqliteConnectionClaims {
  database: SqliteDatabase;
  claims: number;
  /** The file it was opened on (':memory:' for a throwaway one). */
  file: string;
  /** Run when the database is destroyed, before the connection closes (see `sqliteFileOf`). */
  closers: (() => Promise<void> | void)[];
}

const claimsByAdapter = new WeakMap<DialectAdapter, SqliteConnectionClaims>();
/**
 * Kysely instances bound to the connection while `commitGroup` holds it. (A `transaction()`'s
 * queries keep going through Kysely, which refuses them once it has committed.)
 */
const holdingInstances = new WeakSet<object>();

/** Kysely's SQLite driver, counting who has asked for its connection (see `runsDirectly`). */
class ClaimedSqliteDriver extends SqliteDriver {
  constructor(private readonly connectionClaims: SqliteConnectionClaims) {
    super({ database: connectionClaims.database });
  }
  override async acquireConnection(): Promise<DatabaseConnection> {
    this.connectionClaims.claims++;
    try {
      return await super.acquireConnection();
    } catch (error) {
      this.connectionClaims.claims--;
      throw error;
    }
  }
  override async releaseConnection(): Promise<void> {
    // Given back before the next waiter wakes; that waiter still counts until it gives it back.
    this.connectionClaims.claims--;
    await super.releaseConnection();
  }
  override async destroy(): Promise<void> {
    const closers = this.connectionClaims.closers.splice(0);
    await Promise.all(closers.map((close) => close()));
    await super.destroy();
  }
}

class ClaimedSqliteDialect extends SqliteDialect {
  private readonly connectionClaims: SqliteConnectionClaims;
  constructor(database: SqliteDatabase, file: string) {
    super({ database });
    this.connectionClaims = { database, claims: 0, file, closers: [] };
  }
  override createDriver(): Driver {
    return new ClaimedSqliteDriver(this.connectionClaims);
  }
  override createAdapter(): DialectAdapter {
    const adapter = super.createAdapter();
    claimsByAdapter.set(adapter, this.connectionClaims);
    return adapter;
  }
}

/**
 * The SQLite connection a compiled query may run on at once, synchronously, or undefined when it
 * must go through Kysely (PostgreSQL, plugins, or the connection is someone else's now).
 *
 * Kysely runs each query through a chain of promises (the executor, the connection provider, the
 * driver's mutex, the plugins): about 2–3 µs of CPU a statement, more than SQLite takes for a
 * small indexed one, and a save runs ten (docs/performance.md). better-sqlite3 is synchronous, so
 * a statement run directly cannot interleave with anything; it is only wrong while another caller
 * holds the connection between statements (an open transaction). So it runs directly when nobody
 * has claimed the connection, or when the caller is the group commit holding it; otherwise it
 * waits its turn through Kysely as before.
 */
function directConnectionOf(db: Db): SqliteDatabase | undefined {
  const executor = db.getExecutor();
  const connection = claimsByAdapter.get(executor.adapter);
  if (!connection || executor.plugins.length > 0) return undefined;
  if (connection.claims === 0) return connection.database;
  return holdingInstances.has(db) ? connection.database : undefined;
}

/**
 * The SQLite file behind a Kysely instance (or a transaction of it) and a way to run something
 * when the database is destroyed; undefined on PostgreSQL and for an in-memory database.
 */
export function sqliteFileOf(db: Db): { file: string; onDestroy(close: () => Promise<void> | void): void } | undefined {
  const connection = claimsByAdapter.get(db.getExecutor().adapter);
  if (!connection || connection.file === ':memory:') return undefined;
  return { file: connection.file, onDestroy: (close) => void connection.closers.push(close) };
}

/** Runs a compiled query on the connection itself, answering what Kysely's SQLite driver answers. */
function runDirectly<Row>(database: SqliteDatabase, query: CompiledQuery<Row>): Promise<QueryResult<Row>> {
  try {
    const statement = database.prepare(query.sql);
    if (statement.reader) return Promise.resolve({ rows: statement.all(query.parameters) as Row[] });
    const { changes, lastInsertRowid } = statement.run(query.parameters);
    return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] });
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/** Runs a compiled query: directly on SQLite's connection when that is safe, else through Kysely. */
export function executeCompiled<Row>(db: Db, query: CompiledQuery<Row>): Promise<QueryResult<Row>> {
  const direct = directConnectionOf(db);
  return direct ? runDirectly(direct, query) : db.executeQuery(query);
}

/** Distinct SQL texts kept compiled; dynamic ones (IN lists of varying length) fall out first. */
const STATEMENT_CACHE_SIZE = 500;
/** Statements that change the schema: compiled statements (and their column lists) are dropped first. */
const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

/**
 * Kysely asks better-sqlite3 to prepare every query anew, and compiling a statement costs about
 * as much as running a small indexed query; on the autosave path (ten statements a save) it was
 * the largest single cost (docs/performance.md). Statements are compiled once per SQL text and
 * reused (least recently used dropped). Safe because Kysely runs one query at a time on SQLite's
 * single connection, and SQLite re-prepares a statement itself after a schema change.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        if (SCHEMA_CHANGE.test(sql)) cache.clear();
        const compiled = sqlite.prepare(sql);
        statement = compiled.reader ? withFastRows(compiled) : compiled;
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

type RowConstructor = (values: readonly unknown[]) => Record<string, unknown>;

/**
 * A function making the object better-sqlite3 makes of a row, from the row's values in column
 * order: one object literal, which V8 creates in one step with a fixed shape, where better-sqlite3
 * adds the properties one by one — for the 98 columns of a student row that was half the cost of
 * reading it (docs/performance.md). The names are written as JSON strings, so no column name can
 * break out of the literal; a repeated name keeps its last value, as with better-sqlite3.
 */
function rowConstructorFor(names: readonly string[]): RowConstructor {
  const properties = names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`);
  return new Function('values', `return { ${properties.join(', ')} };`) as RowConstructor;
}

/**
 * A reading statement answering rows as objects built by a row constructor from its values
 * (better-sqlite3's raw mode). Should the column count change under it (another process changed
 * the schema; in this process a schema change empties the cache), the constructor is rebuilt.
 */
function withFastRows(statement: SQLite.Statement): SqliteStatement {
  statement.raw(true);
  let names: string[] = [];
  let toRow: RowConstructor = rowConstructorFor(names);
  const rowOf = (values: readonly unknown[]) => {
    if (values.length !== names.length) {
      names = statement.columns().map((column) => column.name);
      toRow = rowConstructorFor(names);
    }
    return toRow(values);
  };
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map((values) => rowOf(values)),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>) yield rowOf(values);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Queries compiled once

/** Stands for the value at `path` in a prepared query's values (see `preparedQuery`). */
class QueryParameter {
  constructor(readonly path: readonly string[]) {}
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/**
 * The values with every leaf replaced by a stand-in naming its path. Undefined properties are
 * left out, as Kysely leaves them out of inserts and updates.
 */
function standInsFor(value: unknown, path: readonly string[] = []): unknown {
  if (Array.isArray(value)) return value.map((item, i) => standInsFor(item, [...path, String(i)]));
  if (!isPlainObject(value)) return new QueryParameter(path);
  const standIn: Record<string, unknown> = {};
  for (const key in value) if (value[key] !== undefined) standIn[key] = standInsFor(value[key], [...path, key]);
  return standIn;
}

function valueAt(values: unknown, path: readonly string[]): unknown {
  let at = values;
  for (const key of path) at = (at as Record<string, unknown>)[key];
  return at;
}

/** A compiled query and, for each of its parameters, the path of its value (null: a constant). */
interface PreparedShape<Row> {
  query: CompiledQuery<Row>;
  paths: (readonly string[] | null)[];
}

/** Distinct shapes kept compiled per query and engine (column sets of a partial update, row counts). */
const SHAPES_PER_QUERY = 200;

/**
 * A query built and compiled by Kysely once per engine (and shape of its values), then run with
 * new values. Building and compiling a Kysely query costs several times what SQLite takes to
 * answer a small indexed one (docs/performance.md), and the hot paths run the same few queries
 * over and over. `values` holds the query's parameters (primitives) in plain objects and arrays;
 * `build` is called once with stand-ins in their places, so it must use them only as values, never
 * to decide the query's shape, and each stand-in is replaced by the value at its path when the
 * query runs. When the keys or lengths of `values` vary (a partial update, a list of rows),
 * `shapeOf` must answer a different key for each shape; by default there is one. Works on the
 * database, a transaction or a connection (they share the adapter).
 */
export function preparedQuery<Values, Row>(
  build: (db: Db, values: Values) => Compilable<Row>,
  shapeOf: (values: Values) => string = () => '',
): (db: Db, values: Values) => Promise<QueryResult<Row>> {
  const shapesByEngine = new WeakMap<DialectAdapter, Map<string, PreparedShape<Row>>>();
  const prepare = (db: Db, values: Values): PreparedShape<Row> => {
    const query = build(db, standInsFor(values) as Values).compile();
    const paths = query.parameters.map((parameter) => (parameter instanceof QueryParameter ? parameter.path : null));
    return { query, paths };
  };
  return (db, values) => {
    const adapter = db.getExecutor().adapter;
    let shapes = shapesByEngine.get(adapter);
    if (!shapes) shapesByEngine.set(adapter, (shapes = new Map()));
    const shape = shapeOf(values);
    let prepared = shapes.get(shape);
    if (!prepared) {
      prepared = prepare(db, values);
      if (shapes.size >= SHAPES_PER_QUERY) shapes.clear();
      shapes.set(shape, prepared);
    }
    const { query, paths } = prepared;
    const parameters = new Array<unknown>(paths.length);
    for (let i = 0; i < paths.length; i++) {
      const path = paths[i];
      parameters[i] = path ? valueAt(values, path) : query.parameters[i];
    }
    return executeCompiled<Row>(db, { ...query, parameters });
  };
}

/** The shape key of a record of optional values: its defined keys (for `preparedQuery`). */
export function definedKeysOf(values: Record<string, unknown>): string {
  let keys = '';
  for (const key in values) if (values[key] !== undefined) keys += `${key},`;
  return keys;
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
 * alone, the others commit together and are answered after the shared commit. A commit is the
 * largest single cost of a small write on SQLite (the WAL pages it writes), and SQLite runs one
 * writer at a time anyway. `begin immediate` takes the write lock first, so a second process on
 * the same file waits (busy_timeout) instead of failing midway. On PostgreSQL, where the pool runs
 * transactions side by side and rows are locked one by one, each work keeps a transaction of its own.
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
      // This block holds the connection: the group's statements run on it directly.
      holdingInstances.add(connection);
      await executeCompiled(connection, BEGIN_IMMEDIATE);
      try {
        for (const { work, resolve, reject } of group) {
          await executeCompiled(connection, SAVEPOINT);
          try {
            const value = await work(connection);
            await executeCompiled(connection, RELEASE);
            outcomes.push(() => resolve(value));
          } catch (error) {
            // Undo this work alone. Should even that fail, SQLite has ended the transaction
            // itself (disk full, I/O error): the throw fails the whole group, none of it answered as saved.
            await executeCompiled(connection, ROLLBACK_TO);
            await executeCompiled(connection, RELEASE);
            outcomes.push(() => reject(error));
          }
        }
        await executeCompiled(connection, COMMIT);
      } catch (error) {
        await executeCompiled(connection, ROLLBACK).catch(() => undefined);
        throw error;
      } finally {
        holdingInstances.delete(connection);
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
