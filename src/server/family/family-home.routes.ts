import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FamilyHomeSchema } from '../../shared/family-home.schemas.js';
import type { AppDeps } from '../app-deps.js';
import { errorResponses } from '../http/openapi.js';
import { requireCaller } from '../http/access.js';
import { can, isGuardianCaller } from '../access/roles.js';
import { getFamilyHome } from './family-home.service.js';

/**
 * GET /api/family/home: a family account's dashboard, a card per linked child in one answer (D76).
 * The access module decides which children: those the account may read, nobody else's.
 */
export const familyHomeRoutes: FastifyPluginAsync<AppDeps> = async (base, { db }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/family/home',
    {
      config: { access: 'family' },
      schema: {
        tags: ['family'],
        summary: "A card per linked child: registration progress and deadline, documents missing or returned, today's attendance, the newest report card",
        response: { 200: FamilyHomeSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const who = requireCaller(request);
      const ids = isGuardianCaller(who) ? who.studentIds.filter((studentId) => can(who, 'student.read', { studentId, classId: null })) : [];
      return reply.headers({ 'cache-control': 'no-store' }).send(await getFamilyHome(db, ids));
    },
  );
};
