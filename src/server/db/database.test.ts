import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, type Db } from './database.js';

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
