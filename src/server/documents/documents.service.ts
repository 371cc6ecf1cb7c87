import { createHash, randomBytes } from 'node:crypto';
import {
  cleanFileName,
  DOCUMENT_KINDS,
  DOCUMENT_MESSAGES,
  DOCUMENT_SLOTS,
  documentThumbnailUrl,
  documentUrl,
  findSlot,
  type DeleteFileAnswer,
  type DeleteFileQuery,
  type DocumentKind,
  type DocumentSlot,
  type DocumentType,
  type StoreFileAnswer,
  type StudentDataFile,
  type UploadedFile,
} from '../../shared/documents.schemas.js';
import { WINDOW_MESSAGES } from '../../shared/registration.schemas.js';
import { writeAudit } from '../audit/audit.repository.js';
import type { DocumentReviewState } from '../db/schema.js';
import { nowIso, type Db } from '../db/database.js';
import { AppError, badRequest, conflict, notFound } from '../http/errors.js';
import { isFamilyCaller, type Caller } from '../access/roles.js';
import type { Actor } from '../http/request-context.js';
import * as registration from '../registration/registration.service.js';
import * as reRegistration from '../re-registration/re-registration.service.js';
import * as repo from './documents.repository.js';
import { detectKind, findPdfProblem } from './file-sniffing.js';
import { makeThumbnail, normalisePhoto } from './photo-processing.js';

const SLOT_ORDER = new Map(DOCUMENT_SLOTS.map((slot, index) => [slot.type as string, index]));
const bySlotOrder = (a: { file_type: string }, b: { file_type: string }) =>
  (SLOT_ORDER.get(a.file_type) ?? 99) - (SLOT_ORDER.get(b.file_type) ?? 99);

function toUploadedFile(meta: repo.DocumentMeta): UploadedFile {
  return {
    name: meta.file_name,
    type: meta.file_type as DocumentType,
    url: documentUrl(meta.public_id),
    thumbnail_url: meta.mime.startsWith('image/') ? documentThumbnailUrl(meta.public_id) : null,
    mime: meta.mime,
    size: Number(meta.size),
    uploaded_at: meta.updated_at,
    review_state: meta.review_state,
    review_reason: meta.review_reason,
  };
}

const describe = (meta: Pick<repo.DocumentMeta, 'file_name' | 'size' | 'sha256'> | undefined) =>
  meta ? `${meta.file_name} (${meta.size} bytes, sha256 ${meta.sha256})` : null;

/**
 * The checks that come before the bytes are read (the route has asked the policy whether the
 * caller may edit this student): a student that exists, and (for students) an open registration window: uploads and removals are registration
 * writes (docs/requirements.md R6: 422 when closed). Administrators may change documents at any time, as they
 * may change the record (office corrections).
 */
export async function requireDocumentWrite(db: Db, caller: Caller, studentId: string, now = new Date()): Promise<void> {
  if (!(await repo.studentExists(db, studentId))) throw notFound('No student has this ID.');
  if (isFamilyCaller(caller)) {
    const status = await registration.getRegistrationStatus(db, studentId, now);
    if (!status.editable) throw new AppError(422, 'registration_closed', status.reason ?? WINDOW_MESSAGES.closed);
  }
}

/**
 * The checks every uploaded file passes, whatever it is for (a document slot, an absence note's
 * attachment, D93): not empty; its kind decided from the bytes and one that `target` accepts; a
 * PDF that acts when opened, carries other files, is encrypted or cannot be parsed is refused
 * (file-sniffing.ts); a photo is decoded, turned upright, scaled and encoded again, or refused when
 * it does not decode (photo-processing.ts, D74). Answers the kind and the bytes to store; throws
 * 400, 413 or 415 naming the field `file`.
 */
