import { z } from 'zod';
import { StudentIdSchema } from './auth.schemas.js';

/**
 * Privacy and accountability: the audit log as administrators read it, a student's
 * field change history, the export of everything held about one student, and deleting one.
 */

/** GET /api/privacy/audit-log: newest first, filtered, paged by `before_id`. */
export const AuditLogQuerySchema = z.object({
  student_id: z.optional(StudentIdSchema),
  action: z
    .string()
    .trim()
    .regex(/^[a-z-]{1,40}$/, 'An action is lower-case letters and dashes, such as read or update.')
    .optional(),
  before_id: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditLogQuery = z.input<typeof AuditLogQuerySchema>;

export const AuditEntrySchema = z.object({
  id: z.number().int(),
  /** When (ISO-8601 UTC). */
  at: z.string(),
  /** Who: 'admin:<username>', 'student:<id>' or 'visitor'. */
  actor: z.string(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  field: z.string().nullable(),
  old_value: z.string().nullable(),
  new_value: z.string().nullable(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditLogPageSchema = z.object({
  entries: z.array(AuditEntrySchema),
  /** Pass as before_id for the next (older) page; null when this was the last. */
  next_before_id: z.number().int().nullable(),
});
export type AuditLogPage = z.infer<typeof AuditLogPageSchema>;

export const StudentParamsSchema = z.object({ studentId: StudentIdSchema });

/** GET /api/privacy/students/{id}/history: every recorded change of the record and its documents. */
export const StudentHistorySchema = z.object({
  student_id: z.string(),
  changes: z.array(AuditEntrySchema),
});
export type StudentHistory = z.infer<typeof StudentHistorySchema>;

/** DELETE /api/privacy/students/{id}: the ID typed again, so a slip cannot delete a student. */
export const DeleteStudentSchema = z.object({
  confirm_student_id: StudentIdSchema,
});
export type DeleteStudentInput = z.infer<typeof DeleteStudentSchema>;

export const DeleteStudentAnswerSchema = z.object({
  message: z.string(),
  /** Rows removed, by table. */
  deleted: z.record(z.string(), z.number().int()),
});
export type DeleteStudentAnswer = z.infer<typeof DeleteStudentAnswerSchema>;

export const EXPORT_DOCUMENT_ENCODING = 'base64' as const;

/** The export of everything held about one student (a JSON file; documents inside as base64). */
export const StudentExportSchema = z.object({
  format: z.literal('school-portal-student-export/1'),
  exported_at: z.string(),
  exported_by: z.string(),
  student: z.record(z.string(), z.unknown()),
  account: z
    .object({
      role: z.string(),
      student_id: z.string().nullable(),
      first_login: z.number(),
      password_reset: z.number(),
      password_changed_at: z.string().nullable(),
      created_at: z.string(),
      updated_at: z.string(),
    })
    .nullable(),
  registration_progress: z.record(z.string(), z.unknown()).nullable(),
  documents: z.array(
    z.object({
      file_type: z.string(),
      file_name: z.string(),
      mime: z.string(),
      size: z.number(),
      sha256: z.string(),
      uploaded_at: z.string(),
      encoding: z.literal(EXPORT_DOCUMENT_ENCODING),
      content: z.string(),
    }),
  ),
  term_results: z.array(z.record(z.string(), z.unknown())),
  term_summaries: z.array(z.record(z.string(), z.unknown())),
  attendance_records: z.array(z.record(z.string(), z.unknown())),
  attendance_scans: z.array(z.record(z.string(), z.unknown())),
  sessions: z.array(z.object({ created_at: z.string(), last_seen_at: z.string(), expires_at: z.string(), ip: z.string().nullable(), user_agent: z.string().nullable() })),
  audit_log: z.array(AuditEntrySchema),
});
export type StudentExport = z.infer<typeof StudentExportSchema>;

/** The file name of a student's export. */
export function studentExportFileName(studentId: string): string {
  return `Student ${studentId.replace(/[^A-Za-z0-9-]/g, '_')} - everything held.json`;
}
