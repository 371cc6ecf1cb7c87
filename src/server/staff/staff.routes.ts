import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ChangeStaffPasswordAnswerSchema,
  ChangeStaffPasswordSchema,
  CreateStaffSchema,
  ResetSecondFactorAnswerSchema,
  StaffAccountWithPasswordSchema,
  StaffIdParamsSchema,
  StaffListSchema,
  UpdateStaffSchema,
} from '../../shared/staff.schemas.js';
import type { AppDeps } from '../app-deps.js';
import { errorResponses } from '../http/openapi.js';
import { actorOf } from '../http/request-context.js';
import * as staff from './staff.service.js';

/**
 * Staff accounts: the administrator's list, add, change and second-factor reset
 * (`staff.manage`, D65), and a staff member's own password change, which a new or reset account
 * must make before anything else (http/access.ts lets only this call and sign-out through until then).
 */
export const staffRoutes: FastifyPluginAsync<AppDeps> = async (base, { db, config }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff'];

  app.get(
    '/api/staff',
    {
      config: { access: { can: 'staff.manage' } },
      schema: { tags, summary: 'Every staff account', response: { 200: StaffListSchema, ...errorResponses } },
    },
    async () => staff.listStaff(db),
  );

  app.post(
    '/api/staff',
    {
      config: { access: { can: 'staff.manage' } },
      schema: {
        tags,
        summary: 'Adds a staff account; its one-time password is in this answer only',
        body: CreateStaffSchema,
        response: { 201: StaffAccountWithPasswordSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const account = await staff.createStaff(db, request.body, actorOf(request));
      return reply.status(201).header('cache-control', 'no-store').send(account);
    },
  );

  app.patch(
    '/api/staff/:id',
    {
      config: { access: { can: 'staff.manage' } },
      schema: {
        tags,
        summary: 'Changes name, role, classes, e-mail or disabled; reset_password: true answers a new one-time password once',
        params: StaffIdParamsSchema,
        body: UpdateStaffSchema,
        response: { 200: StaffAccountWithPasswordSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { account, endSessions } = await staff.updateStaff(db, request.params.id, request.body, actorOf(request));
      // A replaced password or an account enabled again: no earlier session of it goes on (D84).
      if (endSessions) await app.sessions.endAllForUser(account.id);
      return reply.header('cache-control', 'no-store').send(account);
    },
  );

  app.post(
    '/api/staff/:id/reset-second-factor',
    {
      config: { access: { can: 'staff.manage' } },
      schema: {
        tags,
        summary: "Turns another staff member's second factor off and removes its recovery codes; signs them out and mails them",
        params: StaffIdParamsSchema,
        response: { 200: ResetSecondFactorAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const answer = await staff.resetSecondFactor(db, config, request.params.id, actorOf(request), request.user!.name);
      // Signed out everywhere: under a required rule the next sign-in sets a factor up again.
      await app.sessions.endAllForUser(answer.account.id);
      return answer;
    },
  );

  app.post(
    '/api/change-password-staff',
    {
      config: { access: 'signed-in', allowDuringPasswordChange: true },
      schema: {
        tags: ['auth'],
        summary: "A staff member's own password change (12+ characters, not a common password)",
        body: ChangeStaffPasswordSchema,
        response: { 200: ChangeStaffPasswordAnswerSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = request.user!;
      const answer = await staff.changeOwnStaffPassword(db, user.id, request.body, actorOf(request));
      // Every other session of the account ends; this one goes on under a fresh id (as a student's change).
      await app.sessions.endAllForUser(user.id, request.sessionIdHash);
      await app.sessions.start(request, reply, user.id, request.sessionRemember);
      return answer;
    },
  );
};
