import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { StudentIdSchema } from '../../shared/auth.schemas.js';
import { pdfDisposition, PdfQuerySchema } from '../../shared/pdf.schemas.js';
import type { AppDeps } from '../app-deps.js';
import { errorResponses } from '../http/openapi.js';
import { defineRead, registerRead, type ReadDefinition } from '../http/reads.js';
import type { Db } from '../db/database.js';
import { sendPdf } from '../pdf/send-pdf.js';
import { RegistrationFormContentSchema } from '../../shared/registration-form.schemas.js';
import { loadRegistrationForm, loadRegistrationFormContent, renderRegistrationForm } from './registration-form.service.js';

/** The printable registration form on Legal paper (docs/requirements.md R8; `/api/registration-form/{studentId}`). */
export const registrationFormRoutes: FastifyPluginAsync<AppDeps> = async (base, { db, config }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/registration-form/:studentId',
    {
      config: { access: { can: 'student.read', student: { param: 'studentId' } } },
      schema: {
        tags: ['registration'],
        summary: "The registration form PDF on Legal paper (students: their own; administrators: any student's)",
        params: z.object({ studentId: StudentIdSchema }),
        // ?v= lets the page ask for a fresh copy after a change; it is not read.
        querystring: PdfQuerySchema.extend({ v: z.string().max(40).optional() }),
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const { studentId } = request.params;
      const bytes = await renderRegistrationForm(await loadRegistrationForm(db, studentId, config.schoolName));
      return sendPdf(reply, bytes, `Registration Form ${studentId}.pdf`, pdfDisposition(request.query));
    },
  );

  for (const read of registrationFormReads(db, config.schoolName)) registerRead(app, read);
};

/** What the registration form says: the read the Complete step renders from, on the server too (http/reads.ts). */
export function registrationFormReads(db: Db, schoolName: string): ReadDefinition[] {
  return [
    defineRead({
      url: '/api/registration-form/:studentId/content',
      access: { can: 'student.read', student: { param: 'studentId' } },
      tags: ['registration'],
      summary: 'What the registration form says, as data: the same sections and rows the PDF prints, for a phone-width view (D75)',
      params: z.object({ studentId: StudentIdSchema }),
      answer: RegistrationFormContentSchema,
      cacheControl: 'private, no-store',
      handle: async (_request, { params }) => loadRegistrationFormContent(db, params.studentId, schoolName),
    }),
  ];
}
