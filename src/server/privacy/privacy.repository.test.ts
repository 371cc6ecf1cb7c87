import { CompiledQuery, sql, type Compilable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/test-database.js';
import { aboutStudent, fieldChangesOf } from './privacy.repository.js';

/**
 * A student's field history and audit view read only that student's rows through the audit log's
 * indexes (migration 0003), on both engines: none of them scans the whole log, which would hold
 * the server for as long as the log is long. Both planners are given statistics of a log with other
 * students' rows; PostgreSQL is also asked with sequential scans priced out, since a test log is
 * small enough for it to prefer one.
 */
describe('the audit reads of one student use an index', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    // The planners judge by statistics: a log's worth of other students' rows, counted.
    const at = new Date().toISOString();
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      actor_user_id: null,
      actor_label: `student:S${i % 400}`,
      action: 'update',
      entity: 'student',
      entity_id: `S${i % 400}`,
      field: 'home_address',
      old_value: null,
      new_value: `${i} Street`,
      ip: null,
      request_id: null,
      created_at: at,
      updated_at: at,
    }));
    for (let i = 0; i < rows.length; i += 200) await t.db.insertInto('audit_log').values(rows.slice(i, i + 200)).execute();
    await sql`analyze`.execute(t.db);
  });
  afterAll(async () => {
    await t.destroy();
  });

  async function planOf(query: Compilable<unknown>): Promise<string> {
    const { sql, parameters } = query.compile();
    return t.db.connection().execute(async (connection) => {
      if (t.engine === 'postgres') await connection.executeQuery(CompiledQuery.raw('set enable_seqscan = off'));
      const prefix = t.engine === 'postgres' ? 'explain ' : 'explain query plan ';
      const { rows } = await connection.executeQuery<Record<string, string>>(CompiledQuery.raw(prefix + sql, [...parameters]));
      if (t.engine === 'postgres') await connection.executeQuery(CompiledQuery.raw('reset enable_seqscan'));
      return rows.map((row) => row.detail ?? row['QUERY PLAN']).join('\n');
    });
  }

  const FULL_SCAN = /Seq Scan on audit_log|^SCAN audit_log/m;

  it.each([
    ['the field history', () => fieldChangesOf(t.db, '20260001')],
    ['the audit view of a student with an account', () => aboutStudent(t.db, '20260001', 7).selectAll().orderBy('id', 'desc').limit(51)],
    ['a page of it, by action', () => aboutStudent(t.db, '20260001', 7).selectAll().where('action', '=', 'update').where('id', '<', 1000).orderBy('id', 'desc').limit(51)],
    ['the audit view of a student without one', () => aboutStudent(t.db, '20260001', null).selectAll().orderBy('id', 'asc')],
    ["the privacy deletion's look-up", () => aboutStudent(t.db, '20260001', 7).select('id')],
  ])('%s', async (_name, query) => {
    const plan = await planOf(query());
    expect(plan).toMatch(/audit_entity_idx/);
    expect(plan).not.toMatch(FULL_SCAN);
  });
});
