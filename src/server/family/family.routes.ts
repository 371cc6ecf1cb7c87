import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { StudentIdSchema } from '../../shared/auth.schemas.js';
import { schoolDateTime } from '../../shared/dates.js';
import {
  FamilyChildListSchema,
  FamilyCodeAnswerSchema,
  FamilyForgotPasswordSchema,
  FamilyInviteSchema,
  FamilyLinkAnswerSchema,
  FamilyLinkSchema,
  FamilyMessageAnswerSchema,
  FamilyRegisterSchema,
  FamilyTokenSchema,
  OfficeLinkSchema,
  StudentFamilySchema,
  StudentIdParamsSchema,
} from '../../shared/family.schemas.js';
import type { AppDeps } from '../app-deps.js';
import { errorResponses } from '../http/openapi.js';
import { requireGuardian, requireCaller } from '../http/access.js';
import { invitesOnlyRecordAddresses } from '../access/roles.js';
import { actorOf } from '../http/request-context.js';
import type { ZodApp } from '../http/zod-app.js';
import { renderPdf } from '../pdf/render-on-pool.js';
import { sendPdf } from '../pdf/send-pdf.js';
import { buildFamilyLetters } from './family-letters.pdf.js';
import * as family from './family.service.js';

const withIp = (request: FastifyRequest) => ({ ...actorOf(request), ip: request.ip });

/**
 * Family accounts: a parent's registration and password reset request, the family's
 * children (link by code, accept an invitation, remove), and the office's side of a student's
 * family (who is linked, codes, invitations, links). The calls that end signed in (login, verify,
 * reset) are with the other sign-ins in auth/auth.routes.ts. A call that queued a message wakes the
 * sender once its transaction has committed, so the mail leaves now rather than at the next poll.
 */
export const familyRoutes: FastifyPluginAsync<AppDeps> = async (base, deps) => {
  const app = base.withTypeProvider<ZodTypeProvider>();

  accountRoutes(app, deps);
  childrenRoutes(app, deps);
  officeLinkRoutes(app, deps);
  officeInvitationRoutes(app, deps);
};

const tags = ['family'];
const noStore = { 'cache-control': 'no-store' };

