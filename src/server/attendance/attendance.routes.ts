import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AttendanceReportParamsSchema,
  AttendanceSettingsSchema,
  ClassAttendanceSchema,
  CreateScannerDeviceSchema,
  CreateSchoolHolidaySchema,
  CreatedScannerDeviceSchema,
  ImportQuerySchema,
  ImportResultSchema,
  ScanBatchSchema,
  ScanResultSchema,
  ScannerDeviceParamsSchema,
  ScannerDeviceSchema,
  SchoolHolidayParamsSchema,
  SchoolHolidaySchema,
  StudentAttendanceParamsSchema,
  StudentAttendanceQuerySchema,
  StudentAttendanceSchema,
  classAttendanceQuerySchema,
  type ScanInput,
  type ScannerDevice,
} from '../../shared/attendance.schemas.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { schoolDateTime, schoolToday } from '../../shared/dates.js';
import { pdfDisposition, PdfQuerySchema } from '../../shared/pdf.schemas.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { AppError, badRequest } from '../http/errors.js';
import { FileAnswer, errorResponses } from '../http/openapi.js';
import { defineRead, registerRead, type ReadDefinition } from '../http/reads.js';
import { actorOf } from '../http/request-context.js';
import type { ZodApp } from '../http/zod-app.js';
import { auditExport } from '../students/students.service.js';
import { onePage, sendWorkbook, writeWorkbook, XLSX_MIME } from '../spreadsheets/xlsx-writer.js';
import { renderPdf } from '../pdf/render-on-pool.js';
import { sendPdf } from '../pdf/send-pdf.js';
import { importFormatOf, importScans } from './attendance-import.js';
import { renderAttendanceReport } from './attendance-report.pdf.js';
import { buildClassAttendance, classAttendanceColumns, classAttendanceScope } from './class-attendance.pdf.js';
import * as attendance from './attendance.service.js';
import * as devices from './scanner-devices.service.js';
import { ingestScans } from './scans.service.js';

type Deps = { db: Db; config: Config };

/** The device a scanner call was authenticated as (set by the route's onRequest hook). */
const deviceOf = new WeakMap<FastifyRequest, ScannerDevice>();

/**
 * Attendance: the student's records and the report PDF (docs/requirements.md R10, R15), the gate scanners'
 * endpoint and their keys, the admin's import of scans, bell time and school holidays.
 */
export const attendanceRoutes: FastifyPluginAsync<Deps> = async (base, deps) => {
  // Multipart only here (the import), never globally: other features register their own.
  await base.register(fastifyMultipart, {
    limits: { fileSize: deps.config.uploadMaxBytes, files: 1, fields: 5, parts: 6 },
    throwFileSizeLimit: true,
  });
  const app = base.withTypeProvider<ZodTypeProvider>();

  studentAttendanceRoutes(app, deps);
  classAttendanceRoutes(app, deps);
  scannerRoutes(app, deps);
  importRoutes(app, deps);
  settingsRoutes(app, deps);
};

const tags = ['attendance'];

/** A student's attendance records: the read the attendance screen renders from, on the server too (http/reads.ts). */
export function attendanceReads(db: Db): ReadDefinition[] {
  return [
    defineRead({
      url: '/api/student-attendance/:userID',
      access: { can: 'student.read', student: { param: 'userID' } },
      tags,
      summary: 'The attendance answer for the current term, or ?year=&term=',
      params: StudentAttendanceParamsSchema,
      querystring: StudentAttendanceQuerySchema,
      answer: StudentAttendanceSchema,
      handle: async (_request, { params, query }) => attendance.getStudentAttendance(db, params.userID, query),
    }),
  ];
}

