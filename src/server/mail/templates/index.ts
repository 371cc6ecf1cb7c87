import type { MailContext, MailTemplate, RenderedMail } from './layout.js';
import { familyAlreadyRegistered } from './family-already-registered.js';
import { familyInvitation } from './family-invitation.js';
import { familyPasswordReset } from './family-password-reset.js';
import { familyVerify } from './family-verify.js';
import { testMessage } from './test-message.js';

export type { MailContext, MailTemplate, RenderedMail } from './layout.js';

/**
 * Every message the portal can send (issue 17, docs/decisions.md D53): one file per template in
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
} satisfies Record<string, MailTemplate<never>>;

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
