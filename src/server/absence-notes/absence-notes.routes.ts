import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AbsenceNoteAnswerSchema,
  AbsenceNoteDetailSchema,
  AbsenceNoteListQuerySchema,
  AbsenceNoteListSchema,
  AbsenceNoteParamsSchema,
  AbsenceNoteQueueQuerySchema,
  AbsenceNoteQueueSchema,
  DecideAbsenceNoteSchema,
  SendAbsenceNoteFieldsSchema,
} from '../../shared/absence-notes.schemas.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { StudentIdSchema } from '../../shared/auth.schemas.js';
import { PdfQuerySchema } from '../../shared/pdf.schemas.js';
import type { AppDeps } from '../app-deps.js';
import { callerOf } from '../access/roles.js';
import { authorizeAbsenceNoteSender } from '../access/scopes.js';
import { parseUploadFields, readUpload, sendStoredFile } from '../documents/documents.routes.js';
import { requireCaller, requireUser } from '../http/access.js';
import { errorResponses } from '../http/openapi.js';
import { actorOf } from '../http/request-context.js';
import type { ZodApp } from '../http/zod-app.js';
import * as notes from './absence-notes.service.js';

/**
 * Absence notes (docs/decisions.md D93). Who may call each route is the access module's:
 * sending and withdrawing are the family's (or a student's own with no family account linked);
 * reading a student's notes is the family's, the student's (their own notes), and the class's
 * form teacher's, the office's and the principal's; the queue and the decisions are those staff's.
 * A note is health data: its answers are never kept by a cache.
 */
export const absenceNoteRoutes: FastifyPluginAsync<AppDeps> = async (base, deps) => {
  // Multipart only here (encapsulated): the note's form with its optional doctor's note.
  await base.register(fastifyMultipart, {
    limits: { fileSize: deps.config.uploadMaxBytes, files: 1, fields: 8, parts: 9, fieldSize: 4096, headerPairs: 20 },
  });
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'private, no-store');
  });

  familyRoutes(app, deps);
  schoolRoutes(app, deps);
};

const tags = ['absence-notes'];

/** Sending, listing, reading and withdrawing notes. */
function familyRoutes(app: ZodApp, { db, config }: AppDeps): void {
  app.post(
    '/api/absence-notes',
    {
      config: { access: { can: 'absence-notes.send', student: 'handler' } },
      schema: {
        tags,
        summary:
          'Sends an absence note (multipart: student_id, date_from, date_to, part, reason, text, and an optional file, a PDF or a photo): a family account for a linked child, or a student with no family account',
        consumes: ['multipart/form-data'],
        response: { 201: AbsenceNoteAnswerSchema, ...errorResponses, 413: ApiErrorSchema, 415: ApiErrorSchema, 422: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      const caller = callerOf(requireUser(request));
      let checked = false;
      const { fields, file } = await readUpload(app, request, config.uploadMaxBytes, async (early) => {
        // The student named before the file: refuse a forbidden note before reading a byte of the file.
        const studentId = StudentIdSchema.safeParse(early.student_id);
        if (!studentId.success) return;
        await authorizeAbsenceNoteSender(db, caller, studentId.data);
        checked = true;
      });
      const input = parseUploadFields(SendAbsenceNoteFieldsSchema, fields);
      if (!checked) await authorizeAbsenceNoteSender(db, caller, input.student_id);
      return reply.status(201).send(await notes.sendNote(db, caller, actorOf(request), input, file));
    },
  );

  app.get(
    '/api/absence-notes',
    {
      config: { access: { can: 'absence-notes.read', student: { query: 'student_id' } } },
      schema: {
        tags,
        summary: "A student's absence notes with their state and the school's answer, newest first (a student sees the notes they sent)",
        querystring: AbsenceNoteListQuerySchema,
        response: { 200: AbsenceNoteListSchema, ...errorResponses },
      },
    },
    async (request) => notes.listNotes(db, requireCaller(request), request.query.student_id),
  );

  app.get(
    '/api/absence-notes/:id',
    {
      config: { access: { can: 'absence-notes.read', student: 'handler' } },
      schema: {
        tags,
        summary: "One absence note, its student, and the student's attendance on its school days",
        params: AbsenceNoteParamsSchema,
        response: { 200: AbsenceNoteDetailSchema, ...errorResponses },
      },
    },
    async (request) => notes.readNote(db, requireCaller(request), request.params.id),
  );

  app.get(
    '/api/absence-notes/:id/attachment',
    {
      config: { access: { can: 'absence-notes.read', student: 'handler' } },
      schema: {
        tags,
        summary: "A note's attachment (a doctor's note), to whoever may read the note",
        params: AbsenceNoteParamsSchema,
        querystring: PdfQuerySchema,
        response: errorResponses,
      },
    },
    async (request, reply) => sendStoredFile(reply, await notes.openAttachment(db, requireCaller(request), request.params.id), request.query),
  );

  app.post(
    '/api/absence-notes/:id/withdraw',
    {
      config: { access: { can: 'absence-notes.send', student: 'handler' } },
      schema: {
        tags,
        summary: 'Withdraws a note while it waits (409 once the school decided it)',
        params: AbsenceNoteParamsSchema,
        response: { 200: AbsenceNoteAnswerSchema, ...errorResponses },
      },
    },
    async (request) => notes.withdrawNote(db, requireCaller(request), actorOf(request), request.params.id),
  );
}

/** The school's queue and decisions. */
function schoolRoutes(app: ZodApp, { db }: AppDeps): void {
  app.get(
    '/api/absence-notes/queue',
    {
      config: { access: { can: 'absence-notes.review' } },
      schema: {
        tags,
        summary: "The Absence Notes queue: waiting first (oldest first), then the rest; filter by state, class, dates and reason (a form teacher's classes only)",
        querystring: AbsenceNoteQueueQuerySchema,
        response: { 200: AbsenceNoteQueueSchema, ...errorResponses },
      },
    },
    async (request) => notes.listQueue(db, requireCaller(request), request.query),
  );

  app.post(
    '/api/absence-notes/:id/decision',
    {
      config: { access: { can: 'absence-notes.review' } },
      schema: {
        tags,
        summary: 'Accepts or declines a waiting note with a reason; the family is told once (a notice and its mail)',
        params: AbsenceNoteParamsSchema,
        body: DecideAbsenceNoteSchema,
        response: { 200: AbsenceNoteAnswerSchema, ...errorResponses, 422: ApiErrorSchema },
      },
    },
    async (request) => {
      const answer = await notes.decideNote(db, requireCaller(request), actorOf(request), request.params.id, request.body);
      app.mailSender.wake();
      return answer;
    },
  );
}
