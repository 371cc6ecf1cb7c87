import type { QueryClient } from '@tanstack/react-query';
import { Navigate, createBrowserRouter, type RouteObject } from 'react-router';
import { sessionQuery } from '../auth/auth.api.js';
import { RequireAuth, RequireVisitor } from '../auth/require-auth.js';
import { StudentLoginPage } from '../auth/student-login-page.js';
import { PageSpinner } from '../components/page-spinner.js';
import { RouteErrorPage } from '../components/route-error-page.js';
import { requestEarly } from '../lib/api-client.js';
import { registrationCallsOf } from '../../shared/registration.paths.js';
import { RootLayout } from './root-layout.js';

/** The frame of the signed-in screens, fetched with the first of them. */
const lazyAppShell = async () => ({ Component: (await import('../components/app-shell.js')).AppShell });

/**
 * The registration screens' calls, started as soon as the route matches so they run while the
 * screens' code downloads: the record and the window's status at once (`requestEarly`; their
 * schemas come with that code), the lookups when the registration API module is in. The loader
 * answers at once; the screens read the same answers. The page the server answered for a
 * registration path has usually asked for the first two already (`<link rel="preload">`, same
 * URLs): the browser then hands that answer to this fetch.
 */
async function prefetchRegistrationFor(queryClient: QueryClient): Promise<void> {
  const { user } = await queryClient.ensureQueryData(sessionQuery);
  if (!user?.student_id) return;
  for (const path of registrationCallsOf(user.student_id)) requestEarly(path);
  const { prefetchRegistration } = await import('../registration/registration.api.js');
  prefetchRegistration(queryClient, user.student_id);
}

/**
 * The routes of SPEC §2. Access is decided by the layout route a page sits under
 * (RequireVisitor, RequireAuth, RequireAuth role="admin"); each feature owns the element of its
 * routes in its own folder and is loaded on first visit, so the sign-in pages never download
 * the registration, report or chart code. Only the student login page (/) is in the first load;
 * the admin login and the signed-in frame come with their routes (docs/performance.md, web).
 *
 * `queryClient` is the app's cache, which the loaders fill ahead of the screens.
 */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      Component: RootLayout,
      HydrateFallback: PageSpinner,
      ErrorBoundary: RouteErrorPage,
      children: [
        {
          // Visitors only: signed-in users go on to their dashboard.
          Component: RequireVisitor,
          children: [
            { index: true, Component: StudentLoginPage },
            { path: 'admin', lazy: async () => ({ Component: (await import('../auth/admin-login-page.js')).AdminLoginPage }) },
          ],
        },
        {
          // Signed in, even with a password change pending: the way out must always work.
          element: <RequireAuth allowPasswordChange />,
          children: [{ path: 'logout', lazy: async () => ({ Component: (await import('../auth/logout-page.js')).LogoutPage }) }],
        },
        {
          element: <RequireAuth />,
          children: [
            {
              lazy: lazyAppShell,
              children: [
                {
                  path: 'dashboard',
                  lazy: async () => ({ Component: (await import('../dashboard/dashboard-page.js')).DashboardPage }),
                },
                {
                  path: 'registration/change-password',
                  lazy: async () => ({ Component: (await import('../auth/change-password-page.js')).ChangePasswordPage }),
                },
                {
                  path: 'registration/*',
                  loader: () => {
                    // A failure here only loses the head start: the screens ask again and show it.
                    prefetchRegistrationFor(queryClient).catch(() => undefined);
                    return null;
                  },
                  shouldRevalidate: () => false,
                  lazy: async () => ({
                    Component: (await import('../registration/registration-routes.js')).RegistrationRoutes,
                  }),
                },
                {
                  path: 'term-reports/*',
                  lazy: async () => ({
                    Component: (await import('../term-reports/term-reports-routes.js')).TermReportsRoutes,
                  }),
                },
                {
                  path: 'attendance/*',
                  lazy: async () => ({ Component: (await import('../attendance/attendance-routes.js')).AttendanceRoutes }),
                },
              ],
            },
          ],
        },
        {
          element: <RequireAuth role="admin" />,
          children: [
            {
              lazy: lazyAppShell,
              children: [
                {
                  path: 'admin/dashboard',
                  lazy: async () => ({ Component: (await import('../admin/admin-dashboard-page.js')).AdminDashboardPage }),
                },
              ],
            },
          ],
        },
        // Unknown paths go to the start page, where the guard sends signed-in users onward.
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ];
}

/** The app's browser router over the app's query cache. */
export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(createRoutes(queryClient));
}