/** A student's attendance records, and their report PDF for a date range. */
function studentAttendanceRoutes(app: ZodApp, { db, config }: Deps): void {
  for (const read of attendanceReads(db)) registerRead(app, read);

  app.get(
    '/api/student-attendance-report/:studentId/:startDate/:endDate',
    {
      config: { access: { can: 'student.read', student: { param: 'studentId' } } },
      schema: {
        tags,
        summary: 'Attendance report PDF for a date range (no future dates, start not after end)',
        params: AttendanceReportParamsSchema,
        querystring: PdfQuerySchema,
        response: { ...errorResponses },
      },
    },
    async (request, reply) => {
      const { studentId, startDate, endDate } = request.params;
      const data = await attendance.getAttendanceForReport(db, studentId, startDate, endDate);
      const bytes = await renderAttendanceReport({ ...data, schoolName: config.schoolName, generatedAt: schoolDateTime(new Date()) });
      return sendPdf(reply, bytes, `Attendance ${studentId} ${startDate} to ${endDate}.pdf`, pdfDisposition(request.query));
    },
  );
}

/** A class's attendance over a date range (admin): on screen, as a PDF, as a spreadsheet. */
function classAttendanceRoutes(app: ZodApp, { db, config }: Deps): void {
  const ClassAttendanceQuerySchema = classAttendanceQuerySchema(schoolToday);

  app.get(
    '/api/class-attendance',
    {
      config: { access: { can: 'class.read', class: { query: 'class_id' } } },
      schema: {
        tags,
        summary: "A class's attendance from `from` to `to`: each student's sessions present, absent and late, and the percentages",
        querystring: ClassAttendanceQuerySchema,
        response: { 200: ClassAttendanceSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return attendance.getClassAttendance(db, request.query);
    },
  );

  app.get(
    '/api/class-attendance/pdf',
    {
      config: { access: { can: 'class.read', class: { query: 'class_id' } } },
      schema: {
        tags,
        summary: "The class's attendance for the range as a PDF (a download)",
        querystring: ClassAttendanceQuerySchema,
        produces: ['application/pdf'],
        response: { 200: FileAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await attendance.getClassAttendance(db, request.query);
      const scope = classAttendanceScope(data);
      await auditExport(db, actorOf(request), `Class Attendance PDF (${scope})`);
      const bytes = await renderPdf(buildClassAttendance({ ...data, schoolName: config.schoolName, printedAt: schoolDateTime(new Date()) }));
      return sendPdf(reply, bytes, `Class Attendance ${data.class_id} ${data.from} to ${data.to}.pdf`, 'attachment');
    },
  );

  app.get(
    '/api/class-attendance/xlsx',
    {
      config: { access: { can: 'class.read', class: { query: 'class_id' } } },
      schema: {
        tags,
        summary: "The class's attendance for the range as a spreadsheet",
        querystring: ClassAttendanceQuerySchema,
        produces: [XLSX_MIME],
        response: { 200: FileAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await attendance.getClassAttendance(db, request.query);
      await auditExport(db, actorOf(request), `Class Attendance spreadsheet (${classAttendanceScope(data)})`);
      return sendWorkbook(reply, `Class Attendance ${data.class_id} ${data.from} to ${data.to}.xlsx`, (out) =>
        writeWorkbook(out, `Attendance ${data.class_id}`, classAttendanceColumns(), onePage(data.students)),
      );
    },
  );
}

/** Gate scanners: the endpoint they send scans to, and the management of their keys. */
function scannerRoutes(app: ZodApp, { db }: Deps): void {
  app.post(
    '/api/attendance/scans',
    {
      // Authenticated by the device's own key, not a session: no cookie, so no CSRF (D2).
      config: { access: 'device', csrf: false },
      onRequest: async (request) => {
        deviceOf.set(request, await devices.authenticateDevice(db, request.headers.authorization, request.ip));
      },
      schema: {
        tags,
        summary: 'A gate scanner sends one scan or { scans: [...] } (Authorization: Bearer <device key>)',
        body: ScanBatchSchema,
        response: { 200: ScanResultSchema, ...errorResponses },
      },
    },
    async (request) => {
      const device = deviceOf.get(request)!;
      await devices.noteDeviceSeen(db, device);
      const list: ScanInput[] = 'scans' in request.body ? request.body.scans : [request.body];
      const scans = list.map((scan, index) => ({ studentId: (scan.student_id ?? scan.card_serial)!, date: scan.date, time: scan.time, index }));
      return ingestScans(db, scans, `device:${device.id}`);
    },
  );

  app.get(
    '/api/scanner-devices',
    { config: { access: { can: 'scanners.manage' } }, schema: { tags, response: { 200: z.array(ScannerDeviceSchema), ...errorResponses } } },
    async () => devices.listScannerDevices(db),
  );

  app.post(
    '/api/scanner-devices',
    {
      config: { access: { can: 'scanners.manage' } },
      schema: {
        tags,
        summary: 'Creates a scanner device; its key is in this answer only',
        body: CreateScannerDeviceSchema,
        response: { 201: CreatedScannerDeviceSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const device = await devices.createScannerDevice(db, request.body.name, actorOf(request));
      return reply.status(201).header('cache-control', 'no-store').send(device);
    },
  );

  app.delete(
    '/api/scanner-devices/:id',
    {
      config: { access: { can: 'scanners.manage' } },
      schema: { tags, summary: 'Revokes a scanner device', params: ScannerDeviceParamsSchema, response: { 200: ScannerDeviceSchema, ...errorResponses } },
    },
    async (request) => devices.revokeScannerDevice(db, request.params.id, actorOf(request)),
  );
}

/** The administrator's import of scans from a file. */
function importRoutes(app: ZodApp, { db }: Deps): void {
  app.post(
    '/api/attendance/import',
    {
      config: { access: { can: 'attendance.import' } },
      schema: {
        tags,
        summary: 'Imports scans from a CSV or XLSX file (multipart field "file"); dryRun=1 previews',
        querystring: ImportQuerySchema,
        response: { 200: ImportResultSchema, 413: ApiErrorSchema, 415: ApiErrorSchema, ...errorResponses },
      },
    },
    async (request) => {
      if (!request.isMultipart()) {
        throw new AppError(415, 'unsupported_media_type', 'Send the file as multipart/form-data in the field "file".');
      }
      const file = await request.file();
      if (!file) throw badRequest('Please select a file!');
      const format = importFormatOf(file.filename, file.mimetype);
      if (!format) {
        // Drain the upload so the connection stays usable, then refuse.
        file.file.resume();
        throw new AppError(415, 'unsupported_media_type', 'Choose a CSV or XLSX file.');
      }
      const bytes = await file.toBuffer();
      return importScans(db, bytes, format, { dryRun: request.query.dryRun, actor: actorOf(request), fileName: file.filename });
    },
  );
}

/** Bell time and school holidays. */
function settingsRoutes(app: ZodApp, { db }: Deps): void {
  app.get(
    '/api/attendance/settings',
    { config: { access: { can: 'settings.read' } }, schema: { tags, response: { 200: AttendanceSettingsSchema, ...errorResponses } } },
    async () => attendance.getAttendanceSettings(db),
  );

  app.put(
    '/api/attendance/settings',
    {
      config: { access: { can: 'settings.manage' } },
      schema: { tags, summary: 'Sets the bell time (HH:mm); arriving after it is late', body: AttendanceSettingsSchema, response: { 200: AttendanceSettingsSchema, ...errorResponses } },
    },
    async (request) => attendance.updateAttendanceSettings(db, request.body, actorOf(request)),
  );

  app.get(
    '/api/attendance/holidays',
    { config: { access: { can: 'settings.read' } }, schema: { tags, response: { 200: z.array(SchoolHolidaySchema), ...errorResponses } } },
    async () => attendance.listSchoolHolidays(db),
  );

  app.post(
    '/api/attendance/holidays',
    {
      config: { access: { can: 'settings.manage' } },
      schema: { tags, summary: 'Adds a school holiday (not a school day)', body: CreateSchoolHolidaySchema, response: { 201: SchoolHolidaySchema, ...errorResponses } },
    },
    async (request, reply) => reply.status(201).send(await attendance.addSchoolHoliday(db, request.body.date, request.body.name, actorOf(request))),
  );

  app.delete(
    '/api/attendance/holidays/:id',
    {
      config: { access: { can: 'settings.manage' } },
      schema: { tags, params: SchoolHolidayParamsSchema, response: { 204: z.null(), ...errorResponses } },
    },
    async (request, reply) => {
      await attendance.removeSchoolHoliday(db, request.params.id, actorOf(request));
      return reply.status(204).send(null);
    },
  );
}
