import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { schoolToday } from '../../shared/dates.js';
import {
  IntakeFinaliseParamsSchema,
  IntakeFinaliseResultSchema,
  IntakeStudentParamsSchema,
  IntakeUndoAnswerSchema,
  IntakeViewSchema,
  MoveIntakeStudentSchema,
} from '../../shared/intake.schemas.js';
import type { AppDeps } from '../app-deps.js';
import { errorResponses } from '../http/openapi.js';
import { actorOf } from '../http/request-context.js';
import { receiveSpreadsheet } from '../spreadsheets/receive-spreadsheet.js';
import * as service from './intake.service.js';

/**
 * The new Form 1 (docs/decisions.md D61), for the office and administrators
 * (`intake.manage`): import the SEA placement list, see and change the class allocation, clear it,
 * finalise it into students, and undo a finalise the same day (D79).
 */
export const intakeRoutes: FastifyPluginAsync<AppDeps> = async (base, { db, config }) => {
  // Multipart only in this plugin (the placement list), as the other imports do.
  await base.register(fastifyMultipart, { limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 5, parts: 6 } });
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['intake'];
  const access = { can: 'intake.manage' } as const;

  app.get(
    '/api/intake',
    { config: { access }, schema: { tags, summary: 'The intake and the Form 1 classes with their counts by sex and primary school', response: { 200: IntakeViewSchema, ...errorResponses } } },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      return service.intakeView(db);
    },
  );

  app.post(
    '/api/intake/import',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Imports the SEA placement list (XLSX or CSV, multipart field "file") as the intake; every row checked, nothing stored on a problem',
        response: { 200: IntakeViewSchema, 413: ApiErrorSchema, 415: ApiErrorSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { fileName, bytes } = await receiveSpreadsheet(request, config.uploadMaxBytes);
      return service.importIntake(db, bytes, { fileName, actor: actorOf(request), today: schoolToday() });
    },
  );

  app.post(
    '/api/intake/balance',
    { config: { access }, schema: { tags, summary: 'Allocates the whole intake to the Form 1 classes, evenly by sex and primary school', response: { 200: IntakeViewSchema, ...errorResponses } } },
    async (request) => service.balanceIntake(db, actorOf(request)),
  );

  app.patch(
    '/api/intake/students/:id',
    {
      config: { access },
      schema: { tags, summary: 'Moves one child of the intake to a Form 1 class (or back to none)', params: IntakeStudentParamsSchema, body: MoveIntakeStudentSchema, response: { 200: IntakeViewSchema, ...errorResponses } },
    },
    async (request) => service.moveIntakeStudent(db, request.params.id, request.body.class_id, actorOf(request)),
  );

  app.delete(
    '/api/intake',
    { config: { access }, schema: { tags, summary: 'Clears the intake before it is finalised', response: { 200: IntakeViewSchema, ...errorResponses } } },
    async (request) => service.clearIntake(db, actorOf(request)),
  );

  app.post(
    '/api/intake/finalise',
    {
      config: { access },
      schema: { tags, summary: 'Makes every child of the intake a student in their class, with the next IDs of the entry year; all or none', response: { 200: IntakeFinaliseResultSchema, ...errorResponses } },
    },
    async (request) => service.finaliseIntake(db, actorOf(request), schoolToday()),
  );

  app.post(
    '/api/intake/finalises/:id/undo',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Undoes a finalise the day it ran, while no later one stands and none of its students was used: the children are back in the intake',
        params: IntakeFinaliseParamsSchema,
        response: { 200: IntakeUndoAnswerSchema, ...errorResponses },
      },
    },
    async (request) => service.undoFinalise(db, actorOf(request), request.params.id),
  );
};
