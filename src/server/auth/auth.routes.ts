import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminLoginAnswerSchema,
  AdminSignedInSchema,
  AdminLoginSchema,
  ChangePasswordAnswerSchema,
  FindStudentIdAnswerSchema,
  ChangePasswordSchema,
  FindStudentIdSchema,
  FirstLoginSchema,
  LoginAnswerSchema,
  ResetPasswordSchema,
  SessionAnswerSchema,
  StudentForgotPasswordSchema,
  StudentIdSchema,
  StudentLoginSchema,
  StudentResetAnswerSchema,
  StudentResetPasswordSchema,
  UserStatusSchema,
  type SessionAnswer,
} from '../../shared/auth.schemas.js';
import { SecondFactorLoginSchema } from '../../shared/staff-2fa.schemas.js';
import { FamilyLoginSchema, FamilyResetPasswordSchema, FamilySignedInSchema, FamilyVerifySchema } from '../../shared/family.schemas.js';
import * as family from '../family/family.service.js';
import type { AppDeps } from '../app-deps.js';
import { callerOf, isGuardianCaller, permissionsOf, studentPermissionsOf } from '../access/roles.js';
import { actorOf } from '../http/request-context.js';
import { errorResponses } from '../http/openapi.js';
import { defineRead, registerRead, type ReadDefinition } from '../http/reads.js';
import type { ZodApp } from '../http/zod-app.js';
import * as auth from './auth.service.js';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_S, readTrustedDevices, type TrustedDevices } from './device-cookie.js';
import { mintPendingSignIn, parsePendingSignIn, PENDING_SIGN_IN_COOKIE, PENDING_SIGN_IN_TTL_MS } from './pending-sign-in.js';
import { createProviderSignIn, OIDC_COOKIE_PATH, OIDC_PENDING_COOKIE, OIDC_PENDING_TTL_MS, parsePending, ProviderSignInFailed } from './oidc.js';
import { StaffSignInOptionsSchema, type ProviderSignInError } from '../../shared/staff-sign-in.js';

function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

function sessionAnswer(request: FastifyRequest): SessionAnswer {
  const user = request.user;
  if (!user) return request.sessionEnded ? { user: null, ended: request.sessionEnded } : { user: null };
  const who = callerOf(user);
  return {
    user: {
      role: user.role,
      name: user.name,
      initials: initialsOf(user.name),
      student_id: user.studentId,
      username: user.username,
      first_login: user.firstLogin ? 1 : 0,
      password_reset: user.passwordReset ? 1 : 0,
      staff_role: user.staffRole,
      class_ids: user.classIds,
      ...(isGuardianCaller(who) ? { child_ids: user.childIds, email: user.email } : {}),
      permissions: permissionsOf(who),
      student_permissions: studentPermissionsOf(who),
      second_factor_setup: user.secondFactorSetup,
    },
  };
}

const withIp = (request: FastifyRequest) => ({ ...actorOf(request), ip: request.ip });

