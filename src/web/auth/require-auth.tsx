import type { QueryClient } from '@tanstack/react-query';
import { Navigate, Outlet, redirect, useLocation, type LoaderFunctionArgs } from 'react-router';
import type { SessionUser } from '../../shared/auth.schemas.js';
import { PageSpinner } from '../components/page-spinner.js';
import { homePathFor, needsPasswordChange, passwordChangePathFor, safeNextPath, sessionQuery, TWO_FACTOR_PATH, useSession } from '../lib/session.js';

/**
 * The route guard (docs/requirements.md R2), as layout routes: wrap a group of routes in one of these and the
 * group inherits its rule. The rule is decided once (`guardRedirect`): by the route's loader before
 * a page is rendered (on the server, a redirect answer), and by the layout while the page is open,
 * following the session as it changes (sign-in, sign-out, an expired session). The server still
 * checks every call itself (R15).
 */

export type GuardRule =
  | { visitor: true }
  | {
      visitor?: false;
      /** Also require this role (the admin area: students are sent to their dashboard). */
      role?: SessionUser['role'];
      /** Let someone who must still change the password through (only /logout needs this). */
      allowPasswordChange?: boolean;
      /** Let a staff member who must still set up the second factor through (its screen and /logout). */
      allowSecondFactorSetup?: boolean;
    };

/**
 * Where the rule sends this person from this address, or null to let them in.
 * - Signed-in-only routes: visitors go to / (the admin area's to the staff sign-in, /admin);
 *   someone owing a new password goes to its form (/ or /admin); staff owing a second factor go
 *   to its set-up; another role goes home.
 * - Visitor-only routes (/, /admin, the family sign-in pages): signed-in users go on to their
 *   dashboard, or to the page a `?next=` of this portal names (an invitation opened before
 *   signing in); someone who must change the password stays where the New-password form is (/
 *   for a student, /admin for staff).
 */
export function guardRedirect(user: SessionUser | null, rule: GuardRule, location: { pathname: string; search: string }): string | null {
  if (rule.visitor) {
    if (user === null) return null;
    if (needsPasswordChange(user)) {
      const changeAt = passwordChangePathFor(user);
      return location.pathname === changeAt ? null : changeAt;
    }
    return safeNextPath(new URLSearchParams(location.search).get('next')) ?? homePathFor(user);
  }
  if (user === null) return rule.role === 'staff' ? '/admin' : '/';
  if (!rule.allowPasswordChange && needsPasswordChange(user)) return passwordChangePathFor(user);
  if (!rule.allowSecondFactorSetup && user.second_factor_setup) return TWO_FACTOR_PATH;
  if (rule.role !== undefined && user.role !== rule.role) return homePathFor(user);
  return null;
}

/** The guard's loader: a redirect before the page is rendered, as the layout would make. A failed check counts as signed out. */
export function guardLoader(queryClient: QueryClient, rule: GuardRule) {
  return async ({ request }: LoaderFunctionArgs) => {
    const answer = await queryClient.ensureQueryData(sessionQuery).catch(() => null);
    const to = guardRedirect(answer?.user ?? null, rule, new URL(request.url));
    // React Router's way for a loader to redirect: it throws the answer.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (to !== null) throw redirect(to);
    return null;
  };
}

/** The guard's layout: the page while the rule lets this person in, else a redirect (the session changed). */
export function Guard({ rule }: { rule: GuardRule }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <PageSpinner />;
  const to = guardRedirect(session.data?.user ?? null, rule, location);
  return to === null ? <Outlet /> : <Navigate to={to} replace />;
}
