import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { pdfDisposition, PdfQuerySchema } from '../../shared/pdf.schemas.js';
import {
  ClassReportCardsParamsSchema,
  FormReportCardsParamsSchema,
  GradingSettingsSchema,
  ImportQuerySchema,
  ImportReportSchema,
  PostTermReportsSchema,
  PostedTermReportListSchema,
  PostedTermReportSchema,
  ReportCardParamsSchema,
  ReportCardTermListSchema,
  ReportCardTermsParamsSchema,
  ScheduleTermReportsSchema,
  TERM_RESULTS_MAX_BYTES,
  SubjectListSchema,
  TemplateQuerySchema,
} from '../../shared/term-reports.schemas.js';
import type { Db } from '../db/database.js';
import type { AppDeps } from '../app-deps.js';
import type { ZodApp } from '../http/zod-app.js';
import { callerOf } from '../access/roles.js';
import { requireUser } from '../http/access.js';
import { AppError, badRequest } from '../http/errors.js';
import { defineRead, registerRead, type ReadDefinition } from '../http/reads.js';
import { errorResponses } from '../http/openapi.js';
import { actorOf } from '../http/request-context.js';
import { sendPdf } from '../pdf/send-pdf.js';
import { renderReportCard } from './report-card.pdf.js';
import { planClassCards, planFormCards } from './report-card-sets.service.js';
import { sendClassCards, sendFormCards } from './report-card-stream.js';
import * as repo from './term-reports.repository.js';
import * as service from './term-reports.service.js';
import { buildTemplate, sendTemplate } from './term-results.template.js';

/** How often each process looks for scheduled postings that have come due. */
const DUE_CHECK_INTERVAL_MS = 30_000;

const withTooLarge = {
  ...errorResponses,
  413: ApiErrorSchema,
  415: ApiErrorSchema,
} as const;

/**
 * Term report calls (docs/requirements.md R9, R15) and the portal's additions to them: results import and its template,
 * scheduled posting, the grading settings. Multipart is registered here only, with this
 * feature's limits, so other features keep their own.
 */
export const termReportRoutes: FastifyPluginAsync<AppDeps> = async (base, deps) => {
  const app = base.withTypeProvider<ZodTypeProvider>();

  await app.register(fastifyMultipart, {
    limits: {
      fileSize: TERM_RESULTS_MAX_BYTES,
      files: 1,
      fields: 5,
      parts: 6,
      fieldSize: 1024,
    },
    throwFileSizeLimit: true,
  });

  studentRoutes(app, deps);
  reportDayRoutes(app, deps);
  postingRoutes(app, deps);
  resultsImportRoutes(app, deps);
  scheduleDuePostings(app, deps);
};

/** The plugin's instance, its schemas zod's. */
type App = ZodApp;

const tags = ['term-reports'];

/** A student's term reports: the read the report cards screen renders from, on the server too (http/reads.ts). */
export function termReportReads(db: Db): ReadDefinition[] {
  return [
    defineRead({
      url: '/api/report-card-terms/:userID',
      access: { can: 'student.read', student: { param: 'userID' } },
      tags,
      summary: 'The student’s term reports: every term with results, posted or not',
      params: ReportCardTermsParamsSchema,
      answer: ReportCardTermListSchema,
      handle: async (_request, { params }) => service.listReportCardTerms(db, params.userID),
    }),
  ];
}

