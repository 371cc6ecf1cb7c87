import { composeMail, type MailContent, type MailContext, type RenderedMail } from './layout.js';
import { childLink, namesList, type NoticeData } from './notice-parts.js';

/** The office returned an uploaded document with a reason: upload a new one. */
export interface DocumentReturnedData extends NoticeData {
  documentLabel: string;
  reason: string;
}

export function documentReturnedContent(data: DocumentReturnedData, context: MailContext): MailContent {
  const who = namesList(data.studentNames);
  return {
    subject: `${data.documentLabel} for ${who}: please upload a new one`,
    heading: `The school returned ${who}'s ${data.documentLabel}`,
    blocks: [
      { text: `The office of ${context.schoolName} checked the ${data.documentLabel} uploaded for ${who} and could not accept it. The reason: ${data.reason}` },
      { text: 'Please sign in and upload a new one on the Documents step. The old file stays until you replace it.' },
      { link: { label: 'Open the Documents step', href: childLink(data, context, '/registration/documents') } },
    ],
  };
}

export function documentReturned(data: DocumentReturnedData, context: MailContext): RenderedMail {
  return composeMail(documentReturnedContent(data, context), context);
}
