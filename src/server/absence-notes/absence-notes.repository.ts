import type { ExpressionBuilder, Insertable, Selectable } from 'kysely';
import type { AbsenceNoteQueueQuery } from '../../shared/absence-notes.schemas.js';
import { isPostgres, nowIso, type Db } from '../db/database.js';
import type { AbsenceNoteTable, Database } from '../db/schema.js';

/** All SQL of absence notes (docs/decisions.md D93): functions take a `Db` or a transaction first. */

export type NoteRow = Selectable<AbsenceNoteTable> & {
  /** The sender's name: the family account's display name, or the student's own account's. */
  sent_by_name: string | null;
  decided_by_name: string | null;
  /** The attachment's metadata, null when the note has none. */
  file_name: string | null;
  mime: string | null;
  size: number | null;
};

/** A note with the names of who sent and decided it and its attachment's metadata (never its bytes). */
function notesWithNames(db: Db) {
  return db
    .selectFrom('absence_notes')
    .leftJoin('users as sender', 'sender.id', 'absence_notes.sent_by_user_id')
    .leftJoin('users as decider', 'decider.id', 'absence_notes.decided_by_user_id')
    .leftJoin('absence_note_attachments', 'absence_note_attachments.note_id', 'absence_notes.id')
    .selectAll('absence_notes')
    .select([
      'sender.display_name as sent_by_name',
      (eb) => eb.fn.coalesce('decider.display_name', 'decider.username').as('decided_by_name'),
      'absence_note_attachments.file_name',
      'absence_note_attachments.mime',
      'absence_note_attachments.size',
    ]);
}

/** The student the note rules need: name, class, whether on the roll. */
export async function findStudent(db: Db, studentId: string) {
  return db.selectFrom('students').select(['id', 'first_name', 'last_name', 'class_id', 'left_on']).where('id', '=', studentId).executeTakeFirst();
}

/**
 * On PostgreSQL, locks the student's row until the transaction ends, so two notes for one student
 * (a double submit, two tabs) check for an overlap one after the other: the second sees the
 * first. SQLite transactions begin immediate (db/database.ts): one writer at a time already.
 */
export async function lockStudent(trx: Db, studentId: string): Promise<void> {
  if (!isPostgres(trx)) return;
  await trx.selectFrom('students').select('id').where('id', '=', studentId).forUpdate().execute();
}

/** Waiting notes of the student that cover any day from `from` to `to`. */
export async function listWaitingOverlapping(db: Db, studentId: string, from: string, to: string): Promise<Pick<NoteRow, 'id' | 'part'>[]> {
  return db
    .selectFrom('absence_notes')
    .select(['id', 'part'])
    .where('student_id', '=', studentId)
    .where('state', '=', 'waiting')
    .where('date_from', '<=', to)
    .where('date_to', '>=', from)
    .execute();
}

export type NewNote = Omit<Insertable<AbsenceNoteTable>, 'created_at' | 'updated_at'>;

