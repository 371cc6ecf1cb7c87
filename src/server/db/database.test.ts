import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, inGroupedTransaction, preparedQuery, type Db } from './database.js';
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
 * Compiled queries run directly on SQLite's one connection when nobody else has claimed it
 * (docs/performance.md, record and autosave). They must never run inside another caller's open
 * transaction: not read what it has not committed, not be rolled back with it.
 */
describe('compiled queries on SQLite\'s one connection', () => {
  let db: Db | undefined;
  afterEach(async () => {
    await db?.destroy();
    db = undefined;
  });

  const at = '2026-01-01T00:00:00.000Z';
  const findTown = preparedQuery((db: Db, { name }: { name: string }) => db.selectFrom('towns').select(['id', 'town_name']).where('town_name', '=', name));
  const addTown = preparedQuery((db: Db, { name }: { name: string }) => db.insertInto('towns').values({ town_name: name, created_at: at, updated_at: at }));
  const renameTown = preparedQuery((db: Db, { from, to }: { from: string; to: string }) => db.updateTable('towns').set({ town_name: to }).where('town_name', '=', from));

  async function migrated(): Promise<Db> {
    db = createDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(db);
    return db;
  }

  /** A transaction of another caller that stays open until `finish` is called. */
  function openTransaction(database: Db, work: (trx: Db) => Promise<void>, outcome: 'commit' | 'rollback') {
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    let begun!: () => void;
    const ready = new Promise<void>((resolve) => (begun = resolve));
    const done = database
      .transaction()
      .execute(async (trx) => {
        await work(trx);
        begun();
        await finished;
        if (outcome === 'rollback') throw new Error('rolled back on purpose');
      })
      .catch((error: Error) => {
        if (error.message !== 'rolled back on purpose') throw error;
      });
    return { ready, finish, done };
  }

  const settled = async (promise: Promise<unknown>) => {
    let isSettled = false;
    void promise.then(() => (isSettled = true), () => (isSettled = true));
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    return isSettled;
  };

  it('answers what Kysely answers: rows, affected rows and the new id', async () => {
    const database = await migrated();
    const inserted = await addTown(database, { name: 'Direct Town' });
    const viaKysely = await database.insertInto('towns').values({ town_name: 'Kysely Town', created_at: at, updated_at: at }).executeTakeFirst();
    expect(inserted.numAffectedRows).toBe(1n);
    expect(inserted.insertId).toBe(BigInt(viaKysely.insertId!) - 1n);
    expect((await findTown(database, { name: 'Direct Town' })).rows).toEqual([{ id: Number(inserted.insertId), town_name: 'Direct Town' }]);
    expect((await renameTown(database, { from: 'Nowhere', to: 'x' })).numAffectedRows).toBe(0n);
  });

  it('a read waits for another caller\'s open transaction and never sees what it rolled back', async () => {
    const database = await migrated();
    const other = openTransaction(database, async (trx) => void (await addTown(trx, { name: 'Uncommitted' })), 'rollback');
    await other.ready;
    const read = findTown(database, { name: 'Uncommitted' });
    expect(await settled(read)).toBe(false);
    other.finish();
    await other.done;
    expect((await read).rows).toEqual([]);
  });

  it('a write made during another caller\'s transaction is not rolled back with it', async () => {
    const database = await migrated();
    const other = openTransaction(database, async (trx) => void (await addTown(trx, { name: 'Theirs' })), 'rollback');
    await other.ready;
    const write = addTown(database, { name: 'Mine' });
    expect(await settled(write)).toBe(false);
    other.finish();
    await other.done;
    await write;
    expect((await findTown(database, { name: 'Mine' })).rows).toHaveLength(1);
    expect((await findTown(database, { name: 'Theirs' })).rows).toEqual([]);
  });

  it('grouped works share a commit and run on the held connection; a work that fails is undone alone', async () => {
    const database = await migrated();
    const results = await Promise.allSettled([
      inGroupedTransaction(database, async (trx) => (await addTown(trx, { name: 'First' })).numAffectedRows),
      inGroupedTransaction(database, async (trx) => {
        await addTown(trx, { name: 'Undone' });
        throw new Error('this work fails');
      }),
      inGroupedTransaction(database, async (trx) => {
        await renameTown(trx, { from: 'First', to: 'First, renamed' });
        return (await findTown(trx, { name: 'First, renamed' })).rows.length;
      }),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(results[2]).toEqual({ status: 'fulfilled', value: 1 });
    expect((await findTown(database, { name: 'Undone' })).rows).toEqual([]);
    expect((await findTown(database, { name: 'First, renamed' })).rows).toHaveLength(1);
  });
});
