import type { DocumentReviewState, DocumentTable } from '../db/schema.js';
import type { Db } from '../db/database.js';

/** All SQL of the documents feature (docs/architecture.md "Adding a server feature"). */

/** A stored document without its bytes. */
export interface DocumentMeta {
  public_id: string;
  student_id: string;
  file_type: string;
  file_name: string;
  mime: string;
  size: number;
  sha256: string;
  updated_at: string;
  /** The office's review (D56). */
  review_state: DocumentReviewState;
  review_reason: string | null;
}

export interface DocumentWithBytes extends DocumentMeta {
  bytes: Buffer;
}

/** better-sqlite3 and pg both answer a Buffer; a Uint8Array from another driver is wrapped without a copy. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const META_COLUMNS = ['public_id', 'student_id', 'file_type', 'file_name', 'mime', 'size', 'sha256', 'updated_at', 'review_state', 'review_reason'] as const;

/** Every document of a student, without bytes, in no particular order. */
export async function listDocuments(db: Db, studentId: string): Promise<DocumentMeta[]> {
  return db.selectFrom('documents').select(META_COLUMNS).where('student_id', '=', studentId).execute();
}

/** The document in one slot of a student, without bytes. */
export async function findDocument(db: Db, studentId: string, fileType: string): Promise<DocumentMeta | undefined> {
  return db
    .selectFrom('documents')
    .select(META_COLUMNS)
    .where('student_id', '=', studentId)
    .where('file_type', '=', fileType)
    .executeTakeFirst();
}

/** The document behind a URL, with its bytes. */
export async function findDocumentByPublicId(db: Db, publicId: string): Promise<DocumentWithBytes | undefined> {
  const row = await db.selectFrom('documents').select([...META_COLUMNS, 'bytes']).where('public_id', '=', publicId).executeTakeFirst();
  return row ? { ...row, bytes: asBuffer(row.bytes) } : undefined;
}

/** The bytes of one slot (the registration form's picture). */
export async function findDocumentBytes(db: Db, studentId: string, fileType: string): Promise<DocumentWithBytes | undefined> {
  const row = await db
    .selectFrom('documents')
    .select([...META_COLUMNS, 'bytes'])
    .where('student_id', '=', studentId)
    .where('file_type', '=', fileType)
    .executeTakeFirst();
  return row ? { ...row, bytes: asBuffer(row.bytes) } : undefined;
}

/** A document row as the upload writes it (its id and times are the database's and the call's). */
export type NewDocument = Omit<DocumentTable, 'id' | 'created_at' | 'updated_at' | 'review_state' | 'review_reason' | 'reviewed_by' | 'reviewed_at' | 'thumbnail'>;

/**
 * Stores the file of a slot, replacing the one there (one row per student and type); a new file is
 * submitted for review again (D56) and has no thumbnail until one is asked for (D74).
 */
export async function upsertDocument(db: Db, document: NewDocument, at: string): Promise<void> {
  const { public_id, file_name, mime, size, sha256, bytes } = document;
  await db
    .insertInto('documents')
    .values({ ...document, created_at: at, updated_at: at })
    .onConflict((oc) => oc.columns(['student_id', 'file_type']).doUpdateSet({ public_id, file_name, mime, size, sha256, bytes, updated_at: at, review_state: 'submitted', review_reason: null, reviewed_by: null, reviewed_at: null, thumbnail: null }))
    .execute();
}

/** The stored thumbnail of a document, with what decides whether one may be made (D74). */
export interface ThumbnailRow {
  student_id: string;
  mime: string;
  thumbnail: Buffer | null;
}

/** A document's owner, kind and stored thumbnail (no file bytes). */
export async function findThumbnail(db: Db, publicId: string): Promise<ThumbnailRow | undefined> {
  const row = await db.selectFrom('documents').select(['student_id', 'mime', 'thumbnail']).where('public_id', '=', publicId).executeTakeFirst();
  return row ? { ...row, thumbnail: row.thumbnail ? asBuffer(row.thumbnail) : null } : undefined;
}

/** The file bytes behind a URL (to make its thumbnail). */
export async function findBytesByPublicId(db: Db, publicId: string): Promise<Buffer | undefined> {
  const row = await db.selectFrom('documents').select('bytes').where('public_id', '=', publicId).executeTakeFirst();
  return row ? asBuffer(row.bytes) : undefined;
}

/**
 * Keeps a thumbnail made for a document. Only where none is stored yet: two screens asking at
 * once both make one, and the first stored is the one every later visit gets.
 */
export async function storeThumbnail(db: Db, publicId: string, thumbnail: Buffer): Promise<void> {
  await db.updateTable('documents').set({ thumbnail }).where('public_id', '=', publicId).where('thumbnail', 'is', null).execute();
}

/** Removes the file of a slot; answers whether there was one. */
export async function deleteDocument(db: Db, studentId: string, fileType: string): Promise<boolean> {
  const result = await db.deleteFrom('documents').where('student_id', '=', studentId).where('file_type', '=', fileType).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether a student with this id exists. */
export async function studentExists(db: Db, studentId: string): Promise<boolean> {
  const row = await db.selectFrom('students').select('id').where('id', '=', studentId).executeTakeFirst();
  return row !== undefined;
}

