import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AuditLogPageSchema,
  AuditLogQuerySchema,
  DeleteStudentAnswerSchema,
  DeleteStudentSchema,
  StudentExportSchema,
  StudentHistorySchema,
  StudentParamsSchema,
  studentExportFileName,
} from '../../shared/privacy.schemas.js';
import type { Db } from '../db/database.js';
import { errorResponses } from '../http/openapi.js';
import { actorOf } from '../http/request-context.js';
import * as privacy from './privacy.service.js';

/** The administrators' privacy calls: the audit log, a student's history, export and deletion. */
const privacyApi: FastifyPluginAsync<{ db: Db }> = async (base, { db }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['privacy'];

  app.get(
    '/api/privacy/audit-log',
    {
      config: { access: { can: 'privacy.manage' } },
      schema: {
        tags,
        summary: 'The audit log, newest first: who read, exported or changed what, when (filter by student or action)',
        querystring: AuditLogQuerySchema,
        response: { 200: AuditLogPageSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return privacy.getAuditLog(db, request.query);
    },
  );

  app.get(
    '/api/privacy/students/:studentId/history',
    {
      config: { access: { can: 'privacy.manage' } },
      schema: {
        tags,
        summary: "Every recorded change of a student's record and documents: field, old and new value, who, when",
        params: StudentParamsSchema,
        response: { 200: StudentHistorySchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return privacy.getStudentHistory(db, request.params.studentId);
    },
  );

  app.get(
    '/api/privacy/students/:studentId/export',
    {
      config: { access: { can: 'privacy.manage' } },
      schema: {
        tags,
        summary: 'Everything held about one student as a JSON file (documents inside, base64); the export is logged',
        params: StudentParamsSchema,
        response: { 200: StudentExportSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const answer = await privacy.exportStudent(db, actorOf(request), request.params.studentId);
      void reply
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="${studentExportFileName(request.params.studentId)}"`);
      return answer;
    },
  );

  app.delete(
    '/api/privacy/students/:studentId',
    {
      config: { access: { can: 'privacy.manage' } },
      schema: {
        tags,
        summary: 'Deletes a student entirely (record, account, documents, results, attendance, their audit rows); body repeats the ID',
        params: StudentParamsSchema,
        body: DeleteStudentSchema,
        response: { 200: DeleteStudentAnswerSchema, ...errorResponses },
      },
    },
    async (request) => privacy.deleteStudent(db, actorOf(request), request.params.studentId, request.body.confirm_student_id),
  );
};

/**
 * The privacy feature: its routes, and the read logger (every administrator read of a full
 * record or of a document, and every export, is logged). The logger is a hook on every
 * route (so this plugin is not encapsulated): a successful GET by an administrator of a route
 * that serves one student's data (a student named in the path), a document, or a many-student export leaves
 * one audit row before the answer leaves, so no read is served without its record.
 */
export const privacyRoutes = fp(
  async (app: FastifyInstance, { db }: { db: Db }) => {
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.method !== 'GET' || reply.statusCode >= 300) return payload;
      const route = request.routeOptions;
      const path = request.url.split('?')[0] ?? request.url;
      await privacy.auditStaffRead(db, request, { url: route.url, access: route.config?.access, params: (request.params ?? {}) as Record<string, string>, path });
      return payload;
    });
    await app.register(privacyApi, { db });
  },
  { name: 'privacy', dependencies: ['sessions'] },
);