export async function insertNote(trx: Db, note: NewNote, at: string): Promise<number> {
  const row = await trx
    .insertInto('absence_notes')
    .values({ ...note, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface NewAttachment {
  file_name: string;
  mime: string;
  size: number;
  sha256: string;
  bytes: Buffer;
}

export async function insertAttachment(trx: Db, noteId: number, attachment: NewAttachment, at: string): Promise<void> {
  await trx
    .insertInto('absence_note_attachments')
    .values({ note_id: noteId, ...attachment, created_at: at, updated_at: at })
    .execute();
}

export async function findNote(db: Db, id: number): Promise<NoteRow | undefined> {
  return notesWithNames(db).where('absence_notes.id', '=', id).executeTakeFirst();
}

/** A student's notes, newest days first; only those a student sent themself when `senderOnly` says so. */
export async function listNotesOf(db: Db, studentId: string, senderOnly: 'student' | null): Promise<NoteRow[]> {
  let query = notesWithNames(db).where('absence_notes.student_id', '=', studentId);
  if (senderOnly) query = query.where('absence_notes.sender', '=', senderOnly);
  return query.orderBy('absence_notes.date_from', 'desc').orderBy('absence_notes.id', 'desc').execute();
}

/** better-sqlite3 and pg both answer a Buffer; a Uint8Array from another driver is wrapped without a copy. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export async function findAttachment(db: Db, noteId: number): Promise<{ file_name: string; mime: string; bytes: Buffer } | undefined> {
  const row = await db.selectFrom('absence_note_attachments').select(['file_name', 'mime', 'bytes']).where('note_id', '=', noteId).executeTakeFirst();
  return row ? { ...row, bytes: asBuffer(row.bytes) } : undefined;
}

/**
 * Moves a note out of `waiting` (a decision, a withdrawal): answers false when it no longer waits,
 * so of two decisions at once (two tabs, two teachers) only the first is stored.
 */
export async function leaveWaiting(trx: Db, id: number, values: Partial<Pick<Selectable<AbsenceNoteTable>, 'state' | 'decision_reason' | 'decision_text' | 'decided_by_user_id' | 'decided_at' | 'withdrawn_at'>>): Promise<boolean> {
  const result = await trx
    .updateTable('absence_notes')
    .set({ ...values, updated_at: nowIso() })
    .where('id', '=', id)
    .where('state', '=', 'waiting')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export type QueueRow = NoteRow & { first_name: string | null; last_name: string | null; class_id: string | null };

/**
 * A page of the queue: waiting notes first (oldest first, the order they came), then the others
 * (newest first); narrowed to `classIds` when given (a form teacher's classes). Answers the page,
 * the total and how many wait, all under the same filter.
 */
export async function listQueue(
  db: Db,
  filter: AbsenceNoteQueueQuery,
  classIds: readonly string[] | null,
  limit: number,
): Promise<{ rows: QueueRow[]; total: number; waiting: number }> {
  const base = () => {
    let query = db.selectFrom('absence_notes').innerJoin('students', 'students.id', 'absence_notes.student_id');
    if (classIds !== null) query = query.where('students.class_id', 'in', [...classIds]);
    if (filter.class_id) query = query.where('students.class_id', '=', filter.class_id);
    if (filter.reason) query = query.where('absence_notes.reason', '=', filter.reason);
    if (filter.from) query = query.where('absence_notes.date_to', '>=', filter.from);
    if (filter.to) query = query.where('absence_notes.date_from', '<=', filter.to);
    return query;
  };
  const isWaiting = (eb: ExpressionBuilder<Database, 'absence_notes'>) => eb('absence_notes.state', '=', 'waiting');
  const [counts, ids] = await Promise.all([
    base()
      .select((eb) => [
        eb.fn.sum<number | string | bigint | null>(filter.state ? eb.case().when('absence_notes.state', '=', filter.state).then(1).else(0).end() : eb.lit(1)).as('total'),
        eb.fn.sum<number | string | bigint | null>(eb.case().when(isWaiting(eb)).then(1).else(0).end()).as('waiting'),
      ])
      .executeTakeFirstOrThrow(),
    (filter.state ? base().where('absence_notes.state', '=', filter.state) : base())
      .select(['absence_notes.id'])
      // Waiting first, the oldest at the top; then the rest, the latest change first.
      .orderBy((eb) => eb.case().when(isWaiting(eb)).then(0).else(1).end())
      .orderBy((eb) => eb.case().when(isWaiting(eb)).then(eb.ref('absence_notes.created_at')).else('').end())
      // Two notes sent in the same millisecond: the one stored first is the older.
      .orderBy((eb) => eb.case().when(isWaiting(eb)).then(eb.ref('absence_notes.id')).else(0).end())
      .orderBy('absence_notes.updated_at', 'desc')
      .orderBy('absence_notes.id', 'desc')
      .limit(limit)
      .offset(filter.offset ?? 0)
      .execute(),
  ]);
  const order = ids.map((row) => row.id);
  const rows =
    order.length === 0
      ? []
      : await notesWithNames(db)
          .innerJoin('students', 'students.id', 'absence_notes.student_id')
          .select(['students.first_name', 'students.last_name', 'students.class_id'])
          .where('absence_notes.id', 'in', order)
          .execute();
  const byId = new Map(rows.map((row) => [row.id, row] as const));
  return {
    rows: order.flatMap((id) => byId.get(id) ?? []),
    total: Number(counts.total ?? 0),
    waiting: Number(counts.waiting ?? 0),
  };
}