export async function checkUploadedFile(input: Buffer, target: Pick<DocumentSlot, 'label' | 'accepts'>): Promise<{ kind: DocumentKind; bytes: Buffer }> {
  if (input.length === 0) throw badRequest(DOCUMENT_MESSAGES.empty, { file: [DOCUMENT_MESSAGES.empty] });
  const kind = detectKind(input);
  if (kind === null || !target.accepts.includes(kind)) {
    throw new AppError(415, 'unsupported_media_type', DOCUMENT_MESSAGES.wrongKind(target), { file: [DOCUMENT_MESSAGES.wrongKind(target)] });
  }
  if (kind === 'pdf') {
    const problem = await findPdfProblem(input);
    if (problem) {
      const message = DOCUMENT_MESSAGES.refusedPdf[problem];
      throw new AppError(415, 'unsupported_media_type', message, { file: [message] });
    }
    return { kind, bytes: input };
  }
  const photo = await normalisePhoto(input, kind);
  if (!photo.ok && photo.reason === 'too-large') {
    throw new AppError(413, 'payload_too_large', DOCUMENT_MESSAGES.imageTooLarge, { file: [DOCUMENT_MESSAGES.imageTooLarge] });
  }
  if (!photo.ok) throw new AppError(415, 'unsupported_media_type', DOCUMENT_MESSAGES.unreadableImage, { file: [DOCUMENT_MESSAGES.unreadableImage] });
  return { kind, bytes: photo.bytes };
}

export interface UploadInput {
  studentId: string;
  fileType: DocumentType;
  /** The name the browser sent (cleaned here). */
  originalName: string;
  bytes: Buffer;
}

/**
 * Stores an uploaded file in its slot (docs/requirements.md R7; `POST /api/store-file`) once it
 * passed `checkUploadedFile` for the slot (a photo is stored as re-encoded there); the name is
 * cleaned. Bytes, metadata and sha256 go into `documents` in one transaction with the audit row
 * and the new progress flags; a file already in the slot is replaced (its old URL stops working).
 */
export async function storeFile(db: Db, caller: Caller, actor: Actor, input: UploadInput, now = new Date()): Promise<StoreFileAnswer> {
  const slot = findSlot(input.fileType);
  if (!slot) throw badRequest('Choose one of the document types.', { file_type: ['Choose one of the document types.'] });
  await requireDocumentWrite(db, caller, input.studentId, now);

  const { kind, bytes } = await checkUploadedFile(input.bytes, slot);

  const document: repo.NewDocument = {
    // The URL names the file by 128 random bits: nothing to guess or enumerate.
    public_id: randomBytes(16).toString('base64url'),
    student_id: input.studentId,
    file_type: slot.type,
    file_name: cleanFileName(input.originalName, kind, slot.type),
    mime: DOCUMENT_KINDS[kind].mime,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes,
  };

  return db.transaction().execute(async (trx) => {
    const before = await repo.findDocument(trx, input.studentId, slot.type);
    const at = nowIso();
    await repo.upsertDocument(trx, document, at);
    await writeAudit(trx, {
      ...actor,
      action: before ? 'replace' : 'upload',
      entity: 'document',
      entity_id: input.studentId,
      field: slot.type,
      old_value: describe(before),
      new_value: describe(document),
    });
    if (isFamilyCaller(caller)) await registration.reopenReturned(trx, actor, input.studentId);
    // A family's upload confirms the Documents step of a re-registration (D62).
    if (isFamilyCaller(caller)) await reRegistration.confirmChangedSteps(trx, actor, input.studentId, ['documents']);
    const progress = await registration.refreshProgress(trx, input.studentId, now);
    return {
      message: DOCUMENT_MESSAGES.uploaded,
      file: toUploadedFile({ ...document, updated_at: at, review_state: 'submitted', review_reason: null }),
      documents: progress.documents,
    };
  });
}

/** The student's uploaded files, in slot order (R15: `GET /api/get-files/{student_id}`). */
export async function listFiles(db: Db, studentId: string): Promise<UploadedFile[]> {
  if (!(await repo.studentExists(db, studentId))) throw notFound('No student has this ID.');
  return (await repo.listDocuments(db, studentId)).sort(bySlotOrder).map(toUploadedFile);
}

/** The stored file records of a student (R7; `GET /api/student-data-files/{studentId}`). */
export async function listStudentDataFiles(db: Db, studentId: string): Promise<StudentDataFile[]> {
  if (!(await repo.studentExists(db, studentId))) throw notFound('No student has this ID.');
  return (await repo.listDocuments(db, studentId))
    .sort(bySlotOrder)
    .map((meta) => ({ fileName: meta.file_name, fileType: meta.file_type as DocumentType, student: meta.student_id }));
}

/**
 * `POST /api/student-data-files`: the screen once recorded the file after uploading it.
 * Here the upload itself records it (one transaction), so this call only confirms that the
 * record names a file the student really uploaded to that slot: idempotent, changes nothing.
 */