/** The half-done staff sign-in's cookie: sent only to the second step, never readable by scripts. */
const pendingCookieOptions = (request: FastifyRequest) =>
  ({ path: '/api/admin-login', httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https' }) as const;

/** Sign-in, sign-out, password and session calls (docs/requirements.md R3, R15). */
export const authRoutes: FastifyPluginAsync<AppDeps> = async (base, deps) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const signIn = signInOf(app, deps.secret);

  studentSignInRoutes(app, deps, signIn);
  familySignInRoutes(app, deps, signIn);
  studentForgottenPasswordRoutes(app, deps);
  firstSignInRoutes(app, deps, signIn);
  studentPasswordChangeRoutes(app, deps);
  staffSignInRoutes(app, deps, signIn);
  providerSignInRoutes(app, deps, signIn);
  sessionRoutes(app);
  for (const read of authReads(deps)) registerRead(app, read);
  studentAccountHelpRoutes(app, deps);
};

const tags = ['auth'];

/** What the sign-in calls share: the browser's remembered accounts, and the start of a session. */
function signInOf(app: ZodApp, secret: AppDeps['secret']) {
  const devicesOf = async (request: FastifyRequest): Promise<TrustedDevices> => readTrustedDevices(await secret(), request.cookies[DEVICE_COOKIE]);
  /**
   * A successful sign-in: a new session, and this browser remembered for the account (D37).
   * Answers whether the session manager limited the session to the second factor's enrolment.
   */
  const startSession = async (request: FastifyRequest, reply: FastifyReply, userId: number, remember: boolean, proof?: { secondFactorByProvider: boolean }) => {
    const started = await app.sessions.start(request, reply, userId, remember, proof);
    reply.setCookie(DEVICE_COOKIE, (await devicesOf(request)).withAccount(userId), {
      path: '/api',
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      maxAge: DEVICE_COOKIE_MAX_AGE_S,
    });
    return started;
  };

  return { devicesOf, startSession };
}

type SignIn = ReturnType<typeof signInOf>;

/** A student's sign-in with Student ID and password. */
function studentSignInRoutes(app: ZodApp, { db }: AppDeps, { devicesOf, startSession }: SignIn): void {
  app.post(
    '/api/login-student',
    {
      config: { access: 'visitor' },
      schema: { tags, body: StudentLoginSchema, response: { 200: LoginAnswerSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const { user, answer } = await auth.signInStudent(db, request.body, withIp(request), await devicesOf(request));
      await startSession(request, reply, user.id, request.body.remember);
      return answer;
    },
  );
}

/** Family accounts: sign-in, the registration link and the password reset link, each ending signed in. */
function familySignInRoutes(app: ZodApp, { db }: AppDeps, { devicesOf, startSession }: SignIn): void {
  // Family accounts: the calls that end signed in as a parent. The rest of the family's
  // calls are the family feature's (family/family.routes.ts).
  app.post(
    '/api/family/login',
    {
      config: { access: 'visitor' },
      schema: { tags: ['family'], summary: "A parent's sign-in with e-mail and password", body: FamilyLoginSchema, response: { 200: FamilySignedInSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const { user, answer } = await auth.signInGuardian(db, request.body, withIp(request), await devicesOf(request));
      await startSession(request, reply, user.id, request.body.remember);
      return answer;
    },
  );

  app.post(
    '/api/family/verify',
    {
      config: { access: 'visitor' },
      schema: {
        tags: ['family'],
        summary: 'Opens the link of a registration with the password chosen on its page: the account is created and signed in',
        body: FamilyVerifySchema,
        response: { 200: FamilySignedInSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const account = await family.verifyFamily(db, request.body, actorOf(request));
      await startSession(request, reply, account.userId, false);
      return { name: account.name, email: account.email, role: 'guardian' as const };
    },
  );

  app.post(
    '/api/family/reset-password',
    {
      config: { access: 'visitor' },
      schema: {
        tags: ['family'],
        summary: 'Opens a password reset link with the new password; every other session of the account ends',
        body: FamilyResetPasswordSchema,
        response: { 200: FamilySignedInSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const account = await family.resetPassword(db, request.body, actorOf(request));
      await app.sessions.endAllForUser(account.userId);
      await startSession(request, reply, account.userId, false);
      return { name: account.name, email: account.email, role: 'guardian' as const };
    },
  );
}

/** A student's forgotten password: the reset link mailed to the family, and its opening (D77). */
function studentForgottenPasswordRoutes(app: ZodApp, { db }: AppDeps): void {
  // A student's forgotten password: a link mailed to their family (D77). The link and its mail are
  // written after the answer has left, so the answer's time does not tell whether one was made;
  // the app waits for those still being written before it closes.
  const deliveries = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...deliveries]);
  });

  app.post(
    '/api/student-password/forgot',
    {
      config: { access: 'visitor' },
      schema: {
        tags,
        summary: "A student's forgotten password: Student ID and date of birth; a reset link goes to the family's addresses. The same answer whatever was found",
        body: StudentForgotPasswordSchema,
        response: { 202: z.object({ message: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { message, deliver } = await auth.requestStudentPasswordReset(db, request.body, withIp(request));
      await reply.status(202).send({ message });
      if (deliver) {
        const delivery = deliver().then(
          () => app.mailSender.wake(),
          (error: unknown) => request.log.error({ err: error }, 'a student password reset link was not written'),
        );
        deliveries.add(delivery);
        void delivery.finally(() => deliveries.delete(delivery));
      }
      return reply;
    },
  );

  app.post(
    '/api/student-password/reset',
    {
      config: { access: 'visitor' },
      schema: {
        tags,
        summary: "Opens a student's reset link with the new password; every session of the student ends, and the student signs in with it",
        body: StudentResetPasswordSchema,
        response: { 200: StudentResetAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId, studentId } = await auth.resetStudentPasswordByLink(db, request.body, actorOf(request));
      await app.sessions.endAllForUser(userId);
      return { message: `The new password is saved. Sign in with Student ID ${studentId} and the new password.`, student_id: studentId };
    },
  );
}

/** A student's first sign-in, and the account status the sign-in page asks for first. */
function firstSignInRoutes(app: ZodApp, { db }: AppDeps, { startSession }: SignIn): void {
  app.post(
    '/api/first-login',
    {
      config: { access: 'visitor' },
      schema: {
        tags,
        summary: 'First sign-in with the birth certificate pin or SEA number and date of birth (yyyy-MM-dd, or yyyymmdd)',
        body: FirstLoginSchema,
        response: { 200: LoginAnswerSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { user, answer } = await auth.signInFirstTime(db, request.body, withIp(request));
      await startSession(request, reply, user.id, request.body.remember);
      return answer;
    },
  );

  app.get(
    '/api/user/:student_id',
    {
      config: { access: 'visitor' },
      schema: { tags, params: z.object({ student_id: StudentIdSchema }), response: { 200: UserStatusSchema, ...errorResponses } },
    },
    async (request) => auth.getUserStatus(db, request.params.student_id, request.ip),
  );
}

/** A signed-in student's password change. */
function studentPasswordChangeRoutes(app: ZodApp, { db }: AppDeps): void {
  app.post(
    '/api/change-password-student',
    {
      config: { access: 'signed-in', allowDuringPasswordChange: true },
      schema: { tags, body: ChangePasswordSchema, response: { 200: ChangePasswordAnswerSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const session = request.user!;
      const { user, name } = await auth.changeStudentPassword(db, session.id, session.studentId, request.body, actorOf(request));
      // Every other session of the account ends; this one continues under a fresh id, its cookie
      // kept as the person chose at sign-in ("Keep me signed in", D47).
      await app.sessions.endAllForUser(user.id, request.sessionIdHash);
      await app.sessions.start(request, reply, user.id, request.sessionRemember);
      return { name };
    },
  );
}

/** Staff sign-in: the password step and, when the account has one, the second factor's code. */
function staffSignInRoutes(app: ZodApp, { db, config, secret }: AppDeps, { devicesOf, startSession }: SignIn): void {
  app.post(
    '/api/admin-login',
    {
      config: { access: 'visitor' },
      schema: { tags, body: AdminLoginSchema, response: { 200: AdminLoginAnswerSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const result = await auth.signInAdmin(db, config, request.body, withIp(request), await devicesOf(request));
      if (result.kind === 'second-factor') {
        // No session yet: the browser keeps the half-done sign-in for 5 minutes, for the code.
        reply.setCookie(PENDING_SIGN_IN_COOKIE, mintPendingSignIn(await secret(), result.user, request.body.remember), {
          ...pendingCookieOptions(request),
          maxAge: Math.floor(PENDING_SIGN_IN_TTL_MS / 1000),
        });
        return { second_factor: 'totp' as const };
      }
      const { secondFactorSetup } = await startSession(request, reply, result.user.id, request.body.remember);
      // The answer says what the session is: the browser goes to the enrolment when it is limited.
      return secondFactorSetup ? { ...result.answer, second_factor_setup: true as const } : result.answer;
    },
  );

  app.post(
    '/api/admin-login/totp',
    {
      config: { access: 'visitor' },
      schema: {
        tags,
        summary: 'The second step of a staff sign-in: the 6-digit code from the authenticator app, or a recovery code',
        body: SecondFactorLoginSchema,
        response: { 200: AdminSignedInSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const pending = parsePendingSignIn(request.cookies[PENDING_SIGN_IN_COOKIE]);
      const { user, answer, remember } = await auth.completeAdminSignIn(db, await secret(), pending, request.body, withIp(request), await devicesOf(request));
      reply.clearCookie(PENDING_SIGN_IN_COOKIE, pendingCookieOptions(request));
      await startSession(request, reply, user.id, remember);
      return answer;
    },
  );
}

/**
 * Staff sign-in through the school's own provider (OpenID Connect, docs/decisions.md D96): what
 * the staff sign-in page offers, the start (to the provider) and the callback (back from it).
 * Both are page loads, not calls: every outcome is a redirect, a refusal to the staff sign-in
 * page with its reason (`/admin?sign_in_error=…`), never a session. Without OIDC_* they only
 * send the browser back to the sign-in page.
 */
function providerSignInRoutes(app: ZodApp, { db, config, secret }: AppDeps, { startSession }: SignIn): void {
  const providers = createProviderSignIn(config);
  const cookieOptions = (request: FastifyRequest) => ({ path: OIDC_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https' }) as const;
  const refused = (reply: FastifyReply, reason: ProviderSignInError) => reply.redirect(`/admin?sign_in_error=${reason}`, 302);
  const ProviderParamsSchema = z.object({ provider: z.string().max(40) });

  app.get(
    '/api/oidc/:provider/start',
    {
      config: { access: 'visitor' },
      schema: {
        tags,
        summary: "Starts a staff sign-in at the school's provider: a redirect there (remember=1 for \"Keep me signed in\")",
        params: ProviderParamsSchema,
        querystring: z.object({ remember: z.enum(['0', '1']).optional() }),
        response: { 302: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const provider = providers.providerOf(request.params.provider);
      if (!provider) return refused(reply, 'not_started');
      try {
        const { url, cookie } = await providers.start(provider, await secret(), request.query.remember === '1');
        reply.setCookie(OIDC_PENDING_COOKIE, cookie, { ...cookieOptions(request), maxAge: Math.floor(OIDC_PENDING_TTL_MS / 1000) });
        return reply.header('cache-control', 'no-store').redirect(url, 302);
      } catch (error) {
        if (!(error instanceof ProviderSignInFailed)) throw error;
        request.log.warn({ provider: provider.id, reason: error.reason, detail: error.message }, 'a staff sign-in could not reach its provider');
        return refused(reply, error.reason);
      }
    },
  );

  app.get(
    '/api/oidc/:provider/callback',
    {
      config: { access: 'visitor' },
      schema: {
        tags,
        summary: "The school's provider sends the browser back here: signed in to the admin area, or sent to the staff sign-in page with the reason",
        params: ProviderParamsSchema,
        response: { 302: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const pending = parsePending(await secret(), request.cookies[OIDC_PENDING_COOKIE]);
      // Taken once: whatever happens next, this browser's sign-in in progress is over.
      reply.clearCookie(OIDC_PENDING_COOKIE, cookieOptions(request));
      reply.header('cache-control', 'no-store');
      const provider = pending ? providers.providerOf(request.params.provider) : undefined;
      if (!pending || !provider || provider.id !== pending.p) {
        // Logged, not audited: anyone can open this address, and the audit log is for people's sign-ins.
        request.log.info({ provider: request.params.provider.slice(0, 40) }, 'a provider callback without a sign-in started in this browser');
        return refused(reply, 'not_started');
      }
      const queryAt = request.url.indexOf('?');
      let identity;
      try {
        identity = await providers.complete(provider, pending, queryAt === -1 ? '' : request.url.slice(queryAt));
      } catch (error) {
        if (!(error instanceof ProviderSignInFailed)) throw error;
        // Who it was is not known yet (the token did not pass its checks): the log says why, for the administrator.
        request.log.warn({ provider: provider.id, reason: error.reason, detail: error.message.slice(0, 300) }, 'a staff sign-in through the provider failed');
        return refused(reply, error.reason);
      }
      const outcome = await auth.signInStaffThroughProvider(db, config, identity, withIp(request));
      if (outcome.kind === 'refused') return refused(reply, outcome.reason);
      if (outcome.kind === 'second-factor') {
        // The portal's own code comes next, as after a password: the same half-done sign-in.
        reply.setCookie(PENDING_SIGN_IN_COOKIE, mintPendingSignIn(await secret(), { id: outcome.user.id, passwordHash: outcome.user.passwordHash ?? '' }, pending.r), {
          ...pendingCookieOptions(request),
          maxAge: Math.floor(PENDING_SIGN_IN_TTL_MS / 1000),
        });
        return reply.redirect('/admin?step=code', 302);
      }
      const { secondFactorSetup } = await startSession(request, reply, outcome.user.id, pending.r, { secondFactorByProvider: outcome.secondFactorByProvider });
      return reply.redirect(secondFactorSetup ? '/admin/two-factor' : '/admin/dashboard', 302);
    },
  );
}

/** The session: sign-out, and who is signed in. */
function sessionRoutes(app: ZodApp): void {
  app.post(
    '/logout',
    { config: { access: 'public', allowDuringPasswordChange: true }, schema: { tags, response: { 204: z.null(), ...errorResponses } } },
    async (request, reply) => {
      await app.sessions.end(request, reply);
      return reply.status(204).send(null);
    },
  );
}

/** Who is signed in and how staff sign in: the reads every first screen renders from (http/reads.ts). */
export function authReads({ config }: Pick<AppDeps, 'config'>): ReadDefinition[] {
  return [
    defineRead({
      url: '/api/session',
      access: 'public',
      tags,
      summary: 'Who is signed in',
      answer: SessionAnswerSchema,
      handle: async (request) => sessionAnswer(request),
    }),
    defineRead({
      url: '/api/staff-sign-in',
      access: 'public',
      tags,
      summary: "How staff sign in here: the school provider's buttons, and whether passwords are on",
      answer: StaffSignInOptionsSchema,
      handle: async () => ({
        providers: config.oidcProviders.map((provider) => ({ id: provider.id, label: provider.buttonLabel })),
        password_sign_in: config.staffPasswordSignIn,
      }),
    }),
  ];
}

/** Help with a student account: finding one's Student ID, and an administrator's password reset. */
function studentAccountHelpRoutes(app: ZodApp, { db }: AppDeps): void {
  app.post(
    '/api/find-student-id',
    {
      config: { access: 'visitor' },
      schema: {
        tags,
        summary: 'Find my Student ID: first name, last name and date of birth → only the matching ID',
        body: FindStudentIdSchema,
        response: { 200: FindStudentIdAnswerSchema, ...errorResponses },
      },
    },
    async (request) => ({ student_id: await auth.findStudentId(db, request.body, request.ip) }),
  );

  app.post(
    '/api/reset-password-student',
    {
      config: { access: { can: 'student.reset-password', student: { body: 'student_id' } } },
      schema: { tags, body: ResetPasswordSchema, response: { 200: z.object({ message: z.string() }), ...errorResponses } },
    },
    async (request) => {
      await auth.resetStudentPassword(db, request.body.student_id, actorOf(request));
      return { message: 'password reset successfully' };
    },
  );
}
