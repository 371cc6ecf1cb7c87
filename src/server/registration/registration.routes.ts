import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { StudentIdSchema } from '../../shared/auth.schemas.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import {
  RegistrationPeriodListSchema,
  RegistrationStatusSchema,
  SaveRegistrationPeriodSchema,
  SaveStudentAnswerSchema,
  StudentRecordListSchema,
} from '../../shared/registration.schemas.js';
import { SaveStudentBodySchema } from '../../shared/registration-save.schemas.js';
import type { Db } from '../db/database.js';
import { requireUser } from '../http/access.js';
import { badRequest } from '../http/errors.js';
import { callerOf, isGuardianCaller, isStudentCaller } from '../access/roles.js';
import { authorizeStudent } from '../access/scopes.js';
import { errorResponses } from '../http/openapi.js';
import { defineRead, registerRead, type ReadDefinition } from '../http/reads.js';
import { actorOf } from '../http/request-context.js';
import * as registration from './registration.service.js';

/** The reads of the registration record and window, which a registration step's page also renders from (http/reads.ts). */
export function registrationReads(db: Db): ReadDefinition[] {
  const tags = ['registration'];
  return [
    defineRead({
      url: '/api/student-record/:userID',
      access: { can: 'student.read', student: { param: 'userID' } },
      tags,
      summary: 'The registration record (a list of one, as the call has always answered) with its progress flags',
      params: z.object({ userID: StudentIdSchema }),
      answer: StudentRecordListSchema,
      cacheControl: 'no-store',
      handle: async (_request, { params }) => [await registration.getStudentRecord(db, params.userID)],
    }),
    defineRead({
      url: '/api/registration-status',
      access: 'signed-in',
      tags,
      summary: "The registration window of the signed-in student's form level (administrators: of ?student_id, else the default)",
      querystring: z.object({ student_id: z.optional(StudentIdSchema) }),
      answer: RegistrationStatusSchema,
      cacheControl: 'no-store',
      handle: async (request, { query }) => {
        const caller = callerOf(requireUser(request));
        const studentId = isStudentCaller(caller) ? caller.studentId : (query.student_id ?? null);
        // A family account asks for one linked child's window; the policy refuses any other child.
        if (isGuardianCaller(caller)) {
          if (!studentId) throw badRequest('Name the child: ?student_id=…', { student_id: ['Choose one of your children.'] });
          await authorizeStudent(db, caller, 'student.read', studentId);
        }
        return registration.getRegistrationStatus(db, studentId);
      },
    }),
  ];
}

/** The registration record, its per-field save and the registration window (docs/requirements.md R4–R6, R15). */
export const registrationRoutes: FastifyPluginAsync<{ db: Db }> = async (base, { db }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['registration'];

  for (const read of registrationReads(db)) registerRead(app, read);

  app.post(
    '/api/student',
    {
      // The save reads the student's row anyway, and judges the caller's reach on it (D86).
      config: { access: { can: 'student.edit', student: 'handler' } },
      schema: {
        tags,
        summary: 'Saves the fields sent, each checked by the field catalogue; 422 when registration is closed',
        description:
          "The body's fields and their rules come from the field catalogue. Rules that depend on the caller (house and class are " +
          "administrators' only), on the school's day (no future dates) or on the database (lookup values, the registration " +
          'window) are checked by the server after the body.',
        body: SaveStudentBodySchema,
        response: { 200: SaveStudentAnswerSchema, ...errorResponses, 422: ApiErrorSchema },
      },
    },
    async (request) => registration.saveStudentFields(db, callerOf(requireUser(request)), actorOf(request), request.body),
  );

  app.get(
    '/api/registration-periods',
    {
      config: { access: { can: 'settings.read' } },
      schema: { tags, summary: 'Every registration window (the default and each form level of its own)', response: { 200: RegistrationPeriodListSchema, ...errorResponses } },
    },
    async () => registration.listRegistrationPeriods(db),
  );

  app.put(
    '/api/registration-periods',
    {
      config: { access: { can: 'settings.manage' } },
      schema: {
        tags,
        summary: 'Opens or closes registration and sets the deadline, for one form level or (form_level null) all',
        body: SaveRegistrationPeriodSchema,
        response: { 200: RegistrationPeriodListSchema, ...errorResponses },
      },
    },
    async (request) => registration.saveRegistrationPeriod(db, actorOf(request), request.body),
  );

  app.delete(
    '/api/registration-periods/:formLevel',
    {
      config: { access: { can: 'settings.manage' } },
      schema: {
        tags,
        summary: "Removes a form level's own window so the default applies to it",
        params: z.object({ formLevel: z.coerce.number().int().min(1).max(6) }),
        response: { 200: RegistrationPeriodListSchema, ...errorResponses },
      },
    },
    async (request) => registration.removeRegistrationPeriod(db, actorOf(request), request.params.formLevel),
  );
};
