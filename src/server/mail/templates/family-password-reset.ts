import { composeMail, portalLink, type MailContext, type RenderedMail } from './layout.js';

/** A family account's password reset link (D54). */
export interface FamilyPasswordResetData {
  name: string;
  token: string;
}

export function familyPasswordReset(data: FamilyPasswordResetData, context: MailContext): RenderedMail {
  return composeMail(
    {
      subject: `Choose a new password for ${context.schoolName}`,
      heading: 'Choose a new password',
      blocks: [
        { text: `Hello ${data.name}, someone asked to reset the password of your family account. Open this link within one hour to choose a new one:` },
        { link: { label: 'Choose a new password', href: portalLink(context, `/family/reset-password?token=${encodeURIComponent(data.token)}`) } },
        { text: 'If you did not ask for this, ignore this message: your password stays as it is.' },
      ],
    },
    context,
  );
}
