import { composeMail, portalLink, type MailContext, type RenderedMail } from './layout.js';

/**
 * Someone registered an address that already has a family account (issue 17, D54): its owner is
 * told, and nobody else learns that the account exists.
 */
export interface FamilyAlreadyRegisteredData {
  name: string;
}

export function familyAlreadyRegistered(data: FamilyAlreadyRegisteredData, context: MailContext): RenderedMail {
  return composeMail(
    {
      subject: `You already have a family account at ${context.schoolName}`,
      heading: 'You already have an account',
      blocks: [
        { text: `Hello ${data.name}, someone (probably you) tried to create a family account with this e-mail address, which already has one. Sign in with it instead:` },
        { link: { label: 'Sign in', href: portalLink(context, '/') } },
        { text: 'Forgot your password? Choose “Forgot your password?” on the sign-in page. If this was not you, you can ignore this message; nothing was changed.' },
      ],
    },
    context,
  );
}
