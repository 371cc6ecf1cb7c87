import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { AuditLogTable } from '../db/schema.js';
import type { AuditEntry } from '../../shared/privacy.schemas.js';

/** All SQL of the privacy feature (repositories take `db | trx`: docs/architecture.md "Adding a server feature"). */

export function toAuditEntry(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: Number(row.id),
    at: row.created_at,
    actor: row.actor_label,
    action: row.action,
    entity: row.entity,
    entity_id: row.entity_id,
    field: row.field,
    old_value: row.old_value,
    new_value: row.new_value,
    ip: row.ip,
  };
}

/**
 * Rows about one student: their record, documents, reads and exports, their account, and what
 * they did themselves. Each branch of the OR is served by an index of the log (migration 0003:
 * `(entity, entity_id)` and `actor_label`), so both engines read only that student's rows.
 */
export function aboutStudent(db: Db, studentId: string, userId: number | null) {
  return db.selectFrom('audit_log').where((eb) =>
    eb.or([
      eb.and([eb('entity', 'in', ['student', 'document']), eb('entity_id', '=', studentId)]),
      eb('actor_label', '=', `student:${studentId}`),
      ...(userId === null ? [] : [eb.and([eb('entity', '=', 'user'), eb('entity_id', '=', String(userId))])]),
    ]),
  );
}

export async function listAuditLog(
  db: Db,
  filter: { studentId?: string | undefined; userId?: number | null; action?: string | undefined; beforeId?: number | undefined; limit: number },
): Promise<Selectable<AuditLogTable>[]> {
  let query = filter.studentId ? aboutStudent(db, filter.studentId, filter.userId ?? null) : db.selectFrom('audit_log');
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.beforeId) query = query.where('id', '<', filter.beforeId);
  return query.selectAll().orderBy('id', 'desc').limit(filter.limit).execute();
}

/** A student's field changes: their record's and documents' rows that name a field (index `(entity, entity_id)`). */
export function fieldChangesOf(db: Db, studentId: string) {
  return db
    .selectFrom('audit_log')
    .selectAll()
    .where('entity', 'in', ['student', 'document'])
    .where('entity_id', '=', studentId)
    .where('field', 'is not', null)
    .where('action', 'not in', ['read', 'export', 'report-card-viewed', 'report-card-printed'])
    .orderBy('id', 'asc');
}

/** Every field change of the record and its documents, oldest first. */
export async function listFieldChanges(db: Db, studentId: string): Promise<Selectable<AuditLogTable>[]> {
  return fieldChangesOf(db, studentId).execute();
}

export async function findStudent(db: Db, studentId: string) {
  return db.selectFrom('students').selectAll().where('id', '=', studentId).executeTakeFirst();
}

export async function findStudentUser(db: Db, studentId: string) {
  return db.selectFrom('users').selectAll().where('student_id', '=', studentId).executeTakeFirst();
}

export async function findDocumentOwner(db: Db, publicId: string): Promise<{ student_id: string; file_type: string } | undefined> {
  return db.selectFrom('documents').select(['student_id', 'file_type']).where('public_id', '=', publicId).executeTakeFirst();
}

/** Everything held about one student, for the export. */
export async function loadEverything(db: Db, studentId: string, userId: number | null) {
  const [progress, documents, termResults, termSummaries, attendance, scans, sessions, audit] = await Promise.all([
    db.selectFrom('registration_progress').selectAll().where('student_id', '=', studentId).executeTakeFirst(),
    db.selectFrom('documents').selectAll().where('student_id', '=', studentId).orderBy('file_type').execute(),
    db.selectFrom('term_results').selectAll().where('student_id', '=', studentId).orderBy('year').orderBy('term').orderBy('subject_id').execute(),
    db.selectFrom('term_summaries').selectAll().where('student_id', '=', studentId).orderBy('year').orderBy('term').execute(),
    db.selectFrom('attendance_records').selectAll().where('student_id', '=', studentId).orderBy('date_scanned').execute(),
    db.selectFrom('attendance_scans').selectAll().where('student_id', '=', studentId).orderBy('scanned_date').orderBy('scanned_time').execute(),
    userId === null
      ? Promise.resolve([])
      : db.selectFrom('sessions').select(['created_at', 'last_seen_at', 'expires_at', 'ip', 'user_agent']).where('user_id', '=', userId).orderBy('created_at').execute(),
    aboutStudent(db, studentId, userId).selectAll().orderBy('id', 'asc').execute(),
  ]);
  return { progress, documents, termResults, termSummaries, attendance, scans, sessions, audit };
}

/**
 * Removes the student and every row that names them, in the order the foreign keys need (not
 * relying on ON DELETE CASCADE, so the counts are exact on both engines). Answers rows per table.
 */
export async function deleteEverything(trx: Db, studentId: string, userId: number | null): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const count = (table: string, result: { numDeletedRows: bigint }[]) => {
    counts[table] = result.reduce((sum, r) => sum + Number(r.numDeletedRows), 0);
  };
  const auditIds = (await aboutStudent(trx, studentId, userId).select('id').execute()).map((row) => row.id);
  count('audit_log', auditIds.length > 0 ? await trx.deleteFrom('audit_log').where('id', 'in', auditIds).execute() : []);
  if (userId !== null) {
    count('sessions', await trx.deleteFrom('sessions').where('user_id', '=', userId).execute());
    count('users', await trx.deleteFrom('users').where('id', '=', userId).execute());
  }
  // An absence note's attachment first (it names the note, not the student), then the notes with the other tables (D93).
  count(
    'absence_note_attachments',
    await trx
      .deleteFrom('absence_note_attachments')
      .where('note_id', 'in', trx.selectFrom('absence_notes').select('id').where('student_id', '=', studentId))
      .execute(),
  );
  for (const table of ['absence_notes', 'documents', 'term_results', 'term_summaries', 'attendance_records', 'attendance_scans', 'registration_progress', 'registration_reviews', 'enrolment_events', 'paper_documents'] as const) {
    count(table, await trx.deleteFrom(table).where('student_id', '=', studentId).execute());
  }
  count('students', await trx.deleteFrom('students').where('id', '=', studentId).execute());
  return counts;
}
