import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { classifyDatabaseError } from './database-errors.js';
import { loadPg } from './pg-driver.js';
import { PG_ADMIN_URL, TEMPLATE_DIR, currentEngine } from '../../../tests/support/test-database.js';

/** The engines' real errors, each made happen here, and what kind of failure each is (D36). */

// node-postgres as a portal on PostgreSQL loads it (the classifier knows its errors once it is loaded).
const pg = loadPg();

function sqliteError(run: (db: SQLite.Database) => void, file = ':memory:'): unknown {
  const db = new SQLite(file);
  try {
    run(db);
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
  throw new Error('expected an error');
}

async function pgError(statements: string[], url = PG_ADMIN_URL): Promise<unknown> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  try {
    await client.connect();
    for (const statement of statements) await client.query(statement);
  } catch (error) {
    return error;
  } finally {
    await client.end().catch(() => undefined);
  }
  throw new Error('expected an error');
}

async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('what kind of database failure an error is', () => {
  it('SQLite: a full database is disk_full; a lock held elsewhere is busy; a unique clash duplicate; the rest is no failure', () => {
    const full = sqliteError((db) => {
      db.exec('create table t (b blob)');
      db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
      db.prepare('insert into t values (?)').run(Buffer.alloc(64 * 1024));
    });
    expect(full).toMatchObject({ code: 'SQLITE_FULL' });
    expect(classifyDatabaseError(full)).toBe('disk_full');

    const file = path.join(TEMPLATE_DIR, `busy-${process.pid}-${Date.now()}.sqlite`);
    const holder = new SQLite(file);
    holder.exec('create table t (x); begin immediate; insert into t values (1)');
    const busy = sqliteError((db) => {
      db.pragma('busy_timeout = 0');
      db.exec('begin immediate');
    }, file);
    holder.exec('rollback');
    holder.close();
    for (const extra of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + extra, { force: true });
    expect(busy).toMatchObject({ code: 'SQLITE_BUSY' });
    expect(classifyDatabaseError(busy)).toBe('busy');

    const unique = sqliteError((db) => db.exec('create table u (x unique); insert into u values (1); insert into u values (1)'));
    expect(unique).toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    expect(classifyDatabaseError(unique)).toBe('duplicate');
    const key = sqliteError((db) => db.exec('create table k (id text primary key); insert into k values (1); insert into k values (1)'));
    expect(key).toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    expect(classifyDatabaseError(key)).toBe('duplicate');
    const constraint = sqliteError((db) => db.exec('create table n (x not null); insert into n values (null)'));
    expect(classifyDatabaseError(constraint)).toBeUndefined();
    expect(classifyDatabaseError(new Error('no such table: students'))).toBeUndefined();
    expect(classifyDatabaseError('a string')).toBeUndefined();
  });

  it('PostgreSQL: a closed port and a server that never answers are unreachable', async () => {
    const port = await unusedPort();
    const refused = await pgError(['select 1'], `postgres://postgres@127.0.0.1:${port}/test`);
    expect(refused).toMatchObject({ code: 'ECONNREFUSED' });
    expect(classifyDatabaseError(refused)).toBe('unreachable');

    const silent: net.Socket[] = [];
    const blackHole = net.createServer((socket) => silent.push(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    // A pool, as the portal uses (db/database.ts), with a short connect timeout.
    const pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${(blackHole.address() as net.AddressInfo).port}/test`, connectionTimeoutMillis: 200 });
    const timedOut = await pool.query('select 1').then(
      () => new Error('a black hole answered'),
      (error: unknown) => error,
    );
    await pool.end();
    for (const socket of silent) socket.destroy();
    blackHole.close();
    expect(classifyDatabaseError(timedOut)).toBe('unreachable');
  });

  it.runIf(currentEngine() === 'postgres')('PostgreSQL: a cancelled statement is busy, a terminated connection unreachable, a unique clash duplicate, another constraint no failure', async () => {
    const cancelled = await pgError(['set statement_timeout = 50', 'select pg_sleep(1)']);
    expect(cancelled).toMatchObject({ code: '57014' });
    expect(classifyDatabaseError(cancelled)).toBe('busy');

    const terminated = await pgError(['select pg_terminate_backend(pg_backend_pid())']);
    expect(terminated).toMatchObject({ code: '57P01' });
    expect(classifyDatabaseError(terminated)).toBe('unreachable');

    const unique = await pgError(['create temporary table u (x int unique)', 'insert into u values (1), (1)']);
    expect(unique).toMatchObject({ code: '23505' });
    expect(classifyDatabaseError(unique)).toBe('duplicate');
    const constraint = await pgError(['create temporary table n (x int not null)', 'insert into n values (null)']);
    expect(constraint).toMatchObject({ code: '23502' });
    expect(classifyDatabaseError(constraint)).toBeUndefined();
  });
});
