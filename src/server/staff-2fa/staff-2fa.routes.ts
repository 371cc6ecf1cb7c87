import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EnrolmentAnswerSchema,
  RecoveryCodesAnswerSchema,
  SecondFactorStatusSchema,
  StartEnrolmentSchema,
  TotpConfirmSchema,
} from '../../shared/staff-2fa.schemas.js';
import type { AppDeps } from '../app-deps.js';
import { requireUser } from '../http/access.js';
import { forbidden } from '../http/errors.js';
import { errorResponses } from '../http/openapi.js';
import { callerOf, isStaffCaller } from '../access/roles.js';
import { actorOf } from '../http/request-context.js';
import * as staff from '../staff/staff.service.js';
import * as service from './staff-2fa.service.js';

/** The signed-in staff account; a student has no second factor (403). */
function requireStaffAccount(request: FastifyRequest): service.StaffAccount {
  const user = requireUser(request);
  const who = callerOf(user);
  if (!isStaffCaller(who)) throw forbidden('Only staff accounts have a second factor.');
  return { id: user.id, username: user.username ?? String(user.id), staffRole: who.role };
}

/**
 * The own second factor of a signed-in staff member: its state, enrolment with a QR
 * code, confirmation with a first code (answers the recovery codes once), and turning it off with
 * a current code where the portal allows it. Each acts on the caller only; the enrolment calls
 * stay open to a session that must set the second factor up before anything else.
 */
export const staff2faRoutes: FastifyPluginAsync<AppDeps> = async (base, { db, config, secret }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff second factor'];
  const during = { access: 'signed-in', allowDuringSecondFactorSetup: true } as const;

  app.get(
    '/api/staff-2fa',
    { config: during, schema: { tags, summary: 'Whether the portal asks for a second factor and whether yours is on', response: { 200: SecondFactorStatusSchema, ...errorResponses } } },
    async (request) => service.getStatus(db, config, requireStaffAccount(request)),
  );

  app.post(
    '/api/staff-2fa/enrol',
    {
      config: during,
      schema: {
        tags,
        summary: 'With the current password: a new secret with its otpauth URI and QR code, until a code confirms it',
        body: StartEnrolmentSchema,
        response: { 200: EnrolmentAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const account = requireStaffAccount(request);
      // The password first (D65): whoever finds a session open must not put their own phone on it.
      await staff.requireOwnStaffPassword(db, account.id, request.body.current_password, actorOf(request));
      return service.startEnrolment(db, config, await secret(), account);
    },
  );

  app.post(
    '/api/staff-2fa/confirm',
    {
      config: during,
      schema: { tags, summary: 'Turns the second factor on with a first code; answers the recovery codes, once', body: TotpConfirmSchema, response: { 200: RecoveryCodesAnswerSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const account = requireStaffAccount(request);
      const recoveryCodes = await service.confirmEnrolment(db, await secret(), account, request.body.code, actorOf(request));
      // Every other session of the account ends, full ones too: they were opened without the
      // factor that now guards the account (D65). This one goes on under a new id (OWASP: a new id
      // when the privilege changes), a full session if it was limited to enrolment.
      await app.sessions.endAllForUser(account.id, request.sessionIdHash);
      await app.sessions.start(request, reply, account.id, request.sessionRemember);
      return { recovery_codes: recoveryCodes };
    },
  );

  app.delete(
    '/api/staff-2fa',
    {
      config: { access: 'signed-in' },
      schema: { tags, summary: 'Turns the second factor off with a current code (not where the portal requires it)', body: TotpConfirmSchema, response: { 204: z.null(), ...errorResponses } },
    },
    async (request, reply) => {
      await service.turnOff(db, config, await secret(), requireStaffAccount(request), request.body.code, actorOf(request));
      return reply.status(204).send(null);
    },
  );
};
