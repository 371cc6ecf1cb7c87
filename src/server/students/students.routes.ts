import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AddStudentSchema,
  AdminStudentListSchema,
  AdminStudentSchema,
  IMPORT_TEMPLATE_FILE_NAME,
  REGISTRATION_DATA_FILE_NAME,
  ReportClassParamsSchema,
  StudentImportQuerySchema,
  StudentImportResultSchema,
  StudentListFilterSchema,
  StudentListPageSchema,
  StudentChangesPageSchema,
  StudentHistoryQuerySchema,
  StudentListQuerySchema,
  pageRequestOf,
} from '../../shared/students.schemas.js';
import { StudentParamsSchema } from '../../shared/privacy.schemas.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { FormerStudentsQuerySchema } from '../../shared/rollover.schemas.js';
import { schoolToday } from '../../shared/dates.js';
import { pdfDisposition, PdfQuerySchema } from '../../shared/pdf.schemas.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { FileAnswer, errorResponses } from '../http/openapi.js';
import { requireCaller } from '../http/access.js';
import { visibleClassIds } from '../access/roles.js';
import { actorOf } from '../http/request-context.js';
import type { ZodApp } from '../http/zod-app.js';
import { sendPdf } from '../pdf/send-pdf.js';
import * as students from './students.service.js';
import * as repo from './students.repository.js';
import { callListColumns, contactColumns } from './parents-contact.js';
import { registrationColumns, registrationPages } from './registration-spreadsheet.js';
import { receiveSpreadsheet } from '../spreadsheets/receive-spreadsheet.js';
import { addOneStudent, buildImportTemplate, importStudents } from './student-import.js';
import { onePage, sendWorkbook, writeWorkbook, XLSX_MIME } from '../spreadsheets/xlsx-writer.js';

type Deps = { db: Db; config: Config };

/**
 * The student records' routes (docs/requirements.md R11, R15): the student list, the registration
 * spreadsheet, the registration report and Parents Contact per class or for all, Add Student, and
 * Import Students with its template. Each route names who may call it (`config.access`).
 */
export const studentRoutes: FastifyPluginAsync<Deps> = async (base, deps) => {
  // Multipart only here (the import), never globally: other features register their own.
  await base.register(fastifyMultipart, { limits: { fileSize: deps.config.uploadMaxBytes, files: 1, fields: 5, parts: 6 } });
  const app = base.withTypeProvider<ZodTypeProvider>();

  listRoutes(app, deps);
  addStudentRoutes(app, deps);
  registrationRoutes(app, deps);
  contactRoutes(app, deps);
  importRoutes(app, deps);
};

const tags = ['admin'];

