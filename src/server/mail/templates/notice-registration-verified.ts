import { composeMail, type MailContent, type MailContext, type RenderedMail } from './layout.js';
import { childLink, namesList, type NoticeData } from './notice-parts.js';

/** The office verified a submitted registration: nothing more to do. */
export type RegistrationVerifiedData = NoticeData;

export function registrationVerifiedContent(data: RegistrationVerifiedData, context: MailContext): MailContent {
  const who = namesList(data.studentNames);
  return {
    subject: `${who}'s registration is verified`,
    heading: `${who}'s registration is verified`,
    blocks: [
      { text: `The office of ${context.schoolName} checked ${who}'s registration and accepted it. There is nothing more to do; the record is now read-only unless the office reopens it.` },
      { link: { label: 'Open the portal', href: childLink(data, context, '/dashboard') } },
    ],
  };
}

export function registrationVerified(data: RegistrationVerifiedData, context: MailContext): RenderedMail {
  return composeMail(registrationVerifiedContent(data, context), context);
}
