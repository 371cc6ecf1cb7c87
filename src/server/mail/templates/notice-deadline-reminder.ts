import { composeMail, portalLink, type MailContent, type MailContext, type RenderedMail } from './layout.js';
import { namesList, unsubscribeBlocks, unsubscribeHeaders, type NoticeData } from './notice-parts.js';

/** The registration deadline is near and a child's record is not finished. */
export interface DeadlineReminderData extends NoticeData {
  /** The earliest deadline among the children, yyyy-MM-dd. */
  deadline: string;
}

export function deadlineReminderContent(data: DeadlineReminderData, context: MailContext): MailContent {
  const who = namesList(data.studentNames);
  return {
    subject: `Registration closes on ${data.deadline}: ${who}'s record is not finished`,
    heading: `Please finish ${who}'s registration by ${data.deadline}`,
    blocks: [
      { text: `The registration at ${context.schoolName} closes on ${data.deadline}. ${who}'s record still has steps to complete or the terms to agree to.` },
      { link: { label: 'Continue the registration', href: portalLink(context, '/registration') } },
      ...unsubscribeBlocks(data, context, 'registration deadline reminders'),
    ],
  };
}

export function deadlineReminder(data: DeadlineReminderData, context: MailContext): RenderedMail {
  const headers = unsubscribeHeaders(data, context);
  return { ...composeMail(deadlineReminderContent(data, context), context), ...(headers ? { headers } : {}) };
}
