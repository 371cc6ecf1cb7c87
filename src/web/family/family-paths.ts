/** The family pages' addresses, and the `?next=` that carries an invitation through a sign-in. */

export const FAMILY_SIGN_IN_PATH = '/family/sign-in';
export const FAMILY_REGISTER_PATH = '/family/register';
export const FAMILY_CHILDREN_PATH = '/family/children';

/** `path`, with `?next=` when there is somewhere to come back to. */
export function withNext(path: string, next: string | null): string {
  return next ? `${path}?${new URLSearchParams({ next }).toString()}` : path;
}

/** The invitation page for a token, as the mailed link opens it. */
export function acceptPath(token: string): string {
  return `/family/accept?${new URLSearchParams({ token }).toString()}`;
}
