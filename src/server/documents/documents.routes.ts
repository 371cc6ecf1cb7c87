import fastifyMultipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { StudentIdSchema } from '../../shared/auth.schemas.js';
import { pdfDisposition, PdfQuerySchema, type PdfQuery } from '../../shared/pdf.schemas.js';
import {
  DeleteFileAnswerSchema,
  DeleteFileQuerySchema,
  DOCUMENT_MESSAGES,
  StoreFileAnswerSchema,
  StoreFileFieldsSchema,
  StudentDataFileAnswerSchema,
  StudentDataFileListSchema,
  StudentDataFileSchema,
  UploadedFileListSchema,
} from '../../shared/documents.schemas.js';
import type { Db } from '../db/database.js';
import type { AppDeps } from '../app-deps.js';
import { requireUser } from '../http/access.js';
import { callerOf } from '../access/roles.js';
import { authorizeStudent } from '../access/scopes.js';
import { AppError, badRequest } from '../http/errors.js';
import { defineRead, registerRead, type ReadDefinition } from '../http/reads.js';
import { errorResponses } from '../http/openapi.js';
import { actorOf } from '../http/request-context.js';
import type { ZodApp } from '../http/zod-app.js';
import * as documents from './documents.service.js';
import { THUMBNAIL_MIME } from './photo-processing.js';

const tooLarge = (maxBytes: number) => new AppError(413, 'payload_too_large', DOCUMENT_MESSAGES.tooLarge(maxBytes), { file: [DOCUMENT_MESSAGES.tooLarge(maxBytes)] });

/**
 * Reads the file part into memory in chunks, never past the cap: busboy stops passing bytes at
 * `limits.fileSize` and marks the stream truncated, and the upload is refused with 413 at once.
 * Collecting up to the cap is the point: the bytes go into one database row (docs/decisions.md D17, "Storage").
 */
async function readCapped(part: MultipartFile, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (part.file.truncated || total > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  if (part.file.truncated) throw tooLarge(maxBytes);
  return Buffer.concat(chunks, total);
}

/**
 * A multipart upload's text fields and its one file part (named `file`, read up to the cap),
 * with the multipart errors turned into the API's 400, 413 and 415. `beforeFile` sees the fields
 * sent before the file, so a route can refuse the call before reading a byte of the file. A file
 * part with no name and no bytes (a form's empty file input) counts as no file.
 */
export async function readUpload(
  app: ZodApp,
  request: FastifyRequest,
  maxBytes: number,
  beforeFile: (fields: Record<string, string>) => Promise<void>,
): Promise<{ fields: Record<string, string>; file: { name: string; bytes: Buffer } | undefined }> {
  const { PartsLimitError, FilesLimitError, FieldsLimitError, InvalidMultipartContentTypeError } = app.multipartErrors;
  if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type', 'Send the file as multipart/form-data.');
  const fields: Record<string, string> = {};
  let file: { name: string; bytes: Buffer } | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string' && !part.valueTruncated) fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file' || file) {
        throw badRequest('Send one file, in the field named file.');
      }
      await beforeFile(fields);
      const bytes = await readCapped(part, maxBytes);
      if (part.filename || bytes.length > 0) file = { name: part.filename ?? '', bytes };
    }
  } catch (error) {
    if (error instanceof FilesLimitError || error instanceof PartsLimitError || error instanceof FieldsLimitError) {
      throw badRequest('Send one file and the form\'s fields only.');
    }
    if (error instanceof InvalidMultipartContentTypeError) throw new AppError(415, 'unsupported_media_type', 'Send the file as multipart/form-data.');
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxBytes);
    throw error;
  }
  return { fields, file };
}

/** An upload's text fields checked by their schema: 400 naming each field otherwise. */
export function parseUploadFields<T>(schema: z.ZodType<T>, fields: Record<string, string>): T {
  const parsed = schema.safeParse(fields);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[issue.path.join('.') || 'body'] ??= []).push(issue.message);
    throw badRequest(Object.values(errors)[0]?.[0] ?? 'Some fields need attention.', errors);
  }
  return parsed.data;
}

/**
 * Serves a stored file as exactly what its bytes were checked to be: never sniffed into something
 * else, never kept by a shared cache, sandboxed so nothing in it runs as the portal, and framed
 * only by the portal's own pages (OWASP File Upload cheat sheet).
 */
export function sendStoredFile(reply: FastifyReply, document: { file_name: string; mime: string; bytes: Buffer }, query: PdfQuery) {
  const asciiName = document.file_name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return reply
    .header('content-type', document.mime)
    .header('content-disposition', `${pdfDisposition(query)}; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(document.file_name)}`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .header('content-security-policy', "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'self'")
    .send(document.bytes);
}

/**
 * Serves a photo's thumbnail (D74) under the document's own rules (nosniff, sandbox), but kept by
 * the browser: a replaced file gets a new random id, so a thumbnail's URL never names other bytes.
 * `private`: no shared cache keeps a child's picture.
 */
function sendThumbnail(reply: FastifyReply, thumbnail: Buffer) {
  return reply
    .header('content-type', THUMBNAIL_MIME)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, max-age=604800, immutable')
    .header('content-security-policy', "sandbox; default-src 'none'; frame-ancestors 'self'")
    .send(thumbnail);
}

const PublicIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'Not a document id.');

/** The document slots (docs/requirements.md R7; the file calls of R15). */
export const documentRoutes: FastifyPluginAsync<AppDeps> = async (base, deps) => {
  // Multipart only here (encapsulated): no other route accepts multipart bodies.
  await base.register(fastifyMultipart, {
    limits: { fileSize: deps.config.uploadMaxBytes, files: 1, fields: 5, parts: 6, fieldSize: 1024, headerPairs: 20 },
  });
  const app = base.withTypeProvider<ZodTypeProvider>();

  uploadRoutes(app, deps);
  fileRecordRoutes(app, deps);
  servingRoutes(app, deps);
};

