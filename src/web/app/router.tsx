import { Navigate, createBrowserRouter, type RouteObject } from 'react-router';
import { AdminLoginPage } from '../auth/admin-login-page.js';
import { RequireAuth, RequireVisitor } from '../auth/require-auth.js';
import { StudentLoginPage } from '../auth/student-login-page.js';
import { AppShell } from '../components/app-shell.js';
import { PageSpinner } from '../components/page-spinner.js';
import { RouteErrorPage } from '../components/route-error-page.js';
import { RootLayout } from './root-layout.js';

/**
 * The routes of SPEC §2. Access is decided by the layout route a page sits under
 * (RequireVisitor, RequireAuth, RequireAuth role="admin"); each feature owns the element of its
 * routes in its own folder and is loaded on first visit, so the sign-in pages never download
 * the registration, report or chart code.
 */
export const routes: RouteObject[] = [
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
          { path: 'admin', Component: AdminLoginPage },
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
            Component: AppShell,
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
            Component: AppShell,
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

/** The app's browser router. */
export function createAppRouter() {
  return createBrowserRouter(routes);
}
