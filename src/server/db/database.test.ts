import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, inGroupedTransaction, type Db } from './database.js';
import { migrateToLatest } from './migrate.js';

/**
 * The SQLite connection reuses prepared statements per SQL text (docs/performance.md). Reuse must
 * never change an answer: not after the schema changes under a cached statement, and not once
 * more distinct statements were run than the cache keeps.
 */
describe('SQLite statement reuse', () => {
  let db: Db | undefined;
  afterEach(async () => {
    await db?.destroy();
    db = undefined;
  });

  it('answers correctly after the table under a cached statement changed shape', async () => {
    db = createDatabase({ sqliteFile: ':memory:' });
    await sql`create table t (id integer primary key, a text)`.execute(db);
    await sql`insert into t (id, a) values (1, 'one')`.execute(db);
    const read = () => sql<Record<string, unknown>>`select * from t where id = ${1}`.execute(db!);
    expect((await read()).rows).toEqual([{ id: 1, a: 'one' }]);
    await sql`alter table t add column b text default 'two'`.execute(db);
    expect((await read()).rows).toEqual([{ id: 1, a: 'one', b: 'two' }]);
  });

  it('keeps answering right past the number of statements it keeps', async () => {
    db = createDatabase({ sqliteFile: ':memory:' });
    for (let i = 0; i < 700; i++) {
      const { rows } = await sql<{ n: number }>`select ${i} + ${sql.lit(i)} as n`.execute(db);
      expect(rows[0]?.n).toBe(2 * i);
    }
    const { rows } = await sql<{ n: number }>`select ${5} + ${sql.lit(0)} as n`.execute(db);
    expect(rows[0]?.n).toBe(5);
  });
});

/**
 * Group commit (docs/decisions.md D25): saves of one event-loop turn share a transaction, each in
 * a savepoint, through Kysely's own connection handling.
 */
describe('group commit on SQLite', () => {
  let db: Db | undefined;
  afterEach(async () => {
    await db?.destroy();
    db = undefined;
  });

  const at = '2026-01-01T00:00:00.000Z';
  const addTown = (trx: Db, name: string) => trx.insertInto('towns').values({ town_name: name, created_at: at, updated_at: at }).executeTakeFirstOrThrow();
  const townsNamed = (trx: Db, name: string) => trx.selectFrom('towns').select(['id', 'town_name']).where('town_name', '=', name).execute();

  async function migrated(): Promise<Db> {
    db = createDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(db);
    return db;
  }

  it('grouped works share a commit; a work that fails is undone alone', async () => {
    const database = await migrated();
    const results = await Promise.allSettled([
      inGroupedTransaction(database, async (trx) => (await addTown(trx, 'First')).numInsertedOrUpdatedRows),
      inGroupedTransaction(database, async (trx) => {
        await addTown(trx, 'Undone');
        throw new Error('this work fails');
      }),
      inGroupedTransaction(database, async (trx) => {
        await trx.updateTable('towns').set({ town_name: 'First, renamed' }).where('town_name', '=', 'First').execute();
        return (await townsNamed(trx, 'First, renamed')).length;
      }),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(results[0]).toEqual({ status: 'fulfilled', value: 1n });
    expect(results[2]).toEqual({ status: 'fulfilled', value: 1 });
    expect(await townsNamed(database, 'Undone')).toEqual([]);
    expect(await townsNamed(database, 'First, renamed')).toHaveLength(1);
  });

  it("another caller's read waits for the group's commit and never sees a work that was undone", async () => {
    const database = await migrated();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const inside = new Promise<void>((resolve) => (started = resolve));
    const group = Promise.allSettled([
      inGroupedTransaction(database, async (trx) => {
        await addTown(trx, 'Kept');
        started();
        await held;
      }),
      inGroupedTransaction(database, async (trx) => {
        await addTown(trx, 'Rolled back');
        throw new Error('undone');
      }),
    ]);
    await inside;
    let answered = false;
    const read = townsNamed(database, 'Kept').then((rows) => {
      answered = true;
      return rows;
    });
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    release();
    await group;
    expect(await read).toHaveLength(1);
    expect(await townsNamed(database, 'Rolled back')).toEqual([]);
  });

  it('runs in WAL with synchronous = FULL: an acknowledged commit is on disk (D11)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-pragmas-'));
    db = createDatabase({ sqliteFile: path.join(dir, 'portal.sqlite') });
    try {
      const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
      const synchronous = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
      expect(journal.rows).toEqual([{ journal_mode: 'wal' }]);
      // 2 = FULL (0 OFF, 1 NORMAL, 3 EXTRA).
      expect(synchronous.rows).toEqual([{ synchronous: 2 }]);
    } finally {
      await db.destroy();
      db = undefined;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * A full disk is named in the error, not hidden behind the rollback that follows it
 * (D36). SQLite's `max_page_count` on the connection makes it full without filling a disk;
 * SQLite then ends the transaction itself, and the ROLLBACK (or ROLLBACK TO) after it failed with
 * "cannot rollback - no transaction is active" ("no such savepoint"), which replaced SQLITE_FULL.
 */
describe('SQLite with a full disk', () => {
  let db: Db | undefined;
  afterEach(async () => {
    await db?.destroy();
    db = undefined;
  });

  async function fullDatabase(): Promise<Db> {
    const full = createDatabase({ sqliteFile: ':memory:' });
    await sql`create table t (id integer primary key, b blob)`.execute(full);
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(full);
    await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(full);
    return full;
  }
  const bigRow = (trx: Db) => sql`insert into t (b) values (${Buffer.alloc(64 * 1024)})`.execute(trx);

  it('reports SQLITE_FULL from a transaction', async () => {
    db = await fullDatabase();
    await expect(db.transaction().execute(bigRow)).rejects.toMatchObject({ code: 'SQLITE_FULL', message: 'database or disk is full' });
    expect((await sql<{ n: number }>`select count(*) as n from t`.execute(db)).rows[0]?.n).toBe(0);
  });

  it('reports SQLITE_FULL to every save of a shared commit, and none is saved', async () => {
    db = await fullDatabase();
    const small = (trx: Db) => sql`insert into t (b) values (${Buffer.alloc(8)})`.execute(trx);
    const outcomes = await Promise.allSettled([inGroupedTransaction(db, small), inGroupedTransaction(db, bigRow), inGroupedTransaction(db, small)]);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_FULL' });
    }
    expect((await sql<{ n: number }>`select count(*) as n from t`.execute(db)).rows[0]?.n).toBe(0);
    // The connection is usable again once there is room.
    await sql`pragma max_page_count = 1000000`.execute(db);
    await inGroupedTransaction(db, small);
    expect((await sql<{ n: number }>`select count(*) as n from t`.execute(db)).rows[0]?.n).toBe(1);
  });
});
