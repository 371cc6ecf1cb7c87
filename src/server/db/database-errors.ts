import SQLite from 'better-sqlite3';
import { loadedPg } from './pg-driver.js';

/**
 * What kind of database failure an error is, for either engine, so that the error handler answers
 * the caller something true (docs/decisions.md D36) and nothing above `db/` needs to know the
 * engines' error codes:
 * - `unreachable`: no connection to the database (refused, timed out, ended, wrong credentials);
 * - `busy`: the database is there but could not do it now (locked, cancelled after the statement
 *   timeout, out of connections, a deadlock or serialisation failure);
 * - `disk_full`: nothing more can be written;
 * - `duplicate`: a unique index or key refused a write. A service checks before it writes and
 *   answers its own 409 where a clash has a cause to name; one that still reaches the handler is
 *   two writes that raced past that check (two windows, a double click, two processes), and the
 *   transaction wrote nothing: a conflict to reload, never a 500.
 * Anything else (another constraint, a bug) is not a database *failure* and answers undefined.
 */
export type DatabaseFailure = 'unreachable' | 'busy' | 'disk_full' | 'duplicate';

/** Node's codes for a connection that could not be made or was cut. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/**
 * node-postgres reports a connection it lost or could not open in time with these messages and no
 * code (pg/lib/client.js, pg-pool/index.js); the pool's own wait for a free connection is `busy`.
 */
const PG_CONNECTION_LOST = /^(Connection terminated|Client has encountered a connection error)/;
const PG_POOL_WAIT = /^timeout exceeded when trying to connect$/;

/** PostgreSQL SQLSTATE codes (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
function classifyPostgres(code: string): DatabaseFailure | undefined {
  if (code === '53100') return 'disk_full';
  // 08: connection exception; 57P01–57P03: shutting down, crashed, not yet accepting; 28: bad login;
  // 3D000: no such database (a server being restored).
  if (code.startsWith('08') || /^57P0[1-3]$/.test(code) || code.startsWith('28') || code === '3D000') return 'unreachable';
  // 57014: cancelled (the statement timeout); 53300: too many connections; 55P03: lock not
  // available; 40001/40P01: serialisation failure and deadlock, which a retry resolves.
  if (['57014', '53300', '55P03', '40001', '40P01'].includes(code)) return 'busy';
  // 23505: unique_violation.
  if (code === '23505') return 'duplicate';
  return undefined;
}

/** SQLite result codes (https://www.sqlite.org/rescode.html); extended codes start with the primary one. */
function classifySqlite(code: string): DatabaseFailure | undefined {
  if (code === 'SQLITE_FULL') return 'disk_full';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'busy';
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY')) return 'unreachable';
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return 'duplicate';
  return undefined;
}

/** The kind of database failure `error` is, or undefined when it is not one. */
export function classifyDatabaseError(error: unknown): DatabaseFailure | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error instanceof SQLite.SqliteError) return classifySqlite(error.code);
  const pg = loadedPg();
  if (pg && error instanceof pg.DatabaseError) return error.code ? classifyPostgres(error.code) : undefined;
  const code = (error as NodeJS.ErrnoException).code;
  if (code && NETWORK_CODES.has(code)) return 'unreachable';
  if (PG_CONNECTION_LOST.test(error.message)) return 'unreachable';
  if (PG_POOL_WAIT.test(error.message)) return 'busy';
  // A name that resolves to several addresses (localhost: ::1 and 127.0.0.1) fails with them all.
  if (error instanceof AggregateError) return error.errors.map(classifyDatabaseError).find((kind) => kind !== undefined);
  return undefined;
}
