import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/test-database.js';
import { nowIso } from './database.js';
import { readOffTheLoop } from './off-loop-reads.js';

/** A raw query in the shape readOffTheLoop takes (a query builder's compile and execute). */
function raw<Row>(t: TestDatabase, text: string, parameters: unknown[] = []) {
  const query = CompiledQuery.raw(text, parameters) as CompiledQuery<Row>;
  return { compile: () => query, execute: async () => (await t.db.executeQuery(query)).rows };
}

/** How many turns the event loop made while `work` ran. */
async function turnsWhile(work: Promise<unknown>): Promise<number> {
  let turns = 0;
  let done = false;
  void work.finally(() => (done = true));
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    turns++;
  }
  await work;
  return turns;
}

describe('reads off the event loop (the audit log scans)', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const auditOf = (entityId: string) =>
    t.db.selectFrom('audit_log').selectAll().where('entity', '=', 'student').where('entity_id', '=', entityId).orderBy('id', 'asc');

  it("answers what the server's own connection answers", async () => {
    const at = nowIso();
    await t.db
      .insertInto('audit_log')
      .values(
        ['one', 'two'].map((value) => ({
          actor_user_id: null,
          actor_label: 'admin:test',
          action: 'update',
          entity: 'student',
          entity_id: 'OFFLOOP-1',
          field: 'home_address',
          old_value: null,
          new_value: value,
          ip: '127.0.0.1',
          request_id: 'r1',
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    const rows = await readOffTheLoop(t.db, auditOf('OFFLOOP-1'));
    expect(rows.map((row) => row.new_value)).toEqual(['one', 'two']);
    expect(rows).toEqual(await auditOf('OFFLOOP-1').execute());
  });

  it('keeps the event loop turning while a long read runs', async () => {
    const long = raw<{ n: number }>(t, 'with recursive c(n) as (select 1 union all select n + 1 from c where n < 1000000) select count(*) as n from c');
    const read = readOffTheLoop(t.db, long);
    expect(await turnsWhile(read)).toBeGreaterThan(10);
    expect(Number((await read)[0]!.n)).toBe(1_000_000);
  });

  it('reads what is committed, beside a transaction the server holds open', async () => {
    // On SQLite the read runs on a connection of its own (the server's is held by this transaction,
    // so a read on it would wait for the commit that waits for the read); on PostgreSQL on the pool.
    await t.db.transaction().execute(async (trx) => {
      const at = nowIso();
      await trx
        .insertInto('audit_log')
        .values({ actor_user_id: null, actor_label: 'admin:test', action: 'update', entity: 'student', entity_id: 'OFFLOOP-2', field: 'home_address', old_value: null, new_value: 'uncommitted', ip: null, request_id: 'r2', created_at: at, updated_at: at })
        .execute();
      expect(await readOffTheLoop(t.db, auditOf('OFFLOOP-2'))).toEqual([]);
    });
    expect((await readOffTheLoop(t.db, auditOf('OFFLOOP-2'))).map((row) => row.new_value)).toEqual(['uncommitted']);
  });

  it('refuses a broken query with its error, and goes on answering', async () => {
    await expect(readOffTheLoop(t.db, raw(t, 'select * from no_such_table'))).rejects.toThrow(/no_such_table/);
    expect((await readOffTheLoop(t.db, auditOf('OFFLOOP-1'))).length).toBe(2);
  });
});
