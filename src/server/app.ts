import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyCompress from '@fastify/compress';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppDeps } from './app-deps.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { accessPlugin } from './http/access.js';
import { csrfPlugin } from './http/csrf.js';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandler } from './http/error-handler.js';
import { loggerOptions, registerRouteInLog } from './http/logging.js';
import { healthRoutes } from './http/health.routes.js';
import { serverTimeouts, type ServerTimeouts } from './http/server-timeouts.js';
import { rateLimitPruning } from './http/rate-limit-pruning.js';
import { securityHeadersPlugin } from './http/security-headers.js';
import { serverSecret } from './http/server-secret.repository.js';
import { sessionPlugin } from './http/session.js';
import { inputGuardPlugin } from './http/input-guard.js';
import { createPageReads } from './http/reads.js';
import { publicRoutes, registerWebPages } from './http/web-pages.js';
import { closeWorkerPool, configureWorkerPool } from './workers/worker-pool.js';
import { MailSender, type MailSenderSettings } from './mail/mail-sender.js';
import { outboxRoutes } from './mail/outbox.routes.js';
import { DigestTimer } from './notices/digest-timer.js';
import { studentRoutes } from './students/students.routes.js';
import { bulkRoutes } from './students/bulk.routes.js';
import { intakeRoutes } from './intake/intake.routes.js';
import { attendanceReads, attendanceRoutes } from './attendance/attendance.routes.js';
import { authReads, authRoutes } from './auth/auth.routes.js';
import { configurePasswordHashing } from './auth/password.js';
import { documentReads, documentRoutes } from './documents/documents.routes.js';
import { absenceNoteRoutes } from './absence-notes/absence-notes.routes.js';
import { familyRoutes } from './family/family.routes.js';
import { familyHomeRoutes } from './family/family-home.routes.js';
import { lookupReads, lookupRoutes } from './lookups/lookups.routes.js';
import { noticeRoutes } from './notices/notices.routes.js';
import { privacyRoutes } from './privacy/privacy.routes.js';
import { auditStaffRead } from './privacy/privacy.service.js';
import { registrationReads, registrationRoutes } from './registration/registration.routes.js';
import { reviewRoutes } from './review/review.routes.js';
import { rolloverRoutes } from './rollover/rollover.routes.js';
import { enrolmentRoutes } from './enrolment/enrolment.routes.js';
import { reRegistrationRoutes } from './re-registration/re-registration.routes.js';
import { staff2faRoutes } from './staff-2fa/staff-2fa.routes.js';
import { needsSecondFactorSetup } from './staff-2fa/staff-2fa.service.js';
import { registrationFormReads, registrationFormRoutes } from './registration-form/registration-form.routes.js';
import { staffRoutes } from './staff/staff.routes.js';
import { termReportReads, termReportRoutes } from './term-reports/term-reports.routes.js';

export interface BuildOptions {
  /** Pino options, or false for silence (tests). */
  logger?: FastifyServerOptions['logger'];
  /** Folder of the built web client; defaults to dist/web beside the sources. */
  webRoot?: string;
  /** The server-side build of the client that renders first pages (dist/ssr/entry-server.js with the default webRoot); none: the shell only. */
  pageRenderer?: string | null;
  /** The server's timeouts; the constants of server-timeouts.ts unless a test shortens them. */
  timeouts?: ServerTimeouts;
  /**
   * The mail sender's timing (mail-sender.ts defaults unless a test shortens them), and whether it
   * starts with the app (it does, when SMTP_URL is set); `start: false` leaves it to `drain()`.
   */
  mailSender?: Partial<MailSenderSettings> & { start?: boolean };
  /**
   * Whether the attendance digest's timer runs: main.ts starts it; test apps do not
   * unless asked, and call `runAttendanceDigest` instead.
   */
  attendanceDigest?: { start?: boolean; intervalMs?: number };
}

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Marks every route registered inside it as reachable by anyone (static files, API docs). */

/**
 * The portal as a Fastify plugin tree (fastify/demo's shape): used by main.ts and by the tests,
 * which drive it in-process with `inject`.
 */
