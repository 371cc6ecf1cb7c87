import { composeMail, portalLink, type MailContext, type RenderedMail } from './layout.js';

/** A family registration's link: its page asks for the password and creates the account (D54, D66). */
export interface FamilyVerifyData {
  name: string;
  token: string;
}

export function familyVerify(data: FamilyVerifyData, context: MailContext): RenderedMail {
  return composeMail(
    {
      subject: `Confirm your e-mail for ${context.schoolName}`,
      heading: 'Confirm your e-mail address',
      blocks: [
        { text: `Hello ${data.name}, you asked to create a family account on the student portal of ${context.schoolName}. Open this link within 48 hours to choose your password and finish:` },
        { link: { label: 'Confirm my e-mail and choose a password', href: portalLink(context, `/family/verify?token=${encodeURIComponent(data.token)}`) } },
        { text: 'If you did not ask for this, ignore this message: no account is created until the link is opened.' },
      ],
    },
    context,
  );
}
