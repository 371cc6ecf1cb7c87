import { composeMail, type MailContent, type MailContext, type RenderedMail } from './layout.js';
import { childLink, namesList, type NoticeData } from './notice-parts.js';

/** The office returned a submitted registration with a note and the steps to fix. */
export interface RegistrationReturnedData extends NoticeData {
  note: string;
  steps: string[];
}

export function registrationReturnedContent(data: RegistrationReturnedData, context: MailContext): MailContent {
  const who = namesList(data.studentNames);
  return {
    subject: `${who}'s registration needs changes`,
    heading: `The school returned ${who}'s registration`,
    blocks: [
      { text: `The office of ${context.schoolName} checked ${who}'s registration and asks for changes: ${data.note}` },
      ...(data.steps.length > 0 ? [{ text: `Steps to fix: ${data.steps.join(', ')}.` }] : []),
      { link: { label: 'Open the registration', href: childLink(data, context, '/registration') } },
    ],
  };
}

export function registrationReturned(data: RegistrationReturnedData, context: MailContext): RenderedMail {
  return composeMail(registrationReturnedContent(data, context), context);
}
