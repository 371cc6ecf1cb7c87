import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import type { SessionUser } from '../../shared/auth.schemas.js';
import { PageSpinner } from '../components/page-spinner.js';
import { homePathFor, needsPasswordChange, passwordChangePathFor, safeNextPath, TWO_FACTOR_PATH, useSession } from '../lib/session.js';

/**
 * The route guard (docs/requirements.md R2), as layout routes: wrap a group of routes in one of these and the
 * group inherits its rule. The root route's loader has the session in the cache before any of
 * them renders; they follow it as it changes (sign-in, sign-out, an expired session). The server
 * still checks every call itself (R15).
 */

interface RequireAuthProps {
  /** Also require this role (the admin area: students are sent to their dashboard). */
  role?: SessionUser['role'];
  /** Let someone who must still change the password through (only /logout needs this). */
  allowPasswordChange?: boolean;
  /** Let a staff member who must still set up the second factor through (its screen and /logout). */
  allowSecondFactorSetup?: boolean;
}

/** Signed-in-only routes: visitors go to / (the admin area's to the staff sign-in, /admin); someone owing a new password goes to its form (/ or /admin); staff owing a second factor go to its set-up. */
export function RequireAuth({ role, allowPasswordChange = false, allowSecondFactorSetup = false }: RequireAuthProps) {
  const session = useSession();
  if (session.isPending) return <PageSpinner />;
  const user = session.data?.user ?? null;
  if (user === null) return <Navigate to={role === 'staff' ? '/admin' : '/'} replace />;
  if (!allowPasswordChange && needsPasswordChange(user)) return <Navigate to={passwordChangePathFor(user)} replace />;
  if (!allowSecondFactorSetup && user.second_factor_setup) return <Navigate to={TWO_FACTOR_PATH} replace />;
  if (role !== undefined && user.role !== role) return <Navigate to={homePathFor(user)} replace />;
  return <Outlet />;
}

/**
 * Visitor-only routes (/, /admin, the family sign-in pages): signed-in users go on to their
 * dashboard, or to the page a `?next=` of this portal names (an invitation opened before signing
 * in); someone who must change the password stays where the New-password form is (/ for a
 * student, /admin for staff).
 */
export function RequireVisitor() {
  const session = useSession();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  if (session.isPending) return <PageSpinner />;
  const user = session.data?.user ?? null;
  if (user === null) return <Outlet />;
  if (needsPasswordChange(user)) {
    const changeAt = passwordChangePathFor(user);
    return pathname === changeAt ? <Outlet /> : <Navigate to={changeAt} replace />;
  }
  return <Navigate to={safeNextPath(params.get('next')) ?? homePathFor(user)} replace />;
}
