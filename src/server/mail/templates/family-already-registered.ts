import { composeMail, portalLink, type MailContext, type RenderedMail } from './layout.js';

/**
 * Someone registered an address that already has a family account (D54): its owner is told, with
 * a link to choose a new password (one hour, as "Forgot your password?"), and nobody else learns
 * that the account exists. The link is what the registration of a new address writes too (D66).
 */
export interface FamilyAlreadyRegisteredData {
  name: string;
  /** The reset link's token; a message queued by an older version has none and says where to ask. */
  token?: string;
}

export function familyAlreadyRegistered(data: FamilyAlreadyRegisteredData, context: MailContext): RenderedMail {
  return composeMail(
    {
      subject: `You already have a family account at ${context.schoolName}`,
      heading: 'You already have an account',
      blocks: [
        { text: `Hello ${data.name}, someone (probably you) tried to create a family account with this e-mail address, which already has one. Sign in with it instead:` },
        { link: { label: 'Sign in', href: portalLink(context, '/') } },
        ...(data.token
          ? [
              { text: 'Forgot your password? Choose a new one with this link within one hour:' },
              { link: { label: 'Choose a new password', href: portalLink(context, `/family/reset-password?token=${encodeURIComponent(data.token)}`) } },
            ]
          : [{ text: 'Forgot your password? Choose “Forgot your password?” on the sign-in page.' }]),
        { text: 'If this was not you, you can ignore this message; nothing was changed.' },
      ],
    },
    context,
  );
}