export async function buildApp(config: Config, deps: { db: Db }, options: BuildOptions = {}): Promise<FastifyInstance> {
  const timeouts = options.timeouts ?? serverTimeouts(config.uploadMaxBytes);
  configurePasswordHashing(config);
  configureWorkerPool(config);
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleSocketMs,
    http: { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: timeouts.checkEveryMs },
    clientErrorHandler,
    trustProxy: config.trustProxy === false ? false : [...config.trustProxy],
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    genReqId: () => randomUUID(),
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: frameworkErrorHandler,
  });
  // PDFs and uploaded files are worked on by a pool of threads that starts with the first task.
  app.addHook('onClose', closeWorkerPool);
  // The mail sender starts once the app is ready (main.ts migrates before that) and stops on close,
  // before the database it reads is closed.
  const { start: startMailSender = true, ...mailTiming } = options.mailSender ?? {};
  const mailSender = new MailSender(deps.db, config, app.log, mailTiming);
  app.decorate('mailSender', mailSender);
  if (startMailSender) app.addHook('onReady', async () => mailSender.start());
  app.addHook('onClose', () => mailSender.stop());
  const digestTimer = new DigestTimer(deps.db, app.log, () => mailSender.wake(), options.attendanceDigest?.intervalMs);
  if (options.attendanceDigest?.start === true) app.addHook('onReady', async () => digestTimer.start());
  app.addHook('onClose', () => digestTimer.stop());
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerRouteInLog(app);

  await app.register(fastifyCookie);
  await app.register(securityHeadersPlugin);
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  if (config.apiDocs) {
    await app.register(fastifySwagger, {
      openapi: {
        info: { title: 'School Portal API', version: '1', description: 'The calls the screens began with and those added since (docs/requirements.md R15).' },
      },
      transform: jsonSchemaTransform,
    });
  }

  const appDeps: AppDeps = { db: deps.db, config, secret: serverSecret(deps.db) };
  // The session manager asks the second factor's rule itself for every session it starts (D65).
  await app.register(sessionPlugin, { ...appDeps, needsSecondFactorSetup: (userId: number) => needsSecondFactorSetup(deps.db, config, userId) });
  await app.register(rateLimitPruning, appDeps);
  await app.register(accessPlugin, appDeps);
  await app.register(csrfPlugin, appDeps);
  await app.register(inputGuardPlugin);

  if (config.apiDocs) {
    await app.register(async (docs) => {
      await docs.register(publicRoutes);
      await docs.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });
    });
  }

  // Feature routes: one line per feature (docs/architecture.md "Adding a server feature").
  await app.register(healthRoutes, appDeps);
  await app.register(authRoutes, appDeps);
  await app.register(staff2faRoutes, appDeps);
  await app.register(attendanceRoutes, appDeps);
  await app.register(lookupRoutes, appDeps);
  await app.register(familyRoutes, appDeps);
  await app.register(familyHomeRoutes, appDeps);
  await app.register(registrationRoutes, appDeps);
  await app.register(documentRoutes, appDeps);
  await app.register(registrationFormRoutes, appDeps);
  await app.register(reviewRoutes, appDeps);
  await app.register(reRegistrationRoutes, appDeps);
  await app.register(termReportRoutes, appDeps);
  await app.register(studentRoutes, appDeps);
  await app.register(bulkRoutes, appDeps);
  await app.register(privacyRoutes, appDeps);
  await app.register(staffRoutes, appDeps);
  await app.register(outboxRoutes, appDeps);
  await app.register(noticeRoutes, appDeps);
  await app.register(intakeRoutes, appDeps);
  await app.register(enrolmentRoutes, appDeps);
  await app.register(absenceNoteRoutes, appDeps);
  // Last of the features: the security sweeps call routes in this order, and the rollover's samples
  // roll the whole demo school over (route-samples.ts), so every other feature's samples run first.
  await app.register(rolloverRoutes, appDeps);

  // The first page of a visit renders from the same reads as the API's routes (D99).
  const pageReads = createPageReads(deps.db, [
    ...authReads(appDeps),
    ...lookupReads(deps.db),
    ...registrationReads(deps.db),
    ...registrationFormReads(deps.db, appDeps.config.schoolName),
    ...documentReads(deps.db),
    ...termReportReads(deps.db),
    ...attendanceReads(deps.db),
  ], (request, read) =>
    auditStaffRead(deps.db, request, read),
  );
  await registerWebPages(app, {
    webRoot: options.webRoot ?? path.join(REPO_ROOT, 'dist/web'),
    // The server-side build beside the default web client (npm start); a test names its own.
    rendererFile: options.pageRenderer ?? (options.webRoot === undefined ? path.join(REPO_ROOT, 'dist/ssr/entry-server.js') : null),
    schoolName: config.schoolName,
    readerFor: pageReads,
  });
  return app;
}