// ---- students (and administrators looking at a student) ----
function studentRoutes(app: App, { db, config }: AppDeps): void {
  for (const read of termReportReads(db)) registerRead(app, read);

  app.get(
    '/api/report-card/:studentId/:year/:term',
    {
      config: { access: { can: 'student.read', student: { param: 'studentId' } } },
      schema: {
        tags,
        summary: 'The report card PDF (students: their own, posted terms only; administrators: any)',
        params: ReportCardParamsSchema,
        querystring: PdfQuerySchema,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const { studentId, year, term } = request.params;
      const data = await service.loadReportCard(db, callerOf(requireUser(request)), studentId, year, term, config.schoolName);
      const bytes = await renderReportCard(data);
      await service.recordReportCardView(db, actorOf(request), studentId, year, term);
      return sendPdf(reply, bytes, `Report Card ${studentId} ${year} Term ${term}.pdf`, pdfDisposition(request.query));
    },
  );
}

// ---- report day: a class's cards as one PDF, a form's as a zip of class PDFs (D59) ----
function reportDayRoutes(app: App, { db, config }: AppDeps): void {
  app.get(
    '/api/report-cards/class/:classId/:year/:term',
    {
      // Compressing would hold the progress lines back until the compressor's buffer fills.
      compress: false,
      config: { access: { can: 'class.read', class: { param: 'classId' } } },
      schema: {
        tags,
        summary: 'A class’s report cards for a term (posted or not) as one PDF, streamed as JSON lines with the progress',
        params: ClassReportCardsParamsSchema,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const { classId, year, term } = request.params;
      const plan = await planClassCards(db, classId, year, term);
      return sendClassCards({ db, request, reply, plan, year, term, schoolName: config.schoolName });
    },
  );

  app.get(
    '/api/report-cards/form/:formLevel/:year/:term',
    {
      compress: false,
      config: { access: { can: 'students.export' } },
      schema: {
        tags,
        summary: 'A form level’s report cards for a term as a zip of class PDFs, streamed as JSON lines with the progress',
        params: FormReportCardsParamsSchema,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const { formLevel, year, term } = request.params;
      const plan = await planFormCards(db, formLevel, year, term);
      return sendFormCards({ db, request, reply, plan, year, term, schoolName: config.schoolName }, formLevel);
    },
  );
}

// ---- administrators: posting ----
function postingRoutes(app: App, { db }: AppDeps): void {
  app.get(
    '/api/term-reports-posted',
    {
      config: { access: { can: 'term-reports.read' } },
      schema: {
        tags,
        summary: 'Every term’s report posting state',
        response: { 200: PostedTermReportListSchema, ...errorResponses },
      },
    },
    async () => service.listPostedTerms(db),
  );

  app.post(
    '/api/post-term-reports',
    {
      config: { access: { can: 'term-reports.post' } },
      schema: {
        tags,
        summary: 'Post (posted 1; the server records when) or remove (posted 0) a term’s reports; idempotent',
        body: PostTermReportsSchema,
        response: { 200: PostedTermReportSchema, ...errorResponses },
      },
    },
    async (request) => {
      const posted = await service.postTermReports(db, request.body, actorOf(request));
      app.mailSender.wake();
      return posted;
    },
  );

  app.post(
    '/api/term-reports/schedule',
    {
      config: { access: { can: 'term-reports.post' } },
      schema: {
        tags,
        summary: 'Post a term’s reports automatically at a time (null cancels)',
        body: ScheduleTermReportsSchema,
        response: { 200: PostedTermReportSchema, ...errorResponses },
      },
    },
    async (request) => service.scheduleTermReports(db, request.body, actorOf(request)),
  );
}

// ---- administrators: results import ----
function resultsImportRoutes(app: App, { db }: AppDeps): void {
  app.get(
    '/api/term-results/template',
    {
      config: { access: { can: 'term-results.read' } },
      schema: {
        tags,
        summary: 'The results import template (xlsx, or csv); with class_id and subject, that class’s mark sheet',
        querystring: TemplateQuerySchema,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const { format, class_id: classId, subject } = request.query;
      const markSheet = classId !== undefined && subject !== undefined ? { classId, subject } : undefined;
      return sendTemplate(reply, await buildTemplate(db, format, markSheet));
    },
  );

  app.get(
    '/api/term-results/subjects',
    {
      config: { access: { can: 'term-results.read' } },
      schema: {
        tags,
        summary: 'The subjects results are given in (code and name)',
        response: { 200: SubjectListSchema, ...errorResponses },
      },
    },
    async () => (await repo.listSubjects(db)).map(({ code, name }) => ({ code, name })),
  );

  app.get(
    '/api/term-results/grading',
    {
      config: { access: { can: 'term-results.read' } },
      schema: {
        tags,
        summary: 'The grade key and the coursework/exam weights by form level',
        response: { 200: GradingSettingsSchema, ...errorResponses },
      },
    },
    async () => {
      const [gradeKey, weights] = await Promise.all([repo.listGradeKey(db), repo.listAssessmentWeights(db)]);
      return {
        grade_key: gradeKey.map((g) => ({
          grade: g.grade,
          min_total: g.min_total,
          description: g.description,
        })),
        weights,
      };
    },
  );

  app.post(
    '/api/term-results/import',
    {
      config: { access: { can: 'term-results.import' } },
      // A little over the file limit for the multipart envelope; the file limit itself is exact.
      bodyLimit: TERM_RESULTS_MAX_BYTES + 64 * 1024,
      schema: {
        tags,
        summary: 'Check (dryRun=1) or commit (dryRun=0) a results file: multipart field "file", XLSX or CSV',
        querystring: ImportQuerySchema,
        consumes: ['multipart/form-data'],
        response: { 200: ImportReportSchema, ...withTooLarge },
      },
    },
    async (request) => {
      if (!request.isMultipart())
        throw new AppError(415, 'unsupported_media_type', 'Send the file as multipart/form-data in the field "file".');
      let bytes: Buffer;
      try {
        const part = await request.file();
        if (!part)
          throw badRequest('Choose a file to upload.', {
            file: ['Choose a file to upload.'],
          });
        bytes = await part.toBuffer();
      } catch (error) {
        if (error instanceof AppError) throw error;
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError(
            413,
            'payload_too_large',
            `The file is larger than ${TERM_RESULTS_MAX_BYTES / 1024 / 1024} MiB. Split it into smaller files.`,
          );
        }
        throw error;
      }
      if (bytes.length === 0)
        throw badRequest('The file is empty.', {
          file: ['The file is empty.'],
        });
      const { year, term, dryRun } = request.query;
      return service.importTermResults(db, { year, term, dryRun, bytes }, actorOf(request));
    },
  );
}

// ---- the scheduler: every process checks; the conditional UPDATE makes one of them win ----
function scheduleDuePostings(app: App, { db }: AppDeps): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const checkDue = (): Promise<void> => {
    running ??= service
      .postDueTermReports(db)
      .then((posted) => {
        for (const p of posted) app.log.info({ year: p.year, term: p.term }, 'scheduled term reports posted');
        if (posted.length > 0) app.mailSender.wake();
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'scheduled term report posting failed'))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  app.addHook('onReady', async () => {
    timer = setInterval(() => void checkDue(), DUE_CHECK_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
