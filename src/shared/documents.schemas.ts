import { z } from 'zod';
import { StudentIdSchema } from './auth.schemas.js';

/**
 * The document slots of the Documents step (docs/requirements.md R7,
 * and R5 for the upload rules) and the schemas of the file calls (R15). One place for
 * both sides: the upload screen, the server's checks, the progress flag and the printed checklist.
 */

export * from './documents.slots.js';
import { acceptedKindsLabel, DOCUMENT_KINDS, DOCUMENT_TYPES, type DocumentKind, type DocumentSlot } from './documents.slots.js';

const DocumentTypeSchema = z.enum(DOCUMENT_TYPES, { message: 'Choose one of the document types.' });

// ---------------------------------------------------------------------------------------------
// File names

/** Longest stored file name, extension included. */
export const FILE_NAME_MAX = 100;

/**
 * A file name safe to store and to send back in a header: the last path segment only, no control
 * or format characters, no quotes or characters reserved on Windows, spaces collapsed, at most
 * FILE_NAME_MAX characters, and the extension of the kind the bytes really are.
 */
export function cleanFileName(raw: string, kind: DocumentKind, fallbackBase = 'document'): string {
  const lastSegment = raw.split(/[/\\]/).pop() ?? '';
  const base = lastSegment
    .normalize('NFC')
    // Control (Cc), format (Cf: bidi overrides), separators other than space, unpaired surrogates.
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu, '')
    .replace(/["*:<>?|]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/^[.\s]+|[.\s]+$/g, '');
  const extension = `.${DOCUMENT_KINDS[kind].extension}`;
  const room = FILE_NAME_MAX - extension.length;
  const chars = Array.from(base || fallbackBase);
  return `${chars.slice(0, room).join('').trim() || fallbackBase}${extension}`;
}

// ---------------------------------------------------------------------------------------------
// Messages (R5, R7, R16: the fixed words first)

export const DOCUMENT_MESSAGES = {
  selectFile: 'Please select a file!',
  uploadFailed: 'Could not upload the file!',
  deleteFailed: 'Error Occured. File Could not be deleted',
  wrongKind: (slot: Pick<DocumentSlot, 'label' | 'accepts'>) => `Could not upload the file! The ${slot.label} must be a ${acceptedKindsLabel(slot)} file.`,
  tooLarge: (maxBytes: number) => `Could not upload the file! A file can be at most ${formatBytes(maxBytes)}.`,
  empty: 'Could not upload the file! The file is empty.',
  /** A JPEG or PNG whose header is right but whose picture does not decode (D74). */
  unreadableImage: 'Could not upload the file! The photo could not be read. Take the photo again, or save it again as JPEG or PNG, and upload that.',
  /** More pixels than the server decodes (D74): PHOTO_MAX_INPUT_PIXELS. */
  imageTooLarge: 'Could not upload the file! The photo has too many pixels. Take it again at a lower resolution, or send a smaller copy.',
  /** Why a PDF is refused, by what its check found (docs/decisions.md D17). */
  refusedPdf: {
    active:
      'Could not upload the file! The PDF contains scripts, attached files, forms or links that open by themselves. Print it to a new PDF, or scan the paper again, and upload that.',
    encrypted: 'Could not upload the file! The PDF is protected with a password. Save a copy without the password and upload that.',
    unreadable: 'Could not upload the file! The PDF could not be read. Save or scan it again and upload the new file.',
  },
  uploaded: 'File uploaded successfully.',
  deleted: 'File deleted.',
} as const;

/**
 * The most pixels the server decodes in an uploaded photo (D74): 50 megapixels, more than a phone's
 * full-resolution shot, so a tiny file that claims a huge picture cannot make the server hold
 * gigabytes. The browser scales photos well below it before they leave.
 */
export const PHOTO_MAX_INPUT_PIXELS = 50_000_000;

/** 10485760 → "10 MB" (binary megabytes, as file managers show them). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

// ---------------------------------------------------------------------------------------------
// Calls (R15)

/** `POST /api/store-file` text fields (the file is the multipart part named `file`). */
export const StoreFileFieldsSchema = z.object({
  id: StudentIdSchema,
  file_type: DocumentTypeSchema,
});
export type StoreFileFields = z.infer<typeof StoreFileFieldsSchema>;

/** One uploaded file as `GET /api/get-files/{student_id}` lists it (R7). */
export const UploadedFileSchema = z.object({
  /** The cleaned file name. */
  name: z.string(),
  /** The document type (slot). */
  type: DocumentTypeSchema,
  /** Where the file is served: `/api/documents/{random id}`, only to its student and administrators. */
  url: z.string(),
  /** A photo's small picture, for the screens that draw one (`…/thumbnail`); null for a PDF (D74). */
  thumbnail_url: z.string().nullable(),
  mime: z.string(),
  size: z.number().int(),
  uploaded_at: z.string(),
  /** The office's review: submitted, accepted, or returned with the reason the family reads. */
  review_state: z.enum(['submitted', 'accepted', 'returned']),
  review_reason: z.string().nullable(),
});
export type UploadedFile = z.infer<typeof UploadedFileSchema>;
export const UploadedFileListSchema = z.array(UploadedFileSchema);

const Bit = z.union([z.literal(0), z.literal(1)]);

export const StoreFileAnswerSchema = z.object({
  message: z.string(),
  file: UploadedFileSchema,
  /** The Documents flag after the change (R6). */
  documents: Bit,
});
export type StoreFileAnswer = z.infer<typeof StoreFileAnswerSchema>;

/** The stored file record keyed by student (R7): what `/api/student-data-files` speaks. */
export const StudentDataFileSchema = z.object({
  fileName: z.string().min(1, 'fileName is required.').max(FILE_NAME_MAX * 2),
  fileType: DocumentTypeSchema,
  student: StudentIdSchema,
});
export type StudentDataFile = z.infer<typeof StudentDataFileSchema>;
export const StudentDataFileListSchema = z.array(StudentDataFileSchema);

export const StudentDataFileAnswerSchema = StudentDataFileSchema.extend({ message: z.string() });

/** `DELETE /api/file?id=&fileName=&fileType=`; fileName is optional and, when sent, must match. */
export const DeleteFileQuerySchema = z.object({
  id: StudentIdSchema,
  fileType: DocumentTypeSchema,
  fileName: z.string().max(FILE_NAME_MAX * 2).optional(),
});
export type DeleteFileQuery = z.infer<typeof DeleteFileQuerySchema>;

export const DeleteFileAnswerSchema = z.object({ message: z.string(), documents: Bit });
export type DeleteFileAnswer = z.infer<typeof DeleteFileAnswerSchema>;

/** The URL a document is served from. */
export function documentUrl(publicId: string): string {
  return `/api/documents/${publicId}`;
}

/** The URL a photo's thumbnail is served from (D74): the same access as the document. */
export function documentThumbnailUrl(publicId: string): string {
  return `${documentUrl(publicId)}/thumbnail`;
}

/** The printable registration form (R8), shown in a frame on the Complete step. */
export function registrationFormUrl(studentId: string): string {
  return `/api/registration-form/${encodeURIComponent(studentId)}`;
}
