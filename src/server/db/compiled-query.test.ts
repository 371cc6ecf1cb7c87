import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/test-database.js';
import { compiledOnce, type SlotOf } from './compiled-query.js';
import { nowIso } from './database.js';

/** A query compiled once runs through Kysely with each call's values, on both engines. */
describe('compiledOnce', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t.destroy();
  });

  let builds = 0;
  const townsNamed = compiledOnce((db, slot: SlotOf<{ name: string; limit: number }>) => {
    builds++;
    return db.selectFrom('towns').select('town_name').where('town_name', '=', slot('name')).where('id', '>', 0).limit(slot('limit'));
  });

  it('builds once and answers each call with its own values', async () => {
    const [first] = await t.db.selectFrom('towns').select('town_name').orderBy('id').limit(1).execute();
    expect(await townsNamed(t.db, { name: first!.town_name, limit: 5 })).toEqual([{ town_name: first!.town_name }]);
    expect(await townsNamed(t.db, { name: 'Nowhere At All', limit: 5 })).toEqual([]);
    expect(await townsNamed(t.db, { name: first!.town_name, limit: 5 })).toEqual([{ town_name: first!.town_name }]);
    expect(builds).toBe(1);
  });

  it("runs in a transaction through Kysely: sees the transaction's own rows, and none after a rollback", async () => {
    const at = nowIso();
    await t.db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('towns').values({ town_name: 'Compiled Town', created_at: at, updated_at: at }).execute();
        expect(await townsNamed(trx, { name: 'Compiled Town', limit: 1 })).toEqual([{ town_name: 'Compiled Town' }]);
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
    expect(await townsNamed(t.db, { name: 'Compiled Town', limit: 1 })).toEqual([]);
  });

  it('refuses to run without a value for a stand-in, rather than bind a null', async () => {
    await expect(townsNamed(t.db, { name: undefined as unknown as string, limit: 1 })).rejects.toThrow("no value for 'name'");
  });
});