const tags = ['documents'];

/** A student's uploaded files: the read the documents step renders from, on the server too (http/reads.ts). */
export function documentReads(db: Db): ReadDefinition[] {
  return [
    defineRead({
      url: '/api/get-files/:student_id',
      access: { can: 'student.read', student: { param: 'student_id' } },
      tags,
      summary: "The student's uploaded files: name, type and the url that serves each",
      params: z.object({ student_id: StudentIdSchema }),
      answer: UploadedFileListSchema,
      cacheControl: 'no-store',
      handle: async (_request, { params }) => documents.listFiles(db, params.student_id),
    }),
  ];
}

/** The upload of a document into its slot, checked before a byte of the file is read when it can be. */
function uploadRoutes(app: ZodApp, { db, config }: AppDeps): void {
  app.post(
    '/api/store-file',
    {
      config: { access: { can: 'student.edit', student: 'handler' } },
      schema: {
        tags,
        summary: 'Uploads a document into its slot (multipart: file, id, file_type); the type is decided from the bytes',
        consumes: ['multipart/form-data'],
        response: {
          200: StoreFileAnswerSchema,
          ...errorResponses,
          413: ApiErrorSchema,
          415: ApiErrorSchema,
          422: ApiErrorSchema,
        },
      },
    },
    async (request) => {
      const caller = callerOf(requireUser(request));
      let checked = false;
      const parseFields = (fields: Record<string, string>) => parseUploadFields(StoreFileFieldsSchema, fields);
      const { fields, file } = await readUpload(app, request, config.uploadMaxBytes, async (early) => {
        // When the id and type came first (as the portal's page sends them), refuse a
        // forbidden or closed upload before reading a byte of the file.
        if (early.id === undefined || early.file_type === undefined) return;
        const input = parseFields(early);
        await authorizeStudent(db, caller, 'student.edit', input.id);
        await documents.requireDocumentWrite(db, caller, input.id);
        checked = true;
      });
      const input = parseFields(fields);
      if (!checked) await authorizeStudent(db, caller, 'student.edit', input.id);
      if (!file) {
        if (!checked) await documents.requireDocumentWrite(db, caller, input.id);
        throw badRequest(DOCUMENT_MESSAGES.selectFile, { file: [DOCUMENT_MESSAGES.selectFile] });
      }
      return documents.storeFile(db, caller, actorOf(request), { studentId: input.id, fileType: input.file_type, originalName: file.name, bytes: file.bytes });
    },
  );
}

/** A student's files: their lists, the confirmation of a record after its upload, and a file's removal. */
function fileRecordRoutes(app: ZodApp, { db }: AppDeps): void {
  for (const read of documentReads(db)) registerRead(app, read);

  app.get(
    '/api/student-data-files/:studentId',
    {
      config: { access: { can: 'student.read', student: { param: 'studentId' } } },
      schema: {
        tags,
        summary: "The student's stored file records (fileName, fileType, student)",
        params: z.object({ studentId: StudentIdSchema }),
        response: { 200: StudentDataFileListSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return documents.listStudentDataFiles(db, request.params.studentId);
    },
  );

  app.post(
    '/api/student-data-files',
    {
      config: { access: { can: 'student.edit', student: { body: 'student' } } },
      schema: {
        tags,
        summary: 'Confirms a file record after an upload (the upload already stored it): idempotent, 404 or 409 when it names no such upload',
        body: StudentDataFileSchema,
        response: { 200: StudentDataFileAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      return documents.confirmStudentDataFile(db, request.body);
    },
  );

  app.delete(
    '/api/file',
    {
      config: { access: { can: 'student.edit', student: { query: 'id' } } },
      schema: {
        tags,
        summary: 'Removes the file of a slot (query id, fileType and optionally fileName, which must match)',
        querystring: DeleteFileQuerySchema,
        response: { 200: DeleteFileAnswerSchema, ...errorResponses, 422: ApiErrorSchema },
      },
    },
    async (request) => {
      return documents.deleteFile(db, callerOf(requireUser(request)), actorOf(request), request.query);
    },
  );
}

/** Serving a stored file, and a photo's thumbnail, to whoever may read the student. */
function servingRoutes(app: ZodApp, { db }: AppDeps): void {
  app.get(
    '/api/documents/:publicId',
    {
      config: { access: { can: 'student.read', student: 'handler' } },
      schema: {
        tags,
        summary: 'Serves an uploaded file to its own student or an administrator (the url of get-files)',
        params: z.object({ publicId: PublicIdSchema }),
        querystring: PdfQuerySchema,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const document = await documents.openDocument(db, request.params.publicId);
      await authorizeStudent(db, callerOf(requireUser(request)), 'student.read', document.student_id);
      return sendStoredFile(reply, document, request.query);
    },
  );

  app.get(
    '/api/documents/:publicId/thumbnail',
    {
      config: { access: { can: 'student.read', student: 'handler' } },
      schema: {
        tags,
        summary: "A photo's thumbnail (JPEG, made once and kept), to whoever may open the photo; 404 for a PDF",
        params: z.object({ publicId: PublicIdSchema }),
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const row = await documents.findThumbnail(db, request.params.publicId);
      await authorizeStudent(db, callerOf(requireUser(request)), 'student.read', row.student_id);
      return sendThumbnail(reply, await documents.thumbnailOf(db, request.params.publicId, row));
    },
  );
}
