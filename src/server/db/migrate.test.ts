import crypto from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDatabase, type Db } from './database.js';
import { migrateAllDown, migrateOneDown, migrateToLatest } from './migrate.js';
import { currentEngine, dropWhenClosed, pgUrlFor, runPgAdmin } from '../../../tests/support/test-database.js';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function emptyDatabase(): Promise<Db> {
  if (currentEngine() === 'postgres') {
    const name = `portal_migrate_${crypto.randomBytes(5).toString('hex')}`;
    await runPgAdmin(`CREATE DATABASE ${name}`);
    const db = createDatabase({ databaseUrl: pgUrlFor(name) });
    cleanups.push(async () => {
      await db.destroy();
      await dropWhenClosed(name);
    });
    return db;
  }
  const db = createDatabase({ sqliteFile: ':memory:' });
  cleanups.push(() => db.destroy());
  return db;
}

/** The names of a table's indexes (without the primary key's). */
async function indexNames(db: Db, table: string): Promise<string[]> {
  const query =
    currentEngine() === 'postgres'
      ? sql<{ name: string }>`select indexname as name from pg_indexes where tablename = ${table} and indexname not like '%_pkey'`
      : sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`;
  return (await query.execute(db)).rows.map((row) => row.name).sort();
}

async function tableNames(db: Db): Promise<string[]> {
  const tables = await db.introspection.getTables();
  return tables.map((table) => table.name).filter((name) => !name.startsWith('kysely_')).sort();
}

describe(`migrations on ${currentEngine()}`, () => {
  it('run up → down → up and leave the whole data model', async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db);
    const first = await tableNames(db);
    expect(first).toEqual(
      expect.arrayContaining(['students', 'users', 'documents', 'term_results', 'attendance_records', 'sessions', 'audit_log', 'registration_progress']),
    );
    await migrateAllDown(db);
    expect(await tableNames(db)).toEqual([]);
    await migrateToLatest(db);
    expect(await tableNames(db)).toEqual(first);
  });

  it("0003 indexes the audit log's reads by student, and its down takes the indexes away again", async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db);
    expect(await indexNames(db, 'audit_log')).toEqual(['audit_actor_idx', 'audit_entity_idx']);
    expect(await migrateOneDown(db)).toBe('0004-sign-in-delays');
    expect(await migrateOneDown(db)).toBe('0003-audit-indexes');
    expect(await indexNames(db, 'audit_log')).toEqual([]);
    await migrateToLatest(db);
    expect(await indexNames(db, 'audit_log')).toEqual(['audit_actor_idx', 'audit_entity_idx']);
  });

  it('0004 moves sign-in delays into rate_limits and drops the accounts\' lock columns; its down restores them', async () => {
    const db = await emptyDatabase();
    const columnsOf = async (table: string) => (await db.introspection.getTables()).find((t) => t.name === table)!.columns.map((c) => c.name);
    await migrateToLatest(db);
    expect(await columnsOf('rate_limits')).toContain('blocked_until_ms');
    expect(await columnsOf('users')).not.toContain('failed_attempts');
    expect(await columnsOf('users')).not.toContain('locked_until');
    expect(await migrateOneDown(db)).toBe('0004-sign-in-delays');
    expect(await columnsOf('rate_limits')).not.toContain('blocked_until_ms');
    expect(await columnsOf('users')).toEqual(expect.arrayContaining(['failed_attempts', 'locked_until']));
  });

  it('stores and answers bytes, flags and dates the same way on both engines', async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db);
    const iso = new Date().toISOString();
    await db.insertInto('students').values({ id: 'X1', first_name: 'Ann', date_of_birth: '2012-05-06', asthma: 1, created_at: iso, updated_at: iso }).execute();
    await db
      .insertInto('documents')
      .values({ public_id: 'p1', student_id: 'X1', file_type: 'picture', file_name: 'a.png', mime: 'image/png', size: 3, sha256: 'x', bytes: Buffer.from([1, 2, 3]), created_at: iso, updated_at: iso })
      .execute();
    const student = await db.selectFrom('students').select(['date_of_birth', 'asthma', 'polio', 'created_at']).executeTakeFirstOrThrow();
    expect(student).toEqual({ date_of_birth: '2012-05-06', asthma: 1, polio: 0, created_at: iso });
    const doc = await db.selectFrom('documents').select('bytes').executeTakeFirstOrThrow();
    expect(Buffer.from(doc.bytes)).toEqual(Buffer.from([1, 2, 3]));
    const count = await db.selectFrom('students').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    expect(count.n).toBe(1);
  });
});
