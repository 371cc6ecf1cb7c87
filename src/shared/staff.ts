import { z } from 'zod/mini';

/**
 * Staff roles (docs/decisions.md D49): the job a staff account does. What each may do is
 * decided in one place, the server's access module (src/server/access/roles.ts); the browser only
 * shows what the session's `permissions` say.
 */
export const STAFF_ROLES = ['administrator', 'office', 'principal', 'form_teacher'] as const;
export const StaffRoleSchema = z.enum(STAFF_ROLES, { message: 'Choose a role: administrator, office, principal or form teacher.' });
export type StaffRole = z.infer<typeof StaffRoleSchema>;

export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  administrator: 'Administrator',
  office: 'Office',
  principal: 'Principal',
  form_teacher: 'Form teacher',
};

/**
 * What someone may do that names no single student. The session answer lists the ones the
 * signed-in person may take, so the admin area shows only their menu items.
 */
export const SCHOOL_ACTIONS = [
  /** The student list (a form teacher's lists only their classes). */
  'students.list',
  /** Add a student, import students, reset a student's password. */
  'students.add',
  /** Every student at once: the registration data spreadsheet, the call list, all-classes reports, a form's report cards (zip). */
  'students.export',
  /** One class's reports: registration report, parents' contacts, class attendance, the class's report cards (one PDF). */
  'class.read',
  /** Mark sheets, grading and subjects of term results. */
  'term-results.read',
  'term-results.import',
  /** Which terms are posted. */
  'term-reports.read',
  /** Post, remove and schedule term reports. */
  'term-reports.post',
  'attendance.import',
  /** Registration windows, attendance settings and holidays: read. */
  'settings.read',
  'settings.manage',
  'scanners.manage',
  /** The audit log, a student's history, privacy export and deletion. */
  'privacy.manage',
  'staff.manage',
  /** The Outbox: every message the portal sends, resending one, a test message. */
  'outbox.manage',
  /** Family codes for a whole class (the letters to print). */
  'families.manage',
  /** Messages to families: the digest's time and switch, deadline reminders (preview and send). */
  'notices.manage',
  /** The document review queue: accept or return each uploaded document. */
  'documents.review',
  /** Verify, return or reopen a registration record. */
  'registrations.review',
  /** The new school year: preview, run and undo the year rollover (D60). */
  'year.rollover',
  /** The new Form 1 from the SEA placement list: import, class allocation, finalise (D61). */
  'intake.manage',
  /** The Absence Notes queue and the decision on a note (D93): a form teacher's for their classes. */
  'absence-notes.review',
] as const;
export type SchoolAction = (typeof SCHOOL_ACTIONS)[number];

/** What someone may do to one student's records. */
export const STUDENT_ACTIONS = [
  /** The registration record, its form, documents, report cards (posted or not for staff), attendance. */
  'student.read',
  /** The registration record and its documents. */
  'student.edit',
  'student.reset-password',
  /** Who is linked to the student's record: see, link, remove; print family codes. */
  'student.family',
  /** Invite a parent or guardian by e-mail to the student's record (the student may, for their own). */
  'student.invite-family',
  /** Read the student's enrolment history: entries, exits and their reasons (staff only, D80). */
  'student.history',
  /** Withdraw a student from the roll, or readmit a former one (D80). */
  'student.enrolment',
  /** Send an absence note for the student, or withdraw one while it waits (D93): the family's, or the student's own when no family account is linked. */
  'absence-notes.send',
  /** Read the student's absence notes and their attachments (D93): health data, read by fewer people than the record. */
  'absence-notes.read',
] as const;
export type StudentAction = (typeof STUDENT_ACTIONS)[number];
