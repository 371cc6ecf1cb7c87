import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BulkAnswerSchema,
  BulkChangeClassSchema,
  BulkInviteSchema,
  BulkPaperDocumentSchema,
  BulkSummaryRequestSchema,
  BulkSummarySchema,
  ClassPrintParamsSchema,
  RegisterQuerySchema,
} from '../../shared/bulk.schemas.js';
import { pdfDisposition, PdfQuerySchema } from '../../shared/pdf.schemas.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { FileAnswer, errorResponses } from '../http/openapi.js';
import { requireCaller } from '../http/access.js';
import { actorOf } from '../http/request-context.js';
import { sendPdf } from '../pdf/send-pdf.js';
import { auditExport } from './students.service.js';
import * as bulk from './bulk.service.js';
import { makeClassList, makeClassRegister } from './class-print.service.js';

/**
 * The student list's bulk actions and a class's printouts (docs/decisions.md D83). Each route
 * declares the school action of the whole job (the office's: the import's `students.add` for
 * classes, `families.manage` for invitations, `documents.review` for paper documents); the service
 * then holds every selected student to the single-student action (`student.edit`,
 * `student.invite-family`) through the access module.
 */
export const bulkRoutes: FastifyPluginAsync<{ db: Db; config: Config }> = async (base, { db, config }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];

  app.post(
    '/api/students/bulk/summary',
    {
      config: { access: { can: 'students.list' } },
      schema: {
        tags,
        summary: "What a selection holds before a bulk action: students on the roll, former students left out, invitations that would go and records with no parent e-mail",
        body: BulkSummaryRequestSchema,
        response: { 200: BulkSummarySchema, ...errorResponses },
      },
    },
    async (request) => bulk.summarize(db, requireCaller(request), request.body.selection),
  );

  app.post(
    '/api/students/bulk/class',
    {
      config: { access: { can: 'students.add' } },
      schema: {
        tags,
        summary: "Moves every selected student to one of this year's classes: one transaction, audited per student; 409 when the selection no longer holds `expected` students",
        body: BulkChangeClassSchema,
        response: { 200: BulkAnswerSchema, ...errorResponses },
      },
    },
    async (request) => bulk.changeClass(db, requireCaller(request), request.body, actorOf(request)),
  );

  app.post(
    '/api/students/bulk/invitations',
    {
      config: { access: { can: 'families.manage' } },
      schema: {
        tags,
        summary: 'Mails the family invitation to every parent e-mail on the selected records (not again within 24 hours), through the outbox',
        body: BulkInviteSchema,
        response: { 200: BulkAnswerSchema, ...errorResponses },
      },
    },
    async (request) => bulk.inviteParents(db, requireCaller(request), request.body, actorOf(request)),
  );

  app.post(
    '/api/students/bulk/paper-documents',
    {
      config: { access: { can: 'documents.review' } },
      schema: {
        tags,
        summary: 'Marks one document slot as received on paper for every selected student, audited per student',
        body: BulkPaperDocumentSchema,
        response: { 200: BulkAnswerSchema, ...errorResponses },
      },
    },
    async (request) => bulk.markPaperDocuments(db, requireCaller(request), request.body, actorOf(request)),
  );

  app.get(
    '/api/class-list/:classId',
    {
      config: { access: { can: 'class.read', class: { param: 'classId' } } },
      schema: {
        tags,
        summary: "A class's list as a PDF: names, student IDs and sex, by name",
        params: ClassPrintParamsSchema,
        querystring: PdfQuerySchema,
        produces: ['application/pdf'],
        response: { 200: FileAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const printed = await makeClassList(db, config.schoolName, request.params.classId);
      await auditExport(db, actorOf(request), `Class List PDF (${printed.classId})`);
      return sendPdf(reply, printed.bytes, `Class List ${printed.classId}.pdf`, pdfDisposition(request.query));
    },
  );

  app.get(
    '/api/class-register/:classId',
    {
      config: { access: { can: 'class.read', class: { param: 'classId' } } },
      schema: {
        tags,
        summary: "A blank register of a class for a month (month=yyyy-MM) as a PDF: names and an empty column for each school day",
        params: ClassPrintParamsSchema,
        querystring: RegisterQuerySchema,
        produces: ['application/pdf'],
        response: { 200: FileAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const printed = await makeClassRegister(db, config.schoolName, request.params.classId, request.query.month);
      await auditExport(db, actorOf(request), `Register PDF (${printed.classId}, ${request.query.month})`);
      return sendPdf(reply, printed.bytes, `Register ${printed.classId} ${request.query.month}.pdf`, pdfDisposition(request.query));
    },
  );
};
