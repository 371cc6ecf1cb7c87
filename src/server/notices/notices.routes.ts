import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import {
  NoticeIdParamsSchema,
  NoticeListSchema,
  NoticePreferencesSchema,
  NoticeSettingsSchema,
  ParentEmailListSchema,
  ParentEmailParamsSchema,
  ReminderPreviewSchema,
  ReminderSendAnswerSchema,
  UnsubscribeAnswerSchema,
  UnsubscribeSchema,
  MailUnsubscribeQuerySchema,
  VerifyParentEmailSchema,
} from '../../shared/notices.schemas.js';
import { StudentIdSchema } from '../../shared/auth.schemas.js';
import type { AppDeps } from '../app-deps.js';
import { errorResponses } from '../http/openapi.js';
import { requireCaller, requireGuardian } from '../http/access.js';
import { isStaffCaller } from '../access/roles.js';
import { actorOf } from '../http/request-context.js';
import type { ZodApp } from '../http/zod-app.js';
import * as service from './notices.service.js';

/**
 * Messages to families (docs/decisions.md D57): the notices list (a family account's own,
 * a student's about them), a family's preferences, the unsubscribe link, the office's settings,
 * deadline reminders and the verified parent e-mails.
 */
export const noticeRoutes: FastifyPluginAsync<AppDeps> = async (base, deps) => {
  const app = base.withTypeProvider<ZodTypeProvider>();

  familyNoticeRoutes(app, deps);
  oneClickUnsubscribeRoutes(app, deps);
  officeSettingsRoutes(app, deps);
  parentEmailRoutes(app, deps);
};

const tags = ['notices'];