/** A parent's registration, and the request of a password reset link. */
function accountRoutes(app: ZodApp, { db }: AppDeps): void {
  app.post(
    '/api/family/register',
    {
      config: { access: 'visitor' },
      schema: {
        tags,
        summary: 'A parent registers with name and e-mail; the account exists once the mailed link is opened and a password chosen on its page',
        body: FamilyRegisterSchema,
        response: { 202: FamilyMessageAnswerSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const message = await family.registerFamily(db, request.body, withIp(request));
      app.mailSender.wake();
      return reply.status(202).send({ message });
    },
  );

  app.post(
    '/api/family/forgot-password',
    {
      config: { access: 'visitor' },
      schema: { tags, summary: 'Mails a password reset link to a family account’s address', body: FamilyForgotPasswordSchema, response: { 202: FamilyMessageAnswerSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const message = await family.requestPasswordReset(db, request.body.email, withIp(request));
      app.mailSender.wake();
      return reply.status(202).send({ message });
    },
  );
}

/** The signed-in parent's children: the list, linking by code or invitation, and removal. */
function childrenRoutes(app: ZodApp, { db }: AppDeps): void {
  app.get(
    '/api/family/children',
    {
      config: { access: 'family' },
      schema: { tags, summary: "The signed-in parent's children, each with everyone linked to it", response: { 200: FamilyChildListSchema, ...errorResponses } },
    },
    async (request, reply) => reply.headers(noStore).send(await family.listChildren(db, requireGuardian(request).userId)),
  );

  app.post(
    '/api/family/link',
    {
      config: { access: 'family' },
      schema: { tags, summary: "Links a child by the school's family code and the child's date of birth", body: FamilyLinkSchema, response: { 200: FamilyLinkAnswerSchema, ...errorResponses } },
    },
    async (request) => {
      const child = await family.linkByCode(db, requireGuardian(request), request.body, withIp(request));
      return { message: `${child.first_name ?? child.student_id} is now linked to your account.`, child };
    },
  );

  app.post(
    '/api/family/accept',
    {
      config: { access: 'family' },
      schema: { tags, summary: 'Accepts an invitation: the child it names is linked to the signed-in parent', body: FamilyTokenSchema, response: { 200: FamilyLinkAnswerSchema, ...errorResponses } },
    },
    async (request) => {
      const child = await family.acceptInvitation(db, requireGuardian(request), request.body.token, actorOf(request));
      return { message: `${child.first_name ?? child.student_id} is now linked to your account.`, child };
    },
  );

  app.delete(
    '/api/family/children/:student_id',
    {
      config: { access: 'family' },
      schema: { tags, summary: 'Removes a child from the signed-in parent’s account', params: StudentIdParamsSchema, response: { 204: z.null(), ...errorResponses } },
    },
    async (request, reply) => {
      await family.unlinkOwnChild(db, requireGuardian(request), request.params.student_id, actorOf(request));
      return reply.status(204).send(null);
    },
  );
}

/** The office's side of a student's family: who is linked, and the office's links and unlinks. */
function officeLinkRoutes(app: ZodApp, { db }: AppDeps): void {
  // The office's side of a student's family.

  app.get(
    '/api/students/:student_id/family',
    {
      config: { access: { can: 'student.family', student: { param: 'student_id' } } },
      schema: { tags, summary: 'Who is linked to a student, the invitations still open, and whether a code is waiting', params: StudentIdParamsSchema, response: { 200: StudentFamilySchema, ...errorResponses } },
    },
    async (request, reply) => reply.headers(noStore).send(await family.getStudentFamily(db, request.params.student_id)),
  );

  app.post(
    '/api/students/:student_id/family',
    {
      config: { access: { can: 'student.family', student: { param: 'student_id' } } },
      schema: { tags, summary: 'Links an existing family account, by its e-mail, to the student', params: StudentIdParamsSchema, body: OfficeLinkSchema, response: { 200: StudentFamilySchema, ...errorResponses } },
    },
    async (request) => family.officeLink(db, request.params.student_id, request.body.email, actorOf(request)),
  );

  app.delete(
    '/api/students/:student_id/family/:user_id',
    {
      config: { access: { can: 'student.family', student: { param: 'student_id' } } },
      schema: {
        tags,
        summary: "Removes a family account's link to the student",
        params: z.object({ student_id: StudentIdSchema, user_id: z.coerce.number().int().positive() }),
        response: { 200: StudentFamilySchema, ...errorResponses },
      },
    },
    async (request) => family.officeUnlink(db, request.params.student_id, request.params.user_id, actorOf(request)),
  );
}

/** The office's ways of reaching a family: a student's code, an invitation, a class's letters of codes. */
function officeInvitationRoutes(app: ZodApp, { db, config }: AppDeps): void {
  app.post(
    '/api/students/:student_id/family-code',
    {
      config: { access: { can: 'student.family', student: { param: 'student_id' } } },
      schema: { tags, summary: "A new family code for the student (the previous one stops working), shown once", params: StudentIdParamsSchema, response: { 200: FamilyCodeAnswerSchema, ...errorResponses } },
    },
    async (request, reply) => reply.headers(noStore).send(await family.issueFamilyCode(db, request.params.student_id, actorOf(request))),
  );

  app.post(
    '/api/students/:student_id/family-invitations',
    {
      config: { access: { can: 'student.invite-family', student: { param: 'student_id' } } },
      schema: { tags, summary: 'Mails a parent an invitation to the student’s record', params: StudentIdParamsSchema, body: FamilyInviteSchema, response: { 202: FamilyMessageAnswerSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const recordAddressesOnly = invitesOnlyRecordAddresses(requireCaller(request));
      const answer = await family.inviteFamily(db, request.params.student_id, request.body.email, actorOf(request), { recordAddressesOnly });
      app.mailSender.wake();
      return reply.status(202).send(answer);
    },
  );

  app.post(
    '/api/family-letters/:class_id',
    {
      config: { access: { can: 'families.manage', class: { param: 'class_id' } } },
      schema: {
        tags,
        summary: "A new family code for every student of a class, as one PDF of letters to print (the previous codes stop working)",
        params: z.object({ class_id: z.string().trim().min(1).max(10) }),
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const letters = await family.issueClassCodes(db, request.params.class_id, actorOf(request));
      const bytes = await renderPdf(buildFamilyLetters({ schoolName: config.schoolName, portalUrl: config.publicUrl, letters, printedAt: schoolDateTime(new Date()) }));
      return sendPdf(reply, bytes, `Family Codes ${request.params.class_id}.pdf`, 'attachment');
    },
  );
}
