import { composeMail, portalLink, type MailContent, type MailContext, type RenderedMail } from './layout.js';
import { namesList, type NoticeData } from './notice-parts.js';

/**
 * A term's report cards are posted. The link opens the portal's report cards, which
 * need a sign-in: no report card is attached and no link opens one without it (D57).
 */
export interface TermReportsPostedData extends NoticeData {
  /** "Term 2 Hilary 2026-2027". */
  termLabel: string;
}

export function termReportsPostedContent(data: TermReportsPostedData, context: MailContext): MailContent {
  return {
    subject: `Report cards for ${data.termLabel} are ready`,
    heading: `Report cards for ${data.termLabel} are ready`,
    blocks: [
      { text: `${context.schoolName} has posted the report cards for ${data.termLabel}. ${namesList(data.studentNames)}: sign in to the portal to read them.` },
      { link: { label: 'Open the report cards', href: portalLink(context, '/term-reports') } },
    ],
  };
}

export function termReportsPosted(data: TermReportsPostedData, context: MailContext): RenderedMail {
  return composeMail(termReportsPostedContent(data, context), context);
}
