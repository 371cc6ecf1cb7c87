import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pingDatabase, type Db } from '../db/database.js';
import { errorResponses } from './openapi.js';

/**
 * Health for whatever watches the process (docs/decisions.md D36). Liveness, `/api/health`: the
 * process answers; it never touches the database, so a database outage does not get every
 * process restarted (a restart would not bring the database back). Readiness,
 * `/api/health/ready`: the database answers a query too; a load balancer sends no users to a
 * process that would only answer them 503, and the answer says why (the error handler's 503/507).
 */
export const healthRoutes: FastifyPluginAsync<{ db: Db }> = async (base, { db }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/health',
    { config: { access: 'public' }, schema: { hide: true, response: { 200: z.object({ ok: z.literal(true) }) } } },
    async () => ({ ok: true as const }),
  );
  app.get(
    '/api/health/ready',
    {
      config: { access: 'public' },
      schema: { hide: true, response: { 200: z.object({ ok: z.literal(true), database: z.literal('ok') }), ...errorResponses } },
    },
    async (_request, reply) => {
      await pingDatabase(db);
      void reply.header('cache-control', 'no-store');
      return { ok: true as const, database: 'ok' as const };
    },
  );
};
