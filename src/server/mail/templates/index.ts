import type { MailContext, MailTemplate, RenderedMail } from './layout.js';
import { familyAlreadyRegistered } from './family-already-registered.js';
import { familyInvitation } from './family-invitation.js';
import { familyParentEmailChanged } from './family-parent-email-changed.js';
import { familyPasswordReset } from './family-password-reset.js';
import { familyVerify } from './family-verify.js';
import { staffSecondFactorReset } from './staff-second-factor-reset.js';
import { studentPasswordReset } from './student-password-reset.js';
import { testMessage } from './test-message.js';
import { absenceNoteDecided, absenceNoteDecidedContent } from './notice-absence-note-decided.js';
import { attendanceDigest, attendanceDigestContent } from './notice-attendance-digest.js';
import { deadlineReminder, deadlineReminderContent } from './notice-deadline-reminder.js';
import { documentReturned, documentReturnedContent } from './notice-document-returned.js';
import { registrationReturned, registrationReturnedContent } from './notice-registration-returned.js';
import { registrationVerified, registrationVerifiedContent } from './notice-registration-verified.js';
import { termReportsPosted, termReportsPostedContent } from './notice-term-reports-posted.js';
import type { MailContent } from './layout.js';

export type { MailBlock, MailContent, MailContext, MailTemplate, RenderedMail } from './layout.js';

/**
 * Every message the portal can send (docs/decisions.md D53): one file per template in
 * this folder, each `(data, context) => { subject, html, text }` written with layout.ts's
 * `composeMail`. A new template is a file and a line here; `queueMessage` then takes its name and
 * checks its data's type.
 */
export const MAIL_TEMPLATES = {
  'test-message': testMessage,
  'family-verify': familyVerify,
  'family-already-registered': familyAlreadyRegistered,
  'family-password-reset': familyPasswordReset,
  'family-invitation': familyInvitation,
  'family-parent-email-changed': familyParentEmailChanged,
  // Staff accounts: the owner told of an administrator's reset of their second factor (D65).
  'staff-second-factor-reset': staffSecondFactorReset,
  // A student's password reset link, mailed to their family (D77).
  'student-password-reset': studentPasswordReset,
  // Messages to families (D57): the template's name is the notice's kind.
  'document-returned': documentReturned,
  'registration-returned': registrationReturned,
  'registration-verified': registrationVerified,
  'deadline-reminder': deadlineReminder,
  'term-reports-posted': termReportsPosted,
  'attendance-digest': attendanceDigest,
  'absence-note-decided': absenceNoteDecided,
} satisfies Record<string, MailTemplate<never>>;

/** The words of each notice kind, for the portal's notices list (the same as its mail's). */
export const NOTICE_CONTENT = {
  'document-returned': documentReturnedContent,
  'registration-returned': registrationReturnedContent,
  'registration-verified': registrationVerifiedContent,
  'deadline-reminder': deadlineReminderContent,
  'term-reports-posted': termReportsPostedContent,
  'attendance-digest': attendanceDigestContent,
  'absence-note-decided': absenceNoteDecidedContent,
} satisfies Record<string, (data: never, context: MailContext) => MailContent>;
export type NoticeTemplateName = keyof typeof NOTICE_CONTENT;

export type MailTemplateName = keyof typeof MAIL_TEMPLATES;
export type MailTemplateData<T extends MailTemplateName> = Parameters<(typeof MAIL_TEMPLATES)[T]>[0];

export function isMailTemplateName(name: string): name is MailTemplateName {
  return Object.hasOwn(MAIL_TEMPLATES, name);
}

/**
 * Writes a stored message: its template's name and data as the outbox keeps them. Throws for a
 * template this version does not have (the sender then marks the message failed with the reason).
 */
export function renderStoredMail(template: string, data: unknown, context: MailContext): RenderedMail {
  if (!isMailTemplateName(template)) throw new Error(`no mail template is named "${template}"`);
  const render = MAIL_TEMPLATES[template] as MailTemplate<unknown>;
  return render(data, context);
}

/**
 * A key of a template's data that holds a link's secret: `token` (a family link) or a name ending in
 * `Token` (a notice's unsubscribe link). A template that carries a secret names it so.
 */
const SECRET_KEY = /^(token|.+Token)$/;

/**
 * A message's stored data once it is sent (docs/security.md "Mail"): the same data with each
 * link's secret emptied, so the Outbox's history can still write its subject while no live link
 * stays in the database after the mail server has it. Data that is not an object is kept as it is.
 */
export function sentDataWithoutSecrets(dataText: string): string {
  let data: unknown;
  try {
    data = JSON.parse(dataText);
  } catch {
    return dataText;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return dataText;
  const kept = Object.fromEntries(Object.entries(data).map(([key, value]) => [key, SECRET_KEY.test(key) && typeof value === 'string' ? '' : value]));
  return JSON.stringify(kept);
}
