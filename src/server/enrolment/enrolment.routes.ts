import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EnrolmentChangeAnswerSchema, EnrolmentSchema, EnrolmentStudentParamsSchema, ReadmitInputSchema, WithdrawInputSchema } from '../../shared/enrolment.schemas.js';
import type { AppDeps } from '../app-deps.js';
import { errorResponses } from '../http/openapi.js';
import { actorOf } from '../http/request-context.js';
import * as enrolment from './enrolment.service.js';

/**
 * A student's enrolment history, Withdraw and Readmit (docs/decisions.md D80). The history is
 * staff's to read (`student.history`: a form teacher their classes' students); withdrawing
 * and readmitting are the office's and administrators' (`student.enrolment`).
 */
export const enrolmentRoutes: FastifyPluginAsync<AppDeps> = async (base, { db }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['enrolment'];

  app.get(
    '/api/enrolment/:studentId',
    {
      config: { access: { can: 'student.history', student: { param: 'studentId' } } },
      schema: {
        tags,
        summary: "A student's enrolment: on the roll or not, the dated entries and exits (oldest first), and the dates a withdrawal or readmission may take",
        params: EnrolmentStudentParamsSchema,
        response: { 200: EnrolmentSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return enrolment.getEnrolment(db, request.params.studentId);
    },
  );

  app.post(
    '/api/enrolment/:studentId/withdraw',
    {
      config: { access: { can: 'student.enrolment', student: { param: 'studentId' } } },
      schema: {
        tags,
        summary: 'Withdraws a student on the roll (today or earlier this school year) with a reason; they become a former student, read-only and out of the lists',
        params: EnrolmentStudentParamsSchema,
        body: WithdrawInputSchema,
        response: { 200: EnrolmentChangeAnswerSchema, ...errorResponses },
      },
    },
    async (request) => enrolment.withdrawStudent(db, actorOf(request), request.params.studentId, request.body),
  );

  app.post(
    '/api/enrolment/:studentId/readmit',
    {
      config: { access: { can: 'student.enrolment', student: { param: 'studentId' } } },
      schema: {
        tags,
        summary: 'Readmits a former student into a class of the form they left from or the next, on a day from their leaving (and this school year) to today',
        params: EnrolmentStudentParamsSchema,
        body: ReadmitInputSchema,
        response: { 200: EnrolmentChangeAnswerSchema, ...errorResponses },
      },
    },
    async (request) => enrolment.readmitStudent(db, actorOf(request), request.params.studentId, request.body),
  );
};
