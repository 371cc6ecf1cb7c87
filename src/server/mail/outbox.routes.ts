import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { OutboxIdParamsSchema, OutboxListQuerySchema, OutboxMessageSchema, OutboxPageSchema, SendTestMessageSchema } from '../../shared/outbox.schemas.js';
import type { AppDeps } from '../app-deps.js';
import { requireUser } from '../http/access.js';
import { errorResponses } from '../http/openapi.js';
import { actorOf } from '../http/request-context.js';
import * as outbox from './outbox.service.js';

/**
 * The Outbox: the administrator's view of every message the portal sends
 * (`outbox.manage`), Resend, and a test message that checks the school's mail settings.
 */
export const outboxRoutes: FastifyPluginAsync<AppDeps> = async (base, { db, config }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['outbox'];
  const context = { schoolName: config.schoolName, publicUrl: config.publicUrl };

  app.get(
    '/api/outbox',
    {
      config: { access: { can: 'outbox.manage' } },
      schema: {
        tags,
        summary: 'Messages, newest first, a page at a time: to, subject, state, tries, last error (never a body)',
        querystring: OutboxListQuerySchema,
        response: { 200: OutboxPageSchema, ...errorResponses },
      },
    },
    async (request) => outbox.listOutbox(db, request.query, context, { maxTries: app.mailSender.settings.maxTries, configured: app.mailSender.configured }),
  );

  app.post(
    '/api/outbox/:id/resend',
    {
      config: { access: { can: 'outbox.manage' } },
      schema: {
        tags,
        summary: 'Sends a failed or waiting message again, with all its tries ahead of it (409 once sent)',
        params: OutboxIdParamsSchema,
        response: { 200: OutboxMessageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const message = await outbox.resendMessage(db, request.params.id, actorOf(request), context);
      app.mailSender.wake();
      return message;
    },
  );

  app.post(
    '/api/outbox/test',
    {
      config: { access: { can: 'outbox.manage' } },
      schema: {
        tags,
        summary: "Queues a short test message to an address: how a school checks its mail settings",
        body: SendTestMessageSchema,
        response: { 201: OutboxMessageSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const message = await outbox.queueTestMessage(db, request.body, requireUser(request).name, actorOf(request), context);
      app.mailSender.wake();
      return reply.status(201).send(message);
    },
  );
};
