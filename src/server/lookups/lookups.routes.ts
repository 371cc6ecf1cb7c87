import { createHash } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LOOKUP_NAMES, LOOKUPS } from '../../shared/lookups.schemas.js';
import type { Db } from '../db/database.js';
import { errorResponses } from '../http/openapi.js';
import { defineRead, type ReadDefinition } from '../http/reads.js';
import { listLookup } from './lookups.service.js';

/** How long a browser or proxy may reuse a lookup list before asking again (with its ETag). */
const LOOKUP_MAX_AGE_S = 3600;

/**
 * The lookup lists (docs/requirements.md R4: towns, religions, ethnic groups, houses, regional corporations,
 * form classes, primary schools). Public: they hold no personal data, and a shared cache may keep
 * them (docs/decisions.md). Each answer carries an ETag; a matching If-None-Match gets 304.
 */
export function lookupReads(db: Db): ReadDefinition[] {
  return LOOKUP_NAMES.map((name) =>
    defineRead({
      url: LOOKUPS[name].path,
      access: 'public',
      tags: ['lookups'],
      answer: LOOKUPS[name].schema,
      cacheControl: `public, max-age=${LOOKUP_MAX_AGE_S}`,
      handle: async () => (await listLookup(db, name)) as z.infer<(typeof LOOKUPS)[typeof name]['schema']>,
    }),
  );
}

/** The lookups' API routes: each read with its ETag (a registration step's page renders from the same reads). */
export const lookupRoutes: FastifyPluginAsync<{ db: Db }> = async (base, { db }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  for (const read of lookupReads(db)) {
    app.get(
      read.url,
      {
        config: { access: read.access },
        schema: { tags: read.tags, response: { 200: read.answer, 304: z.null().describe('Not modified'), ...errorResponses } },
      },
      async (request, reply) => {
        const rows = await read.handle(request, { params: {}, query: {} });
        const body = JSON.stringify(rows);
        const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
        void reply.header('cache-control', read.cacheControl ?? 'no-cache').header('etag', etag);
        const ifNoneMatch = request.headers['if-none-match'];
        if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
          return reply.status(304).send(null);
        }
        return rows;
      },
    );
  }
};
