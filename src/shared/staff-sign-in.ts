import { z } from 'zod/mini';

/**
 * Staff sign-in through the school's own provider (OpenID Connect, docs/decisions.md D96): what
 * the staff sign-in page asks for first, and why a sign-in there was refused. The server sends
 * the browser back to `/admin?sign_in_error=<reason>`; the page shows the reason's words.
 */

export const StaffSignInOptionsSchema = z.object({
  /** The providers' buttons, in order: the first is shown first. */
  providers: z.array(z.object({ id: z.string(), label: z.string() })),
  /** false: staff passwords are turned off (only the break-glass administrator still has one). */
  password_sign_in: z.boolean(),
});
export type StaffSignInOptions = z.infer<typeof StaffSignInOptionsSchema>;

export const PROVIDER_SIGN_IN_ERRORS = {
  not_started:
    'This sign-in was not started in this browser, or it took too long. Start again with the button below. (A sign-in link cannot be forwarded or opened twice.)',
  provider_refused: 'The school’s sign-in service did not sign you in. Try again, or ask the school’s administrator.',
  provider_unreachable: 'The school’s sign-in service cannot be reached just now. Try again in a few minutes.',
  failed: 'The answer from the school’s sign-in service could not be checked, so you are not signed in. Start again with the button below.',
  unverified_email: 'The school’s sign-in service did not confirm your e-mail address, so the portal cannot tell which account is yours. Ask the school’s administrator.',
  unknown_account:
    'No staff account here has your school e-mail address. Ask the school’s administrator to add it to your account on the Staff Accounts screen.',
  account_disabled: 'This staff account is disabled. Ask the school’s administrator.',
} as const;
export type ProviderSignInError = keyof typeof PROVIDER_SIGN_IN_ERRORS;

/** The words for a `sign_in_error` in the page's address, or null for none or one this portal never sends. */
export function providerSignInErrorMessage(reason: string | null): string | null {
  return reason !== null && Object.hasOwn(PROVIDER_SIGN_IN_ERRORS, reason) ? PROVIDER_SIGN_IN_ERRORS[reason as ProviderSignInError] : null;
}

/** Where the staff sign-in page starts a provider's sign-in (a full page load, not a call). */
export const providerStartPath = (providerId: string, remember: boolean) => `/api/oidc/${encodeURIComponent(providerId)}/start${remember ? '?remember=1' : ''}`;