/** The student list, and a student's history of changes. */
function listRoutes(app: ZodApp, { db, config }: Deps): void {
  app.get(
    '/api/students',
    {
      config: { access: { can: 'students.list' } },
      schema: {
        tags,
        summary:
          "The dashboard list, newest change first; a form teacher's classes only; former=include adds former students. " +
          'Without any other query, every student (the original call); with one (page, page_size, sort, direction and the filters), one page with its counts',
        querystring: StudentListQuerySchema,
        response: { 200: z.union([AdminStudentListSchema, StudentListPageSchema]), ...errorResponses },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const classIds = visibleClassIds(requireCaller(request));
      const { former, ...paging } = request.query;
      if (Object.keys(paging).length === 0) return students.listStudents(db, classIds, new Date(), former === 'include');
      return students.pageStudentList(db, classIds, pageRequestOf(request.query), config.studentListServerModeAbove);
    },
  );

  app.get(
    '/api/students/:studentId/history',
    {
      // A form teacher reads their classes' students only; the access module decides (access/roles.ts).
      config: { access: { can: 'student.history', student: { param: 'studentId' } } },
      schema: {
        tags,
        summary: "A student's history: each change of the record and its documents (the field's label, old and new value in words, who, when), newest first, 25 a page",
        params: StudentParamsSchema,
        querystring: StudentHistoryQuerySchema,
        response: { 200: StudentChangesPageSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return students.pageStudentHistory(db, request.params.studentId, request.query);
    },
  );
}

/** Add Student: one new student. */
function addStudentRoutes(app: ZodApp, { db }: Deps): void {
  app.post(
    '/api/students',
    {
      config: { access: { can: 'students.add' } },
      schema: {
        tags,
        summary: 'Adds one student (Add Student): the fields and checks of Import Students for a new ID; 409 when the ID, pin or SEA number is taken',
        body: AddStudentSchema,
        response: { 201: AdminStudentSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const created = await addOneStudent(db, request.body, actorOf(request), schoolToday());
      return reply.code(201).send(created);
    },
  );
}

/** The registration records: the whole spreadsheet, and the report PDF per class or for all. */
function registrationRoutes(app: ZodApp, { db, config }: Deps): void {
  app.get(
    '/api/registration-data-spreadsheet',
    {
      config: { access: { can: 'students.export' } },
      schema: {
        tags,
        summary: "'Registration Data.xlsx': every student on the roll (former=include: and the former students) with every registration field, streamed",
        querystring: FormerStudentsQuerySchema,
        produces: [XLSX_MIME],
        response: { 200: FileAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const names = await repo.loadLookupNames(db);
      const today = schoolToday();
      const includeFormer = request.query.former === 'include';
      await students.auditExport(db, actorOf(request), includeFormer ? 'Registration Data.xlsx (with former students)' : 'Registration Data.xlsx');
      return sendWorkbook(reply, REGISTRATION_DATA_FILE_NAME, (out) =>
        writeWorkbook(out, 'Registration Data', registrationColumns(names), registrationPages(db, today, undefined, includeFormer)),
      );
    },
  );

  app.get(
    '/api/registration-report/:classId',
    {
      config: { access: { can: 'class.read', class: { param: 'classId' } } },
      schema: {
        tags,
        summary: 'The registration report PDF of one form class, or of all (classId = all)',
        params: ReportClassParamsSchema,
        querystring: PdfQuerySchema,
        produces: ['application/pdf'],
        response: { 200: FileAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const formClass = await students.resolveReportClass(db, request.params.classId);
      const bytes = await students.makeRegistrationReport(db, config.schoolName, formClass);
      return sendPdf(reply, bytes, `Registration Report - ${students.scopeLabel(formClass)}.pdf`, pdfDisposition(request.query));
    },
  );
}

/** Reaching the families: Parents Contact per class or for all (PDF, spreadsheet), and the call list. */
function contactRoutes(app: ZodApp, { db, config }: Deps): void {
  app.get(
    '/api/parents-contact/:classId',
    {
      config: { access: { can: 'class.read', class: { param: 'classId' } } },
      schema: {
        tags,
        summary: 'Parents Contact PDF of one form class, or of all (classId = all)',
        params: ReportClassParamsSchema,
        querystring: PdfQuerySchema,
        produces: ['application/pdf'],
        response: { 200: FileAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const formClass = await students.resolveReportClass(db, request.params.classId);
      const scope = students.scopeLabel(formClass);
      await students.auditExport(db, actorOf(request), `Parents Contact PDF (${scope})`);
      const bytes = await students.makeParentsContact(db, config.schoolName, formClass);
      return sendPdf(reply, bytes, `Parents Contact - ${scope}.pdf`, pdfDisposition(request.query));
    },
  );

  app.get(
    '/api/parents-contact-spreadsheet/:classId',
    {
      config: { access: { can: 'class.read', class: { param: 'classId' } } },
      schema: {
        tags,
        summary: 'Parents Contact spreadsheet of one form class, or of all (classId = all), streamed',
        params: ReportClassParamsSchema,
        produces: [XLSX_MIME],
        response: { 200: FileAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const formClass = await students.resolveReportClass(db, request.params.classId);
      const scope = students.scopeLabel(formClass);
      await students.auditExport(db, actorOf(request), `Parents Contact spreadsheet (${scope})`);
      return sendWorkbook(reply, `Parents Contact - ${scope}.xlsx`, (out) =>
        writeWorkbook(out, 'Parents Contact', contactColumns(), students.contactPages(db, formClass?.id ?? null)),
      );
    },
  );

  app.get(
    '/api/students/call-list',
    {
      config: { access: { can: 'students.export' } },
      schema: {
        tags,
        summary: "The filtered student list as a call list (XLSX) with the parents' phones and e-mails; the list's filters as the query",
        querystring: StudentListFilterSchema,
        produces: [XLSX_MIME],
        response: { 200: FileAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const rows = await students.gatherCallList(db, request.query);
      const scope = students.callListScope(request.query);
      await students.auditExport(db, actorOf(request), `Call list (${scope}): ${rows.length} students`);
      return sendWorkbook(reply, `Call List - ${scope}`.slice(0, 100) + '.xlsx', (out) => writeWorkbook(out, 'Call List', callListColumns(), onePage(rows)));
    },
  );
}

/** Import Students: its template, and the import itself. */
function importRoutes(app: ZodApp, { db, config }: Deps): void {
  app.get(
    '/api/students/import-template',
    {
      config: { access: { can: 'students.add' } },
      schema: { tags, summary: 'The Import Students template (XLSX)', produces: [XLSX_MIME], response: { 200: FileAnswer, ...errorResponses } },
    },
    async (_request, reply) => {
      const bytes = await buildImportTemplate();
      return reply
        .header('content-type', XLSX_MIME)
        .header('content-disposition', `attachment; filename="${IMPORT_TEMPLATE_FILE_NAME}"`)
        .header('cache-control', 'private, no-store')
        .send(bytes);
    },
  );

  app.post(
    '/api/students/import',
    {
      config: { access: { can: 'students.add' } },
      schema: {
        tags,
        summary: 'Creates or updates students from an XLSX or CSV (multipart field "file"); dryRun=1 (default) previews',
        querystring: StudentImportQuerySchema,
        response: { 200: StudentImportResultSchema, 413: ApiErrorSchema, 415: ApiErrorSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { fileName, bytes } = await receiveSpreadsheet(request, config.uploadMaxBytes);
      return importStudents(db, bytes, {
        dryRun: request.query.dryRun,
        fileName,
        actor: actorOf(request),
        today: schoolToday(),
      });
    },
  );
}
