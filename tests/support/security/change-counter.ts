import { sql } from 'kysely';
import type { Db } from '../../../src/server/db/database.js';
import { isPostgres } from '../../../src/server/db/database.js';

/**
 * An exact "did anything change" detector for the hostile-input suite: row triggers, installed
 * in the test's own copy of the database only, count every insert, update and delete of the
 * stored data. Reading one small table around each generated call is far cheaper than hashing
 * 30,000 attendance rows, and it also sees an update that leaves updated_at alone.
 *
 * Counters: one per watched table; `users.credentials` counts changes of a user's password,
 * flags, role or names;
 * `students.readonly` counts changes of class_id and house_code (read-only to students).
 */

export const WATCHED_TABLES = [
  'students',
  'registration_progress',
  'registration_periods',
  'documents',
  'term_reports',
  'term_results',
  'term_summaries',
  'attendance_records',
  'attendance_scans',
  'scanner_devices',
  'school_holidays',
  'settings',
  'academic_terms',
  'subjects',
  'grade_keys',
  'assessment_weights',
  'houses',
  'towns',
  'regional_corporations',
  'religions',
  'ethnic_groups',
  'form_classes',
  'primary_schools',
  'audit_log',
  'outbox',
  'absence_notes',
  'absence_note_attachments',
] as const;

const CREDENTIAL_COLUMNS = 'password_hash, first_login, password_reset, role, username, student_id';
const COUNTERS = [...WATCHED_TABLES, 'users', 'users.credentials', 'students.readonly'];

export type ChangeCounts = Record<string, number>;

export async function installChangeCounter(db: Db): Promise<void> {
  const pg = isPostgres(db);
  await sql.raw('create table if not exists sec_changes (t text primary key, n integer not null)').execute(db);
  for (const counter of COUNTERS) {
    await sql`insert into sec_changes (t, n) values (${counter}, 0) on conflict (t) do nothing`.execute(db);
  }
  const bump = (counter: string) => `update sec_changes set n = n + 1 where t = '${counter}'`;
  if (pg) {
    await sql
      .raw(
        `create or replace function sec_bump() returns trigger language plpgsql as $$
         begin update sec_changes set n = n + 1 where t = TG_ARGV[0]; return null; end $$`,
      )
      .execute(db);
    const trigger = async (name: string, event: string, table: string, counter: string) => {
      await sql.raw(`drop trigger if exists ${name} on ${table}`).execute(db);
      await sql.raw(`create trigger ${name} after ${event} on ${table} for each row execute function sec_bump('${counter}')`).execute(db);
    };
    for (const table of [...WATCHED_TABLES, 'users']) await trigger(`sec_${table}`, 'insert or update or delete', table, table);
    await trigger('sec_users_credentials', `update of ${CREDENTIAL_COLUMNS}`, 'users', 'users.credentials');
    await trigger('sec_users_credentials_new', 'insert or delete', 'users', 'users.credentials');
    await trigger('sec_students_readonly', 'update of class_id, house_code', 'students', 'students.readonly');
    return;
  }
  const trigger = async (name: string, event: string, table: string, counter: string) => {
    await sql.raw(`drop trigger if exists ${name}`).execute(db);
    await sql.raw(`create trigger ${name} after ${event} on ${table} for each row begin ${bump(counter)}; end`).execute(db);
  };
  for (const table of [...WATCHED_TABLES, 'users']) {
    for (const event of ['insert', 'update', 'delete']) await trigger(`sec_${table}_${event}`, event, table, table);
  }
  await trigger('sec_users_credentials', `update of ${CREDENTIAL_COLUMNS}`, 'users', 'users.credentials');
  await trigger('sec_users_credentials_ins', 'insert', 'users', 'users.credentials');
  await trigger('sec_users_credentials_del', 'delete', 'users', 'users.credentials');
  await trigger('sec_students_readonly', 'update of class_id, house_code', 'students', 'students.readonly');
}

export async function readChangeCounts(db: Db): Promise<ChangeCounts> {
  const result = await sql<{ t: string; n: number }>`select t, n from sec_changes`.execute(db);
  return Object.fromEntries(result.rows.map((row) => [row.t, Number(row.n)]));
}

/** The counters that moved between two readings, with how much. */
export function changedBetween(before: ChangeCounts, after: ChangeCounts, ignore: readonly string[] = []): Record<string, number> {
  const moved: Record<string, number> = {};
  for (const [counter, n] of Object.entries(after)) {
    if (ignore.includes(counter)) continue;
    const delta = n - (before[counter] ?? 0);
    if (delta !== 0) moved[counter] = delta;
  }
  return moved;
}
