import { composeMail, portalLink, type MailContext, type RenderedMail } from './layout.js';

/**
 * An administrator reset a staff member's second factor (docs/decisions.md D65): the owner hears
 * of it, so a reset they did not ask for (someone talking an administrator into it) is noticed.
 */
export interface StaffSecondFactorResetData {
  /** The staff member's name. */
  name: string;
  /** The administrator who reset it. */
  resetBy: string;
  /** The portal requires a second factor of their role: the next sign-in sets one up again. */
  mustSetUpAgain: boolean;
}

export function staffSecondFactorReset(data: StaffSecondFactorResetData, context: MailContext): RenderedMail {
  return composeMail(
    {
      subject: `Two-step sign-in was reset on your staff account at ${context.schoolName}`,
      heading: 'Your two-step sign-in was reset',
      blocks: [
        {
          text: `Hello ${data.name}, ${data.resetBy} turned off two-step sign-in on your staff account and removed its recovery codes. You were signed out everywhere.`,
        },
        {
          text: data.mustSetUpAgain
            ? 'When you next sign in with your password, the portal asks you to set up your authenticator app again before anything else.'
            : 'You can sign in with your password alone now, and turn two-step sign-in on again from its page once you are signed in.',
        },
        { link: { label: 'Sign in to the staff area', href: portalLink(context, '/admin') } },
        { text: 'If you did not ask for this, tell another administrator of the school at once: someone may be trying to reach your account.' },
      ],
    },
    context,
  );
}
