import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DocumentQueueQuerySchema,
  DocumentQueueSchema,
  OfficeStudentReviewSchema,
  RegistrationReviewAnswerSchema,
  RegistrationReviewSchema,
  ReturnRegistrationSchema,
  ReviewDocumentAnswerSchema,
  ReviewDocumentSchema,
  ReviewStudentParamsSchema,
  VerifyRegistrationSchema,
} from '../../shared/review.schemas.js';
import { schoolDateTime } from '../../shared/dates.js';
import { pdfDisposition, PdfQuerySchema } from '../../shared/pdf.schemas.js';
import type { AppDeps } from '../app-deps.js';
import { errorResponses } from '../http/openapi.js';
import { actorOf } from '../http/request-context.js';
import type { ZodApp } from '../http/zod-app.js';
import { renderPdf } from '../pdf/render-on-pool.js';
import { sendPdf } from '../pdf/send-pdf.js';
import { buildFamilyNotice } from './family-notice.pdf.js';
import * as review from './review.service.js';

const PublicIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'Not a document id.');

/**
 * The office's review of documents and registrations (docs/decisions.md D56). The
 * decisions are school actions: only the office and administrators hold them, and both reach every
 * student, so a path's student needs no further check (a missing one is 404).
 */
export const reviewRoutes: FastifyPluginAsync<AppDeps> = async (base, deps) => {
  const app = base.withTypeProvider<ZodTypeProvider>();

  documentReviewRoutes(app, deps);
  registrationReviewRoutes(app, deps);
  officeStudentRoutes(app, deps);
};

const tags = ['review'];

/** The documents waiting for review, and the decision on one. */
function documentReviewRoutes(app: ZodApp, { db }: AppDeps): void {
  app.get(
    '/api/review/documents',
    {
      config: { access: { can: 'documents.review' } },
      schema: {
        tags,
        summary: 'The documents waiting for review, oldest first (filter by class_id and file_type), with each student',
        querystring: DocumentQueueQuerySchema,
        response: { 200: DocumentQueueSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return review.documentQueue(db, request.query);
    },
  );

  app.post(
    '/api/review/documents/:publicId',
    {
      config: { access: { can: 'documents.review' } },
      schema: {
        tags,
        summary: 'Accepts a document, or returns it to the family with a reason',
        params: z.object({ publicId: PublicIdSchema }),
        body: ReviewDocumentSchema,
        response: { 200: ReviewDocumentAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const answer = await review.reviewDocument(db, actorOf(request), request.params.publicId, request.body);
      if (answer.review_state === 'returned') app.mailSender.wake();
      return answer;
    },
  );
}

/** A registration's review: where it stands, and the office's decisions (verify, return, reopen). */
function registrationReviewRoutes(app: ZodApp, { db }: AppDeps): void {
  app.get(
    '/api/registration-review/:studentId',
    {
      config: { access: { can: 'student.read', student: { param: 'studentId' } } },
      schema: {
        tags,
        summary: "Where a registration stands: its state, the office's note and steps when returned, each document's review",
        params: ReviewStudentParamsSchema,
        response: { 200: RegistrationReviewSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return review.getRegistrationReview(db, request.params.studentId);
    },
  );

  const decision = (summary: string) => ({
    tags,
    summary,
    params: ReviewStudentParamsSchema,
    response: { 200: RegistrationReviewAnswerSchema, ...errorResponses },
  });

  app.post(
    '/api/review/registrations/:studentId/verify',
    {
      config: { access: { can: 'registrations.review' } },
      schema: {
        ...decision('Marks a submitted registration verified: read-only to the family until reopened; documents not reviewed or returned need confirm_unreviewed (409 otherwise)'),
        body: VerifyRegistrationSchema.optional(),
      },
    },
    async (request) => {
      const answer = await review.verifyRegistration(db, actorOf(request), request.params.studentId, request.body ?? {});
      app.mailSender.wake();
      return answer;
    },
  );

  app.post(
    '/api/review/registrations/:studentId/return',
    {
      config: { access: { can: 'registrations.review' } },
      schema: { ...decision('Returns a registration to the family with a note naming the steps to fix'), body: ReturnRegistrationSchema },
    },
    async (request) => {
      const answer = await review.returnRegistration(db, actorOf(request), request.params.studentId, request.body);
      app.mailSender.wake();
      return answer;
    },
  );

  app.post(
    '/api/review/registrations/:studentId/reopen',
    { config: { access: { can: 'registrations.review' } }, schema: decision('Opens a verified registration to the family again') },
    async (request) => review.reopenRegistration(db, actorOf(request), request.params.studentId),
  );
}

/** The office's view of one student, and the printable letter to the family. */
function officeStudentRoutes(app: ZodApp, { db, config }: AppDeps): void {
  app.get(
    '/api/review/students/:studentId',
    {
      config: { access: { can: 'registrations.review' } },
      schema: {
        tags,
        summary: "The office's view of one student: each document's decision (who, when in school time) and whom a message to the family reaches",
        params: ReviewStudentParamsSchema,
        response: { 200: OfficeStudentReviewSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return review.officeStudentReview(db, request.params.studentId);
    },
  );

  app.get(
    '/api/review/students/:studentId/notice',
    {
      config: { access: { can: 'registrations.review' } },
      schema: {
        tags,
        summary: 'A printable letter for the family: the returned registration and each returned document, with what to fix (PDF)',
        params: ReviewStudentParamsSchema,
        querystring: PdfQuerySchema,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const { studentId } = request.params;
      const content = await review.familyNoticeContent(db, studentId);
      const bytes = await renderPdf(buildFamilyNotice({ ...content, schoolName: config.schoolName, portalUrl: config.publicUrl, printedAt: schoolDateTime(new Date()) }));
      return sendPdf(reply, bytes, `Registration Notice ${studentId}.pdf`, pdfDisposition(request.query));
    },
  );
}