/** A family's (or student's) notices and preferences, and the unsubscribe link's token. */
function familyNoticeRoutes(app: ZodApp, { db, config }: AppDeps): void {
  const context = { schoolName: config.schoolName, publicUrl: config.publicUrl };

  app.get(
    '/api/notices',
    {
      config: { access: 'signed-in' },
      schema: { tags, summary: "The signed-in family's (or student's own) notices, newest first, with the unread count; staff have none", response: { 200: NoticeListSchema, ...errorResponses } },
    },
    async (request) => {
      const who = requireCaller(request);
      if (isStaffCaller(who)) return { notices: [], unread: 0 };
      return service.listNotices(db, who, context);
    },
  );

  app.post(
    '/api/notices/:id/read',
    {
      config: { access: 'family' },
      schema: { tags, summary: "Marks one of the family's notices read", params: NoticeIdParamsSchema, response: { 204: z.null(), ...errorResponses } },
    },
    async (request, reply) => {
      await service.markNoticeRead(db, requireGuardian(request).userId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/notice-preferences',
    {
      config: { access: 'family' },
      schema: { tags, summary: 'Which optional messages the family receives', response: { 200: NoticePreferencesSchema, ...errorResponses } },
    },
    async (request) => service.getPreferences(db, requireGuardian(request).userId),
  );

  app.put(
    '/api/notice-preferences',
    {
      config: { access: 'family' },
      schema: { tags, summary: 'Turns the optional messages on or off for the family account', body: NoticePreferencesSchema, response: { 200: NoticePreferencesSchema, ...errorResponses } },
    },
    async (request) => service.updatePreferences(db, requireGuardian(request).userId, request.body, actorOf(request)),
  );

  app.post(
    '/api/notices/unsubscribe',
    {
      // The mailed link works without a sign-in, and only to turn off the one kind for the one recipient its token names.
      config: { access: 'public' },
      schema: { tags, summary: "An unsubscribe link's token: turns that kind off for that recipient", body: UnsubscribeSchema, response: { 200: UnsubscribeAnswerSchema, ...errorResponses } },
    },
    async (request) => service.unsubscribe(db, request.body.token, actorOf(request)),
  );
}

/** One-click unsubscribe from the mail program (RFC 8058, D84). */
function oneClickUnsubscribeRoutes(app: ZodApp, { db }: AppDeps): void {
  // The mail program POSTs `List-Unsubscribe=One-Click` as a form; the token in the address is
  // what decides, so the body is read as text and not needed further. Only this plugin's routes
  // take a form.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => done(null, body));

  app.get(
    '/api/mail/unsubscribe',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "A message's List-Unsubscribe link opened in a browser: goes to the page that asks before turning anything off (a GET never unsubscribes: mail scanners follow links)",
        querystring: MailUnsubscribeQuerySchema,
        response: { 303: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => reply.redirect(`/notices/unsubscribe?token=${encodeURIComponent(request.query.token)}`, 303),
  );

  app.post(
    '/api/mail/unsubscribe',
    {
      // Sent by the mail program, with no cookie and no CSRF header: the signed token is the
      // authority, and it turns off only the one kind for the one recipient it names.
      config: { access: 'public', csrf: false },
      schema: {
        tags,
        summary: 'RFC 8058 one-click unsubscribe: turns the kind the token names off for its recipient, without a sign-in',
        querystring: MailUnsubscribeQuerySchema,
        response: { 200: UnsubscribeAnswerSchema, ...errorResponses },
      },
    },
    async (request) => service.unsubscribe(db, request.query.token, actorOf(request)),
  );
}

/** The office: the settings of messages to families, and the deadline reminders. */
function officeSettingsRoutes(app: ZodApp, { db }: AppDeps): void {
  app.get(
    '/api/notice-settings',
    {
      config: { access: { can: 'notices.manage' } },
      schema: { tags, summary: "The attendance digest's switch and time, and the reminders' days before the deadline", response: { 200: NoticeSettingsSchema, ...errorResponses } },
    },
    async () => service.getNoticeSettings(db),
  );

  app.put(
    '/api/notice-settings',
    {
      config: { access: { can: 'notices.manage' } },
      schema: { tags, summary: 'Changes the settings of messages to families', body: NoticeSettingsSchema, response: { 200: NoticeSettingsSchema, ...errorResponses } },
    },
    async (request) => service.updateNoticeSettings(db, request.body, actorOf(request)),
  );

  app.get(
    '/api/deadline-reminders/preview',
    {
      config: { access: { can: 'notices.manage' } },
      schema: { tags, summary: 'Who a reminder sent now would reach, and about which children', response: { 200: ReminderPreviewSchema, ...errorResponses } },
    },
    async () => service.previewReminders(db),
  );

  app.post(
    '/api/deadline-reminders',
    {
      config: { access: { can: 'notices.manage' } },
      schema: { tags, summary: 'Sends the reminders the preview lists (at most one a week per family)', response: { 200: ReminderSendAnswerSchema, ...errorResponses } },
    },
    async (request) => {
      const answer = await service.sendReminders(db, actorOf(request));
      app.mailSender.wake();
      return answer;
    },
  );
}

/** The office: a record's parent e-mails, and their verification. */
function parentEmailRoutes(app: ZodApp, { db }: AppDeps): void {
  app.get(
    '/api/students/:student_id/parent-emails',
    {
      config: { access: { can: 'student.family', student: { param: 'student_id' } } },
      schema: { tags, summary: "The record's parent e-mails and whether the office verified each", params: z.object({ student_id: StudentIdSchema }), response: { 200: ParentEmailListSchema, ...errorResponses } },
    },
    async (request) => service.listParentEmails(db, request.params.student_id),
  );

  app.put(
    '/api/students/:student_id/parent-emails/:parent',
    {
      config: { access: { can: 'student.family', student: { param: 'student_id' } } },
      schema: {
        tags,
        summary: "Marks (or unmarks) a record's parent e-mail as verified by the office: a child with no family account is written to there",
        params: ParentEmailParamsSchema,
        body: VerifyParentEmailSchema,
        response: { 200: ParentEmailListSchema, ...errorResponses },
      },
    },
    async (request) => service.setParentEmailVerified(db, request.params.student_id, request.params.parent, request.body, actorOf(request)),
  );
}
