import { composeMail, portalLink, type MailContext, type RenderedMail } from './layout.js';

/** The Outbox's "Send a test message": proves the school's SMTP settings deliver. */
export interface TestMessageData {
  /** The name of the administrator who sent it. */
  requestedBy: string;
}

export function testMessage(data: TestMessageData, context: MailContext): RenderedMail {
  return composeMail(
    {
      subject: `Test message from ${context.schoolName}`,
      heading: 'Test message',
      blocks: [
        { text: `This is a test message from the student portal of ${context.schoolName}. ${data.requestedBy} sent it from the Outbox to check that the portal can send e-mail.` },
        { text: 'It reached you, so the mail settings work. There is nothing else to do, and no need to reply.' },
        { link: { label: 'Open the student portal', href: portalLink(context, '/') } },
      ],
    },
    context,
  );
}
