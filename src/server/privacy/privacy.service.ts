import type { FastifyRequest } from 'fastify';
import { studentParamOf, type Access } from '../http/access.js';
import { callerOf, isStaffCaller } from '../access/roles.js';
import { writeAudit } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import { badRequest, notFound } from '../http/errors.js';
import { actorOf, type Actor } from '../http/request-context.js';
import {
  EXPORT_DOCUMENT_ENCODING,
  type AuditLogPage,
  type DeleteStudentAnswer,
  type StudentExport,
  type StudentHistory,
} from '../../shared/privacy.schemas.js';
import * as repo from './privacy.repository.js';

/**
 * Privacy and accountability: who read or exported whose data is recorded; the office
 * can read that log and a student's change history; a student's data can be exported whole or
 * deleted whole.
 */

/**
 * Routes that write their own audit row when an administrator uses them (with more detail than
 * the generic row would have): the read logger leaves them alone.
 */
const LOGGED_BY_THEIR_FEATURE = new Set([
  '/api/report-card/:studentId/:year/:term',
  '/api/registration-data-spreadsheet',
  '/api/parents-contact/:classId',
  '/api/parents-contact-spreadsheet/:classId',
]);

/** Admin-only downloads of many students' data (exports) the read logger records. */
const EXPORT_ROUTES = new Set(['/api/registration-report/:classId', '/api/term-results/template']);

/** The route a read was served by: its pattern, access rule, path parameters and the path read. */
export interface ReadRoute {
  url: string | undefined;
  access: Access | undefined;
  params: Record<string, string | undefined>;
  path: string;
}

/** The audit row a successful administrator read should leave, or null when it needs none. */
export async function readAuditFor(db: Db, request: FastifyRequest, route: ReadRoute): Promise<Parameters<typeof writeAudit>[1] | null> {
  const { url, access, params, path } = route;
  if (!url || LOGGED_BY_THEIR_FEATURE.has(url)) return null;
  const actor = actorOf(request);
  if (url === '/api/documents/:publicId') {
    const owner = await repo.findDocumentOwner(db, params.publicId ?? '');
    if (!owner) return null;
    return { ...actor, action: 'read', entity: 'document', entity_id: owner.student_id, field: null, old_value: null, new_value: `${owner.file_type} (${url})` };
  }
  const named = studentParamOf(access);
  if (named) {
    return { ...actor, action: 'read', entity: 'student', entity_id: params[named] ?? null, field: null, old_value: null, new_value: path };
  }
  if (EXPORT_ROUTES.has(url)) {
    return { ...actor, action: 'export', entity: 'students', entity_id: null, field: null, old_value: null, new_value: path };
  }
  return null;
}

/**
 * The read logger (docs/requirements.md R15): a successful read by staff of a route that serves
 * one student's data, a document or a many-student export leaves its audit row, whether the API
 * answered it or a server-rendered page read it (http/reads.ts).
 */
export async function auditStaffRead(db: Db, request: FastifyRequest, route: ReadRoute): Promise<void> {
  if (!request.user || !isStaffCaller(callerOf(request.user))) return;
  const entry = await readAuditFor(db, request, route);
  if (entry) await writeAudit(db, entry);
}

export async function getAuditLog(
  db: Db,
  query: { student_id?: string | undefined; action?: string | undefined; before_id?: number | undefined; limit: number },
): Promise<AuditLogPage> {
  const userId = query.student_id ? ((await repo.findStudentUser(db, query.student_id))?.id ?? null) : null;
  const rows = await repo.listAuditLog(db, { studentId: query.student_id, userId, action: query.action, beforeId: query.before_id, limit: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  return { entries: page.map(repo.toAuditEntry), next_before_id: rows.length > query.limit ? Number(page[page.length - 1]!.id) : null };
}

export async function getStudentHistory(db: Db, studentId: string): Promise<StudentHistory> {
  if (!(await repo.findStudent(db, studentId))) throw notFound('No student has this ID.');
  return { student_id: studentId, changes: (await repo.listFieldChanges(db, studentId)).map(repo.toAuditEntry) };
}

/** Everything held about one student as one JSON document; the export itself is audited. */
export async function exportStudent(db: Db, actor: Actor, studentId: string): Promise<StudentExport> {
  const student = await repo.findStudent(db, studentId);
  if (!student) throw notFound('No student has this ID.');
  const user = await repo.findStudentUser(db, studentId);
  await writeAudit(db, { ...actor, action: 'export', entity: 'student', entity_id: studentId, field: null, old_value: null, new_value: 'everything held (JSON)' });
  const all = await repo.loadEverything(db, studentId, user?.id ?? null);
  return {
    format: 'school-portal-student-export/1',
    exported_at: new Date().toISOString(),
    exported_by: actor.actor_label,
    student: { ...student },
    account: user
      ? {
          role: user.role,
          student_id: user.student_id,
          first_login: user.first_login,
          password_reset: user.password_reset,
          password_changed_at: user.password_changed_at,
          created_at: user.created_at,
          updated_at: user.updated_at,
        }
      : null,
    registration_progress: all.progress ? { ...all.progress } : null,
    documents: all.documents.map((d) => ({
      file_type: d.file_type,
      file_name: d.file_name,
      mime: d.mime,
      size: Number(d.size),
      sha256: d.sha256,
      uploaded_at: d.updated_at,
      encoding: EXPORT_DOCUMENT_ENCODING,
      content: Buffer.from(d.bytes).toString('base64'),
    })),
    term_results: all.termResults.map((row) => ({ ...row })),
    term_summaries: all.termSummaries.map((row) => ({ ...row })),
    attendance_records: all.attendance.map((row) => ({ ...row })),
    attendance_scans: all.scans.map((row) => ({ ...row })),
    sessions: all.sessions,
    audit_log: all.audit.map(repo.toAuditEntry),
  };
}

/**
 * Deletes a student entirely: record, account, sessions, documents, results, attendance, and the
 * audit rows that name them (they hold the old values). One row remains: who deleted which ID,
 * when — no other personal data.
 */
export async function deleteStudent(db: Db, actor: Actor, studentId: string, confirmation: string): Promise<DeleteStudentAnswer> {
  if (confirmation !== studentId) {
    throw badRequest('Type the Student ID again to confirm.', { confirm_student_id: ['Type the Student ID again to confirm.'] });
  }
  return db.transaction().execute(async (trx) => {
    const student = await repo.findStudent(trx, studentId);
    if (!student) throw notFound('No student has this ID.');
    const user = await repo.findStudentUser(trx, studentId);
    const deleted = await repo.deleteEverything(trx, studentId, user?.id ?? null);
    await writeAudit(trx, { ...actor, action: 'delete', entity: 'student', entity_id: studentId, field: null, old_value: null, new_value: 'deleted entirely' });
    return { message: `Student ${studentId} and everything held about them were deleted.`, deleted };
  });
}
