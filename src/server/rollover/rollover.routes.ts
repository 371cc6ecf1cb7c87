import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  RolloverPlanInputSchema,
  RolloverPreviewSchema,
  RolloverRunAnswerSchema,
  RolloverRunParamsSchema,
  RolloverStateSchema,
} from '../../shared/rollover.schemas.js';
import type { AppDeps } from '../app-deps.js';
import { errorResponses } from '../http/openapi.js';
import { actorOf } from '../http/request-context.js';
import * as rollover from './rollover.service.js';

/**
 * The new school year (docs/decisions.md D60): the administrator's year rollover. The
 * preview and the run take the same plan and the same service function, so the dry run's counts
 * are what the run does; the undo is taken the same school day.
 */
export const rolloverRoutes: FastifyPluginAsync<AppDeps> = async (base, { db }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['year rollover'];

  app.get(
    '/api/year-rollover',
    {
      config: { access: { can: 'year.rollover' } },
      schema: { tags, summary: 'The year being left, every class with its students, the default plan and the past runs', response: { 200: RolloverStateSchema, ...errorResponses } },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      return rollover.getRolloverState(db);
    },
  );

  app.post(
    '/api/year-rollover/preview',
    {
      config: { access: { can: 'year.rollover' } },
      schema: {
        tags,
        summary: 'The dry run: per class, who goes where and who leaves; the terms, windows and reviews it would change. Nothing is written',
        body: RolloverPlanInputSchema,
        response: { 200: RolloverPreviewSchema, ...errorResponses },
      },
    },
    async (request) => rollover.previewRollover(db, request.body),
  );

  app.post(
    '/api/year-rollover',
    {
      config: { access: { can: 'year.rollover' } },
      schema: {
        tags,
        summary: 'Runs the rollover in one transaction: classes move up, leavers become former students, the new terms, windows re-opened, reviews cleared',
        body: RolloverPlanInputSchema,
        response: { 201: RolloverRunAnswerSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await rollover.runRollover(db, actorOf(request), request.body)),
  );

  app.post(
    '/api/year-rollover/:id/undo',
    {
      config: { access: { can: 'year.rollover' } },
      schema: {
        tags,
        summary: 'Undoes a rollover the day it ran, while no later one stands: everything as it was before',
        params: RolloverRunParamsSchema,
        response: { 200: RolloverRunAnswerSchema, ...errorResponses },
      },
    },
    async (request) => rollover.undoRollover(db, actorOf(request), request.params.id),
  );
};
