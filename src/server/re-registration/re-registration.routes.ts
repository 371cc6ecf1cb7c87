import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ConfirmStepParamsSchema,
  OpenReRegistrationSchema,
  RE_REGISTRATION_MESSAGES,
  ReRegistrationAnswerSchema,
  ReRegistrationChangesSchema,
  ReRegistrationListSchema,
  ReRegistrationStudentParamsSchema,
  ReRegistrationYearParamsSchema,
  StudentReRegistrationSchema,
} from '../../shared/re-registration.schemas.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import type { AppDeps } from '../app-deps.js';
import { callerOf } from '../access/roles.js';
import { requireUser } from '../http/access.js';
import { notFound } from '../http/errors.js';
import { errorResponses } from '../http/openapi.js';
import { actorOf } from '../http/request-context.js';
import * as registration from '../registration/registration.service.js';
import * as reRegistration from './re-registration.service.js';

/**
 * Re-registration (docs/decisions.md D62). Opening and closing a year are school
 * settings (administrators); a record's steps are read by whoever reads the record and confirmed
 * by whoever may edit it (the student, a linked family account, staff who edit records); what
 * changed is the office's review.
 */
export const reRegistrationRoutes: FastifyPluginAsync<AppDeps> = async (base, { db }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['re-registration'];

  app.get(
    '/api/re-registrations',
    {
      config: { access: { can: 'settings.read' } },
      schema: { tags, summary: 'Every opened re-registration with its counts, and the year the screen proposes', response: { 200: ReRegistrationListSchema, ...errorResponses } },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      return reRegistration.listReRegistrations(db);
    },
  );

  app.post(
    '/api/re-registrations',
    {
      config: { access: { can: 'settings.manage' } },
      schema: {
        tags,
        summary: "Opens a year's re-registration: every student in a class is asked to confirm each step (409 when already open)",
        body: OpenReRegistrationSchema,
        response: { 200: ReRegistrationAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { year, students } = await db.transaction().execute((trx) => reRegistration.openReRegistration(trx, { year: request.body.year, actor: actorOf(request) }));
      return { message: RE_REGISTRATION_MESSAGES.opened(year, students), year, students };
    },
  );

  app.delete(
    '/api/re-registrations/:year',
    {
      config: { access: { can: 'settings.manage' } },
      schema: {
        tags,
        summary: "Closes a year's re-registration and removes its confirmations (the audit log keeps them)",
        params: ReRegistrationYearParamsSchema,
        response: { 200: ReRegistrationAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { year } = request.params;
      const closed = await db.transaction().execute((trx) => reRegistration.closeReRegistration(trx, year, actorOf(request)));
      if (!closed) throw notFound(RE_REGISTRATION_MESSAGES.notFound(year));
      return { message: RE_REGISTRATION_MESSAGES.closed(year), year, students: closed.students };
    },
  );

  app.get(
    '/api/students/:studentId/re-registration',
    {
      config: { access: { can: 'student.read', student: { param: 'studentId' } } },
      schema: {
        tags,
        summary: "The record's re-registration: each step to confirm, and who confirmed it how (year null: nothing asked)",
        params: ReRegistrationStudentParamsSchema,
        response: { 200: StudentReRegistrationSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return reRegistration.getStudentReRegistration(db, request.params.studentId);
    },
  );

  app.post(
    '/api/students/:studentId/re-registration/:step',
    {
      config: { access: { can: 'student.edit', student: { param: 'studentId' } } },
      schema: {
        tags,
        summary: '"Nothing changed": confirms a step of the re-registration as it is (422 when registration is closed to the family)',
        params: ConfirmStepParamsSchema,
        response: { 200: StudentReRegistrationSchema, ...errorResponses, 422: ApiErrorSchema },
      },
    },
    async (request) => registration.confirmReRegistrationStep(db, callerOf(requireUser(request)), actorOf(request), request.params.studentId, request.params.step),
  );

  app.get(
    '/api/review/re-registrations/:studentId',
    {
      // The office's review: a school action held by the office and administrators, who reach every student (D56).
      config: { access: { can: 'registrations.review' } },
      schema: {
        tags,
        summary: 'What changed in the record since its re-registration opened, field by field from the audit log, and which steps were confirmed unchanged',
        params: ReRegistrationStudentParamsSchema,
        response: { 200: ReRegistrationChangesSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return reRegistration.getReRegistrationChanges(db, request.params.studentId);
    },
  );
};
