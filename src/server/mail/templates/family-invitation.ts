import { composeMail, portalLink, type MailContext, type RenderedMail } from './layout.js';

/** An invitation to a child's record, sent by the student or the office (D54). */
export interface FamilyInvitationData {
  studentName: string;
  token: string;
}

export function familyInvitation(data: FamilyInvitationData, context: MailContext): RenderedMail {
  return composeMail(
    {
      subject: `Follow ${data.studentName}'s school record at ${context.schoolName}`,
      heading: `You are invited to follow ${data.studentName}'s school record`,
      blocks: [
        {
          text: `The student portal of ${context.schoolName} lets parents and guardians complete the registration, upload documents and see report cards and attendance. Open this link within 14 days, then sign in to your family account or create one with this e-mail address:`,
        },
        { link: { label: `Add ${data.studentName} to my family account`, href: portalLink(context, `/family/accept?token=${encodeURIComponent(data.token)}`) } },
        { text: 'If you do not know why you received this, ignore it: nothing happens unless the link is opened by someone signed in to a family account with this e-mail address.' },
      ],
    },
    context,
  );
}
