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

/** A staff account's `role` before 0024 renamed it to 'staff' (D88), for rows written below it. */
const STAFF_BEFORE_0024 = 'admin' as never;

async function tableNames(db: Db): Promise<string[]> {
  const tables = await db.introspection.getTables();
  return tables.map((table) => table.name).filter((name) => !name.startsWith('kysely_')).sort();
}

/** Takes migrations down, newest first, until `name` is undone: each test names only the migration it is about. */
async function migrateDownThrough(db: Db, name: string): Promise<void> {
  for (let undone = await migrateOneDown(db); undone !== name; undone = await migrateOneDown(db)) {
    if (undone === undefined) throw new Error(`${name} was never taken down`);
  }
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
    await migrateDownThrough(db, '0003-audit-indexes');
    expect(await indexNames(db, 'audit_log')).toEqual([]);
    await migrateToLatest(db);
    expect(await indexNames(db, 'audit_log')).toEqual(['audit_actor_idx', 'audit_entity_idx']);
  });

  const addStudent = (db: Db, id: string, values: { birth_certificate_no?: string | null; sea_no?: string | null }) => {
    const iso = new Date().toISOString();
    return db.insertInto('students').values({ id, ...values, created_at: iso, updated_at: iso }).execute();
  };

  it('0004 keeps each birth certificate pin and SEA number to one student, in any case; empty ones are free', async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db);
    await addStudent(db, 'S1', { birth_certificate_no: 'B26-0001', sea_no: 'SEA2026-1' });
    await expect(addStudent(db, 'S2', { birth_certificate_no: 'b26-0001' })).rejects.toThrow(/unique|duplicate/i);
    await expect(addStudent(db, 'S3', { sea_no: 'sea2026-1' })).rejects.toThrow(/unique|duplicate/i);
    // One student's pin may equal another's SEA number (the first login refuses that ambiguity itself).
    await addStudent(db, 'S4', { birth_certificate_no: 'SEA2026-1' });
    for (const id of ['S5', 'S6']) await addStudent(db, id, { birth_certificate_no: null, sea_no: null });
    expect((await db.selectFrom('students').select('id').orderBy('id').execute()).map((row) => row.id)).toEqual(['S1', 'S4', 'S5', 'S6']);
  });

  it('0004 stops on a database where a number is already shared, naming the students, and runs once they are corrected', async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db);
    await migrateDownThrough(db, '0004-unique-identity-numbers');
    await addStudent(db, '20220001', { birth_certificate_no: 'B12-7', sea_no: 'SEA-1' });
    await addStudent(db, '20230002', { birth_certificate_no: 'b12-7', sea_no: 'SEA-2' });
    await addStudent(db, '20240003', { birth_certificate_no: 'B14-1', sea_no: 'sea-2' });
    const failure = await migrateToLatest(db).then(
      () => 'migrated',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(failure).toContain('0004-unique-identity-numbers');
    expect(failure).toContain('B12-7 (students 20220001, 20230002)');
    expect(failure).toContain('SEA-2 (students 20230002, 20240003)');
    expect(failure).toMatch(/Correct these students/);
    expect(await indexNames(db, 'students')).not.toContain('students_birth_certificate_no_unique');

    await db.updateTable('students').set({ birth_certificate_no: 'B13-2' }).where('id', '=', '20230002').execute();
    await db.updateTable('students').set({ sea_no: null }).where('id', '=', '20240003').execute();
    await migrateToLatest(db);
    expect(await indexNames(db, 'students')).toEqual(expect.arrayContaining(['students_birth_certificate_no_unique', 'students_sea_no_unique']));
  });

  it('0005 moves sign-in delays into rate_limits and drops the accounts\' lock columns; its down restores them', async () => {
    const db = await emptyDatabase();
    const columnsOf = async (table: string) => (await db.introspection.getTables()).find((t) => t.name === table)!.columns.map((c) => c.name);
    await migrateToLatest(db);
    expect(await columnsOf('rate_limits')).toContain('blocked_until_ms');
    expect(await columnsOf('users')).not.toContain('failed_attempts');
    expect(await columnsOf('users')).not.toContain('locked_until');
    await migrateDownThrough(db, '0005-sign-in-delays');
    expect(await columnsOf('rate_limits')).not.toContain('blocked_until_ms');
    expect(await columnsOf('users')).toEqual(expect.arrayContaining(['failed_attempts', 'locked_until']));
  });

  it('0006 gives each session its "keep me signed in" choice; sessions from before keep their lasting cookie; its down drops it', async () => {
    const db = await emptyDatabase();
    const columnsOf = async (table: string) => (await db.introspection.getTables()).find((t) => t.name === table)!.columns.map((c) => c.name);
    await migrateToLatest(db);
    await migrateDownThrough(db, '0006-session-remember');
    expect(await columnsOf('sessions')).not.toContain('remember');
    const iso = new Date().toISOString();
    const user = await db.insertInto('users').values({ role: STAFF_BEFORE_0024, username: 'office', password_hash: 'x', created_at: iso, updated_at: iso }).returning('id').executeTakeFirstOrThrow();
    const session = { user_id: user.id, created_at: iso, updated_at: iso, last_seen_at: iso, expires_at: iso, ip: null, user_agent: null };
    await db.insertInto('sessions').values({ ...session, id_hash: 'before' }).execute();
    await migrateToLatest(db);
    await db.insertInto('sessions').values({ ...session, id_hash: 'after' }).execute();
    const rows = await db.selectFrom('sessions').select(['id_hash', 'remember']).orderBy('id_hash').execute();
    expect(rows).toEqual([
      { id_hash: 'after', remember: 0 },
      { id_hash: 'before', remember: 1 },
    ]);
  });

  it('0007 makes every existing staff account an administrator, keeps students roleless, and its down drops the staff tables', async () => {
    const db = await emptyDatabase();
    const columnsOf = async (table: string) => (await db.introspection.getTables()).find((t) => t.name === table)!.columns.map((c) => c.name);
    await migrateToLatest(db);
    await migrateDownThrough(db, '0007-staff-roles');
    const iso = new Date().toISOString();
    await db.insertInto('students').values({ id: 'S1', created_at: iso, updated_at: iso }).execute();
    await db.insertInto('users').values({ role: STAFF_BEFORE_0024, username: 'head', password_hash: 'x', created_at: iso, updated_at: iso }).execute();
    await db.insertInto('users').values({ role: 'student', student_id: 'S1', password_hash: 'x', created_at: iso, updated_at: iso }).execute();
    await migrateToLatest(db);
    const rows = await db.selectFrom('users').select(['role', 'staff_role', 'disabled']).orderBy('role').execute();
    expect(rows).toEqual([
      { role: 'staff', staff_role: 'administrator', disabled: 0 },
      { role: 'student', staff_role: null, disabled: 0 },
    ]);
    await expect(db.updateTable('users').set({ staff_role: 'janitor' as never }).where('role', '=', 'staff').execute()).rejects.toThrow(/check/i);
    await migrateDownThrough(db, '0007-staff-roles');
    expect(await tableNames(db)).not.toContain('staff_classes');
    expect(await columnsOf('users')).not.toContain('staff_role');
  });

  it('0009 keeps the outbox with its due index and its states; its down drops it', async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db);
    expect(await indexNames(db, 'outbox')).toEqual(expect.arrayContaining(['outbox_due_idx']));
    const iso = new Date().toISOString();
    const message = { to_address: 'parent@example.com', template: 'test-message', data: '{}', next_attempt_at: iso, created_at: iso, updated_at: iso };
    await db.insertInto('outbox').values({ ...message, message_key: 'k1' }).execute();
    expect(await db.selectFrom('outbox').select(['state', 'tries']).executeTakeFirstOrThrow()).toEqual({ state: 'queued', tries: 0 });
    await expect(db.insertInto('outbox').values({ ...message, message_key: 'k1' }).execute()).rejects.toThrow(/unique|duplicate/i);
    await expect(db.insertInto('outbox').values({ ...message, message_key: 'k2', state: 'lost' as never }).execute()).rejects.toThrow(/check/i);
    await migrateDownThrough(db, '0009-outbox');
    expect(await tableNames(db)).not.toContain('outbox');
  });

  it('0010 admits family accounts, unique by e-mail among them, keeping every account and its sessions; its down removes them', async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db);
    await migrateDownThrough(db, '0010-family-accounts');
    const iso = new Date().toISOString();
    await db.insertInto('students').values({ id: 'X1', first_name: 'Ann', created_at: iso, updated_at: iso }).execute();
    const student = await db.insertInto('users').values({ role: 'student', student_id: 'X1', created_at: iso, updated_at: iso }).returning('id').executeTakeFirstOrThrow();
    const staff = await db.insertInto('users').values({ role: STAFF_BEFORE_0024, staff_role: 'office', username: 'clerk', email: 'same@example.com', created_at: iso, updated_at: iso }).returning('id').executeTakeFirstOrThrow();
    const session = { expires_at: iso, last_seen_at: iso, created_at: iso, updated_at: iso, ip: null, user_agent: null };
    await db.insertInto('sessions').values({ ...session, id_hash: 'h1', user_id: student.id }).execute();
    await expect(db.insertInto('users').values({ role: 'guardian' as never, email: 'p@example.com', created_at: iso, updated_at: iso }).execute()).rejects.toThrow(/check/i);

    await migrateToLatest(db);
    const guardian = { role: 'guardian' as const, email: 'same@example.com', created_at: iso, updated_at: iso };
    // A staff member may be a parent with the same address; two family accounts may not share one.
    await db.insertInto('users').values(guardian).execute();
    await expect(db.insertInto('users').values(guardian).execute()).rejects.toThrow(/unique|duplicate/i);
    expect(await db.selectFrom('users').select(['id', 'role']).where('id', 'in', [student.id, staff.id]).orderBy('id').execute()).toEqual([
      { id: student.id, role: 'student' },
      { id: staff.id, role: 'staff' },
    ]);
    expect(await db.selectFrom('sessions').select('user_id').execute()).toEqual([{ user_id: student.id }]);
    // The rebuilt users table still cascades: a deleted account takes its sessions with it.
    await db.deleteFrom('users').where('id', '=', student.id).execute();
    expect(await db.selectFrom('sessions').select('user_id').execute()).toEqual([]);

    await migrateDownThrough(db, '0010-family-accounts');
    expect(await db.selectFrom('users').select('role').execute()).toEqual([{ role: 'admin' }]);
    expect(await tableNames(db)).not.toContain('guardian_students');
    await expect(db.insertInto('users').values(guardian).execute()).rejects.toThrow(/check/i);
  });

  it('0012 keeps one notice per notice key (many without one) and one mark per parent e-mail; its down drops the tables', async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db);
    const iso = new Date().toISOString();
    await db.insertInto('students').values({ id: 'X1', first_name: 'Ann', created_at: iso, updated_at: iso }).execute();
    const notice = { recipient_key: 'email:p@example.com', email: 'p@example.com', kind: 'attendance-digest', data: '{}', created_at: iso, updated_at: iso };
    await db.insertInto('notices').values({ ...notice, notice_key: null }).execute();
    await db.insertInto('notices').values({ ...notice, notice_key: null }).execute();
    await db.insertInto('notices').values({ ...notice, notice_key: 'digest:email:p@example.com:2026-11-02' }).execute();
    await expect(db.insertInto('notices').values({ ...notice, notice_key: 'digest:email:p@example.com:2026-11-02' }).execute()).rejects.toThrow(/unique|duplicate/i);
    const mark = { student_id: 'X1', parent: 'mother' as const, email: 'p@example.com', verified_by_user_id: null, created_at: iso, updated_at: iso };
    await db.insertInto('parent_email_verifications').values(mark).execute();
    await expect(db.insertInto('parent_email_verifications').values(mark).execute()).rejects.toThrow(/unique|duplicate|primary/i);
    await expect(db.insertInto('parent_email_verifications').values({ ...mark, parent: 'aunt' as never }).execute()).rejects.toThrow(/check/i);
    await migrateDownThrough(db, '0012-notices');
    expect(await tableNames(db)).not.toContain('notices');
    expect(await tableNames(db)).not.toContain('parent_email_verifications');
  });

  it('0013 keeps former students (left_on, left_class) and the rollover runs; its down drops them and keeps every student', async () => {
    const db = await emptyDatabase();
    const columnsOf = async (table: string) => (await db.introspection.getTables()).find((t) => t.name === table)!.columns.map((c) => c.name);
    await migrateToLatest(db);
    const iso = new Date().toISOString();
    await db.insertInto('students').values({ id: 'X1', first_name: 'Ann', class_id: null, left_on: '2027-09-01', left_class: '5A', created_at: iso, updated_at: iso }).execute();
    await db.insertInto('year_rollovers').values({ from_year: 2026, to_year: 2027, run_on: '2027-09-01', run_by_user_id: null, before_state: '{}', summary: '{}', created_at: iso, updated_at: iso }).execute();
    expect(await db.selectFrom('students').select(['left_on', 'left_class']).executeTakeFirstOrThrow()).toEqual({ left_on: '2027-09-01', left_class: '5A' });
    await migrateDownThrough(db, '0013-year-rollover');
    expect(await tableNames(db)).not.toContain('year_rollovers');
    expect(await columnsOf('students')).not.toContain('left_on');
    expect(await columnsOf('students')).not.toContain('left_class');
    expect(await db.selectFrom('students').select('id').execute()).toEqual([{ id: 'X1' }]);
    await migrateToLatest(db);
    expect(await columnsOf('students')).toEqual(expect.arrayContaining(['left_on', 'left_class']));
  });

  it('0014 keeps one intake row per SEA number (ignoring case) and a listed sex; its down drops the table', async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db);
    const iso = new Date().toISOString();
    await db.insertInto('form_classes').values({ id: '1A', form_level: 1, form_teacher: null, created_at: iso, updated_at: iso }).execute();
    const child = { row_number: 2, file_name: 'sea.csv', sea_no: 'SEA-1', first_name: 'Ann', middle_name: null, last_name: 'Lee', date_of_birth: '2014-01-02', sex: 'Female' as const, primary_school: 'Arima Boys RC', class_id: '1A', created_at: iso, updated_at: iso };
    await db.insertInto('intake_students').values(child).execute();
    await expect(db.insertInto('intake_students').values({ ...child, sea_no: 'sea-1' }).execute()).rejects.toThrow(/unique|duplicate/i);
    await expect(db.insertInto('intake_students').values({ ...child, sea_no: 'SEA-2', sex: 'F' as never }).execute()).rejects.toThrow(/check/i);
    await migrateDownThrough(db, '0014-sea-intake');
    expect(await tableNames(db)).not.toContain('intake_students');
    await migrateToLatest(db);
    expect(await tableNames(db)).toContain('intake_students');
  });

  it('0017 empties the link secrets of sent messages only; its down changes nothing', async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db);
    await migrateDownThrough(db, '0017-outbox-sent-secrets');
    const iso = new Date().toISOString();
    const message = (state: 'sent' | 'failed' | 'queued', key: string) => ({
      to_address: `${state}@example.com`, template: 'family-invitation', data: JSON.stringify({ studentName: 'Ann', token: `secret-${state}` }),
      state, tries: 1, next_attempt_at: iso, message_key: key, created_at: iso, updated_at: iso,
    });
    await db.insertInto('outbox').values([message('sent', 'k1'), message('failed', 'k2'), message('queued', 'k3')]).execute();
    await migrateToLatest(db);
    const rows = await db.selectFrom('outbox').select(['state', 'data']).orderBy('id').execute();
    expect(rows.map((row) => [row.state, JSON.parse(row.data) as unknown])).toEqual([
      ['sent', { studentName: 'Ann', token: '' }],
      ['failed', { studentName: 'Ann', token: 'secret-failed' }],
      ['queued', { studentName: 'Ann', token: 'secret-queued' }],
    ]);
  });

  it('0015 keeps one re-registration per year and one row per student and step, removed with the year; its down drops both', async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db);
    const iso = new Date().toISOString();
    await db.insertInto('students').values({ id: 'X1', first_name: 'Ann', created_at: iso, updated_at: iso }).execute();
    const year = { year: 2026, opened_by: null, opened_at: iso, created_at: iso, updated_at: iso };
    await db.insertInto('re_registrations').values(year).execute();
    await expect(db.insertInto('re_registrations').values(year).execute()).rejects.toThrow(/unique|duplicate|primary/i);
    const step = { year: 2026, student_id: 'X1', step: 'family' as const, created_at: iso, updated_at: iso };
    await db.insertInto('re_registration_steps').values(step).execute();
    await expect(db.insertInto('re_registration_steps').values(step).execute()).rejects.toThrow(/unique|duplicate|primary/i);
    await expect(db.insertInto('re_registration_steps').values({ ...step, step: 'complete' as never }).execute()).rejects.toThrow(/check/i);
    await expect(db.insertInto('re_registration_steps').values({ ...step, step: 'health', how: 'maybe' as never }).execute()).rejects.toThrow(/check/i);
    await db.deleteFrom('re_registrations').where('year', '=', 2026).execute();
    expect(await db.selectFrom('re_registration_steps').select('step').execute()).toEqual([]);
    await migrateDownThrough(db, '0015-re-registration');
    expect(await tableNames(db)).not.toContain('re_registrations');
    expect(await tableNames(db)).not.toContain('re_registration_steps');
    await migrateToLatest(db);
    expect(await tableNames(db)).toEqual(expect.arrayContaining(['re_registrations', 're_registration_steps']));
  });

  it("0016 drops the family tokens' password hash (a waiting registration's link stays, without it); its down brings the column back empty", async () => {
    const db = await emptyDatabase();
    const columnsOf = async (table: string) => (await db.introspection.getTables()).find((t) => t.name === table)!.columns.map((c) => c.name);
    await migrateToLatest(db);
    await migrateDownThrough(db, '0016-family-verify-password');
    expect(await columnsOf('family_tokens')).toContain('password_hash');
    const iso = new Date().toISOString();
    const waiting = { purpose: 'verify-email', token_hash: 'h1', email: 'a@example.com', name: 'A', password_hash: '$argon2id$old', expires_at: iso, created_at: iso, updated_at: iso };
    await db.insertInto('family_tokens').values(waiting as never).execute();
    await migrateToLatest(db);
    expect(await columnsOf('family_tokens')).not.toContain('password_hash');
    expect(await db.selectFrom('family_tokens').select(['token_hash', 'email', 'name']).execute()).toEqual([{ token_hash: 'h1', email: 'a@example.com', name: 'A' }]);
    await migrateDownThrough(db, '0016-family-verify-password');
    const restored = await sql<{ token_hash: string; password_hash: string | null }>`select token_hash, password_hash from family_tokens`.execute(db);
    expect(restored.rows).toEqual([{ token_hash: 'h1', password_hash: null }]);
  });

  it('0019 keeps a No someone chose, makes an untouched 0 not answered, and its down makes them 0 again', async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db);
    await migrateDownThrough(db, '0019-yes-no-answers');
    const iso = new Date().toISOString();
    for (const id of ['N1', 'N2', 'N3']) await db.insertInto('students').values({ id, polio: 0, asthma: 0, measles: 1, created_at: iso, updated_at: iso }).execute();
    const audit = { actor_user_id: null, actor_label: 'student:N1', ip: null, request_id: null, entity: 'student', created_at: iso, updated_at: iso };
    await db
      .insertInto('audit_log')
      .values([
        // N1 saved polio as No; N2 was imported with asthma No; N3 was never touched.
        { ...audit, action: 'update', entity_id: 'N1', field: 'polio', old_value: '1', new_value: '0' },
        { ...audit, action: 'create', entity_id: 'N2', field: null, old_value: null, new_value: JSON.stringify({ first_name: 'B', asthma: 0 }) },
      ])
      .execute();
    await migrateToLatest(db);
    const rows = await db.selectFrom('students').select(['id', 'polio', 'asthma', 'measles', 'terms_and_conditions', 'agreed_by_name']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'N1', polio: 0, asthma: null, measles: 1, terms_and_conditions: 0, agreed_by_name: null },
      { id: 'N2', polio: null, asthma: 0, measles: 1, terms_and_conditions: 0, agreed_by_name: null },
      { id: 'N3', polio: null, asthma: null, measles: 1, terms_and_conditions: 0, agreed_by_name: null },
    ]);
    await migrateDownThrough(db, '0019-yes-no-answers');
    const down = await db.selectFrom('students').select(['id', 'polio', 'asthma']).orderBy('id').execute();
    expect(down).toEqual([
      { id: 'N1', polio: 0, asthma: 0 },
      { id: 'N2', polio: 0, asthma: 0 },
      { id: 'N3', polio: 0, asthma: 0 },
    ]);
    await expect(db.insertInto('students').values({ id: 'N4', polio: null, created_at: iso, updated_at: iso }).execute()).rejects.toThrow(/null/i);
    await migrateToLatest(db);
  });

  it('0021 gives every student an entry and every former student an exit, and its down drops the history', async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db);
    await migrateDownThrough(db, '0021-enrolment-history');
    // 18:00 on 1 September in Port of Spain is 22:00 UTC the same day; 02:00 UTC on 2 September is still 1 September there.
    const students = [
      { id: '20250001', class_id: '2A', left_on: null, left_class: null, created_at: '2025-09-02T02:00:00.000Z' },
      { id: '20250002', class_id: '2B', left_on: null, left_class: null, created_at: '2025-09-02T02:00:00.000Z' },
      { id: 'OLD1', class_id: '3C', left_on: null, left_class: null, created_at: '2024-01-10T15:00:00.000Z' },
      { id: 'LEFT1', class_id: null, left_on: '2026-07-10', left_class: '5A', created_at: '2026-08-01T15:00:00.000Z' },
    ];
    const iso = new Date().toISOString();
    await db.insertInto('form_classes').values(['2A', '2B', '3C'].map((id) => ({ id, form_level: Number(id[0]), created_at: iso, updated_at: iso }))).execute();
    for (const s of students) await db.insertInto('students').values({ ...s, updated_at: s.created_at }).execute();
    const audit = { actor_user_id: null, actor_label: 'admin:office', ip: null, request_id: null, created_at: '2025-09-02T02:00:00.000Z', updated_at: '2025-09-02T02:00:00.000Z' };
    await db
      .insertInto('audit_log')
      .values([
        // The intake numbered 20250001; 20250002 was added afterwards, in 1B as its create says.
        { ...audit, action: 'finalise', entity: 'intake', entity_id: null, field: null, old_value: null, new_value: '1 students, 20250001 to 20250001' },
        { ...audit, action: 'create', entity: 'student', entity_id: '20250001', field: null, old_value: null, new_value: JSON.stringify({ class_id: '1A' }) },
        { ...audit, action: 'create', entity: 'student', entity_id: '20250002', field: null, old_value: null, new_value: JSON.stringify({ class_id: '1B' }) },
      ])
      .execute();
    await migrateToLatest(db);
    const events = await db
      .selectFrom('enrolment_events')
      .select(['student_id', 'kind', 'happened_on', 'reason', 'class_id', 'other_school', 'note'])
      .orderBy('student_id')
      .orderBy('happened_on')
      .orderBy('id')
      .execute();
    const none = { other_school: null, note: null };
    expect(events).toEqual([
      { student_id: '20250001', kind: 'entry', happened_on: '2025-09-01', reason: 'form1_intake', class_id: '1A', ...none },
      { student_id: '20250002', kind: 'entry', happened_on: '2025-09-01', reason: 'enrolled', class_id: '1B', ...none },
      // The record was made after the student left (the rollover's leaver, recorded later): the entry is not after the exit.
      { student_id: 'LEFT1', kind: 'entry', happened_on: '2026-07-10', reason: 'enrolled', class_id: '5A', ...none },
      { student_id: 'LEFT1', kind: 'exit', happened_on: '2026-07-10', reason: 'graduated', class_id: '5A', ...none },
      { student_id: 'OLD1', kind: 'entry', happened_on: '2024-01-10', reason: 'enrolled', class_id: '3C', ...none },
    ]);
    // A student's history goes with the student.
    await db.deleteFrom('audit_log').execute();
    await db.deleteFrom('students').where('id', '=', 'OLD1').execute();
    expect(await db.selectFrom('enrolment_events').select('id').where('student_id', '=', 'OLD1').execute()).toEqual([]);
    await migrateDownThrough(db, '0021-enrolment-history');
    await expect(db.selectFrom('enrolment_events').select('id').execute()).rejects.toThrow(/enrolment_events/);
    await migrateToLatest(db);
    expect((await db.selectFrom('enrolment_events').select('student_id').execute()).length).toBe(4);
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
    // A yes/no question nobody answered is null on both engines (D75).
    expect(student).toEqual({ date_of_birth: '2012-05-06', asthma: 1, polio: null, created_at: iso });
    const doc = await db.selectFrom('documents').select('bytes').executeTakeFirstOrThrow();
    expect(Buffer.from(doc.bytes)).toEqual(Buffer.from([1, 2, 3]));
    const count = await db.selectFrom('students').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    expect(count.n).toBe(1);
  });

  it("0022 stores the names of the records already held as the list's search reads them, and its down takes the column away", async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db);
    await migrateDownThrough(db, '0022-student-search-name');
    const iso = new Date().toISOString();
    await db.insertInto('students').values({ id: 'X1', first_name: 'Chloé', middle_name: 'Ann', last_name: 'DÚRAN', created_at: iso, updated_at: iso }).execute();
    await db.insertInto('students').values({ id: 'X2', created_at: iso, updated_at: iso }).execute();
    await migrateToLatest(db);
    const rows = await db.selectFrom('students').select(['id', 'search_name']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'X1', search_name: 'chloe ann duran' },
      { id: 'X2', search_name: '' },
    ]);
    await migrateDownThrough(db, '0022-student-search-name');
    await expect(sql`select search_name from students`.execute(db)).rejects.toThrow();
  });

  it("0024 renames the staff accounts' role from 'admin' to 'staff', keeping every account and its sessions; its down renames them back", async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db);
    await migrateDownThrough(db, '0024-user-role-staff');
    const iso = new Date().toISOString();
    await db.insertInto('students').values({ id: 'X1', created_at: iso, updated_at: iso }).execute();
    const student = await db.insertInto('users').values({ role: 'student', student_id: 'X1', created_at: iso, updated_at: iso }).returning('id').executeTakeFirstOrThrow();
    const staff = await db.insertInto('users').values({ role: STAFF_BEFORE_0024, staff_role: 'form_teacher', username: 'teacher', created_at: iso, updated_at: iso }).returning('id').executeTakeFirstOrThrow();
    const guardian = await db.insertInto('users').values({ role: 'guardian', email: 'p@example.com', created_at: iso, updated_at: iso }).returning('id').executeTakeFirstOrThrow();
    const session = { expires_at: iso, last_seen_at: iso, created_at: iso, updated_at: iso, ip: null, user_agent: null };
    await db.insertInto('sessions').values({ ...session, id_hash: 'h1', user_id: staff.id }).execute();
    await expect(db.insertInto('users').values({ role: 'staff', username: 'early', created_at: iso, updated_at: iso }).execute()).rejects.toThrow(/check/i);
    const roles = () => db.selectFrom('users').select(['id', 'role', 'staff_role']).orderBy('id').execute();

    await migrateToLatest(db);
    expect(await roles()).toEqual([
      { id: student.id, role: 'student', staff_role: null },
      { id: staff.id, role: 'staff', staff_role: 'form_teacher' },
      { id: guardian.id, role: 'guardian', staff_role: null },
    ]);
    expect(await db.selectFrom('sessions').select('user_id').execute()).toEqual([{ user_id: staff.id }]);
    await expect(db.insertInto('users').values({ role: STAFF_BEFORE_0024, username: 'late', created_at: iso, updated_at: iso }).execute()).rejects.toThrow(/check/i);
    // The rebuilt users table (SQLite) keeps its indexes, and its foreign keys (the cascade below).
    await expect(db.insertInto('users').values({ role: 'guardian', email: 'p@example.com', created_at: iso, updated_at: iso }).execute()).rejects.toThrow(/unique|duplicate/i);

    await migrateDownThrough(db, '0024-user-role-staff');
    expect(await roles()).toEqual([
      { id: student.id, role: 'student', staff_role: null },
      { id: staff.id, role: 'admin', staff_role: 'form_teacher' },
      { id: guardian.id, role: 'guardian', staff_role: null },
    ]);
    await expect(db.insertInto('users').values({ role: 'staff', username: 'after', created_at: iso, updated_at: iso }).execute()).rejects.toThrow(/check/i);
    await db.deleteFrom('users').where('id', '=', staff.id).execute();
    expect(await db.selectFrom('sessions').select('user_id').execute()).toEqual([]);
  });
  it('0025 keeps a note to its lists and its days in order, its attachment with it; its down takes both tables away', async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db);
    const iso = new Date().toISOString();
    await db.insertInto('students').values({ id: 'N1', created_at: iso, updated_at: iso }).execute();
    const note = { student_id: 'N1', sender: 'family' as const, date_from: '2026-11-02', date_to: '2026-11-03', part: 'whole_day' as const, reason: 'illness', created_at: iso, updated_at: iso };
    const { id } = await db.insertInto('absence_notes').values(note).returning('id').executeTakeFirstOrThrow();
    expect(await db.selectFrom('absence_notes').select(['state', 'text']).executeTakeFirstOrThrow()).toEqual({ state: 'waiting', text: '' });
    await expect(db.insertInto('absence_notes').values({ ...note, date_from: '2026-11-04' }).execute()).rejects.toThrow(/check/i);
    await expect(db.insertInto('absence_notes').values({ ...note, part: 'evening' as never }).execute()).rejects.toThrow(/check/i);
    await expect(db.insertInto('absence_notes').values({ ...note, state: 'lost' as never }).execute()).rejects.toThrow(/check/i);
    await db.insertInto('absence_note_attachments').values({ note_id: id, file_name: 'a.png', mime: 'image/png', size: 1, sha256: 'x', bytes: Buffer.from([1]), created_at: iso, updated_at: iso }).execute();
    await expect(db.insertInto('absence_note_attachments').values({ note_id: id, file_name: 'b.png', mime: 'image/png', size: 1, sha256: 'y', bytes: Buffer.from([2]), created_at: iso, updated_at: iso }).execute()).rejects.toThrow(/unique|duplicate|primary/i);
    expect(await indexNames(db, 'absence_notes')).toEqual(['absence_notes_queue_idx', 'absence_notes_student_idx']);
    await migrateDownThrough(db, '0025-absence-notes');
    expect(await tableNames(db)).not.toContain('absence_notes');
    expect(await tableNames(db)).not.toContain('absence_note_attachments');
  });
  it("0026 keeps a staff member's school e-mail and provider subject, each unique; its down takes them away", async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db);
    const iso = new Date().toISOString();
    const staff = (username: string, extra: object) => db.insertInto('users').values({ role: 'staff', staff_role: 'form_teacher', username, created_at: iso, updated_at: iso, ...extra }).execute();
    await staff('a', { sign_in_email: 'a@school.tt', oidc_issuer: 'https://idp', oidc_subject: 's1' });
    await staff('b', { sign_in_email: null, oidc_issuer: 'https://other', oidc_subject: 's1' });
    await staff('c', {});
    await staff('d', {});
    await expect(staff('e', { sign_in_email: 'a@school.tt' })).rejects.toThrow(/unique|duplicate/i);
    await expect(staff('f', { oidc_issuer: 'https://idp', oidc_subject: 's1' })).rejects.toThrow(/unique|duplicate/i);
    await migrateDownThrough(db, '0026-staff-school-sign-in');
    await expect(sql`select sign_in_email from users`.execute(db)).rejects.toThrow();
    expect(await db.selectFrom('users').select('username').orderBy('username').execute()).toEqual([{ username: 'a' }, { username: 'b' }, { username: 'c' }, { username: 'd' }]);
  });
});
