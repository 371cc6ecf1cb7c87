import { composeMail, portalLink, type MailContext, type RenderedMail } from './layout.js';

/**
 * A student's password reset link, mailed to their family (docs/decisions.md D77): the student
 * asked on the sign-in page, and the link lets whoever opens it choose the student's new password.
 */
export interface StudentPasswordResetData {
  /** The student's name, as the school's record has it. */
  studentName: string;
  studentId: string;
  token: string;
}

export function studentPasswordReset(data: StudentPasswordResetData, context: MailContext): RenderedMail {
  return composeMail(
    {
      subject: `A new password for ${data.studentName} at ${context.schoolName}`,
      heading: `Choose a new password for ${data.studentName}`,
      blocks: [
        {
          text: `Someone asked for a new password for ${data.studentName}'s student sign-in (Student ID ${data.studentId}). You are getting this as their family. Open this link within one hour to choose the new password, with your child or for them:`,
        },
        { link: { label: 'Choose a new password', href: portalLink(context, `/reset-password?token=${encodeURIComponent(data.token)}`) } },
        { text: 'The link works once. Choosing the password signs your child out everywhere; they then sign in with their Student ID and the new password.' },
        { text: 'If nobody asked for this, ignore this message: the password stays as it is.' },
      ],
    },
    context,
  );
}