export async function confirmStudentDataFile(db: Db, record: StudentDataFile): Promise<StudentDataFile & { message: string }> {
  const stored = await repo.findDocument(db, record.student, record.fileType);
  if (!stored) throw notFound('No file has been uploaded to this slot.');
  if (stored.file_name !== record.fileName) throw conflict(`The ${findSlot(record.fileType)?.label ?? 'slot'} holds another file (${stored.file_name}).`);
  return { fileName: stored.file_name, fileType: record.fileType, student: record.student, message: 'The file is recorded.' };
}

/**
 * Removes the file of a slot (docs/requirements.md R7; `DELETE /api/file`). When the screen sends the file name it
 * must still be the slot's file, so a page left open cannot remove a newer upload by mistake.
 */
export async function deleteFile(db: Db, caller: Caller, actor: Actor, query: DeleteFileQuery, now = new Date()): Promise<DeleteFileAnswer> {
  await requireDocumentWrite(db, caller, query.id, now);
  return db.transaction().execute(async (trx) => {
    const before = await repo.findDocument(trx, query.id, query.fileType);
    if (!before) throw notFound('There is no file in this slot.');
    if (query.fileName !== undefined && query.fileName !== before.file_name) {
      throw conflict('This slot now holds another file. Reload the page and try again.');
    }
    await repo.deleteDocument(trx, query.id, query.fileType);
    await writeAudit(trx, {
      ...actor,
      action: 'delete',
      entity: 'document',
      entity_id: query.id,
      field: query.fileType,
      old_value: describe(before),
      new_value: null,
    });
    if (isFamilyCaller(caller)) await registration.reopenReturned(trx, actor, query.id);
    const progress = await registration.refreshProgress(trx, query.id, now);
    return { message: DOCUMENT_MESSAGES.deleted, documents: progress.documents };
  });
}

/**
 * The file behind a document URL; the route asks the policy whether the caller may read its
 * student. Unknown ids are 404; another student's file is 403 (the id is random, so this tells
 * nothing useful).
 */
export async function openDocument(db: Db, publicId: string): Promise<repo.DocumentWithBytes> {
  const document = await repo.findDocumentByPublicId(db, publicId);
  if (!document) throw notFound('This file does not exist. It may have been replaced or removed.');
  return document;
}

/**
 * The owner, kind and stored thumbnail of a document URL; the route asks the policy whether the
 * caller may read that student before anything is made or sent. Unknown ids are 404.
 */
export async function findThumbnail(db: Db, publicId: string): Promise<repo.ThumbnailRow> {
  const row = await repo.findThumbnail(db, publicId);
  if (!row) throw notFound('This file does not exist. It may have been replaced or removed.');
  return row;
}

/**
 * The thumbnail of a photo (D74): the stored one, or one made now with sharp and stored, so each
 * photo is scaled down once however often its screens are visited. A PDF has none (404): its
 * screens draw an icon.
 */
export async function thumbnailOf(db: Db, publicId: string, row: repo.ThumbnailRow): Promise<Buffer> {
  if (row.thumbnail) return row.thumbnail;
  if (!row.mime.startsWith('image/')) throw notFound('Only photos have a thumbnail.');
  const bytes = await repo.findBytesByPublicId(db, publicId);
  if (!bytes) throw notFound('This file does not exist. It may have been replaced or removed.');
  let thumbnail: Buffer;
  try {
    thumbnail = await makeThumbnail(bytes);
  } catch {
    // A photo stored before photos were decoded on upload, that does not decode: no thumbnail (its screens draw an icon).
    throw notFound('This photo has no thumbnail.');
  }
  await repo.storeThumbnail(db, publicId, thumbnail);
  return thumbnail;
}

/** The uploaded files of a student with the picture's bytes, for the registration form. */
export async function documentsForForm(
  db: Db,
  studentId: string,
): Promise<{ uploaded: Set<string>; states: Map<string, DocumentReviewState>; picture: { mime: string; bytes: Buffer } | null }> {
  const metas = await repo.listDocuments(db, studentId);
  const picture = metas.some((meta) => meta.file_type === 'picture') ? await repo.findDocumentBytes(db, studentId, 'picture') : undefined;
  return {
    uploaded: new Set(metas.map((meta) => meta.file_type)),
    states: new Map(metas.map((meta) => [meta.file_type, meta.review_state])),
    picture: picture ? { mime: picture.mime, bytes: picture.bytes } : null,
  };
}
