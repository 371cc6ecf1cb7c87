import type { ComponentType } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, replace, type HydrationState, type RouteObject } from 'react-router';
import type { DataStep } from '../../shared/registration.progress.js';
import { Guard, guardLoader, type GuardRule } from '../auth/require-auth.js';
import { StudentLoginPage } from '../auth/student-login-page.js';
import { PageSpinner } from '../components/page-spinner.js';
import { RouteErrorPage } from '../components/route-error-page.js';
import { sessionQuery } from '../lib/session.js';
import { loadDashboardScreen } from './dashboard-screen.load.js';
import { RootLayout } from './root-layout.js';

/**
 * A route's handle may name code its page needs beyond the route's own `lazy` (a screen the
 * address's query chooses): main.tsx fetches it before hydrating a page the server rendered.
 */
export interface PageCodeHandle {
  codeOfPage: (url: URL) => Promise<unknown>;
}

/** The admin screen ?view= chooses (the list when none): its code, fetched beside the menu's. */
async function loadChosenScreen(url: URL): Promise<unknown> {
  const view = url.searchParams.get('view');
  if (view === null) loadDashboardScreen().catch(() => undefined);
  const [{ findMenuEntry }, { ADMIN_MENU }] = await Promise.all([import('../components/admin-menu-entry.js'), import('./admin-menu.js')]);
  return findMenuEntry(ADMIN_MENU, view).load();
}

/**
 * The routes (docs/requirements.md R2), and the one way a screen gets its data: the route's loader puts it in
 * the query cache (`queryClient.ensureQueryData`, with the query options the screen's hooks use,
 * from its feature's `*.api.ts`), and the screen reads it from there with those hooks. A loader's
 * API module and the route's screen are fetched on first visit, side by side, so the sign-in
 * pages never download the registration, report or chart code; only the student login page (/)
 * is in the first load.
 *
 * Access is decided by the layout route a page sits under (a Guard: visitors only, signed in,
 * staff or a family account), first by its loader (on the server, a redirect answer) and then as
 * the session changes; the family's mailed links (verify, reset, accept) sit under none and
 * decide on the page. The server checks every call itself.
 *
 * The same routes render a visit's first page on the server (entry-server.tsx): the loaders ask
 * for the same paths there, answered by the page's own reads.
 */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  /** A layout route that lets in only whom the rule allows. */
  const guarded = (rule: GuardRule, children: RouteObject[]): RouteObject => ({
    loader: guardLoader(queryClient, rule),
    element: <Guard rule={rule} />,
    children,
  });

  /** A registration data step: the frame's loader brings the record, the step's loader its lookups. */
  const dataStep = (path: string, step: DataStep, title: string): RouteObject => ({
    path,
    loader: async ({ request }) => (await import('../registration/registration.api.js')).loadRegistrationStep(queryClient, step, new URL(request.url)),
    lazy: async () => {
      const { RegistrationStepPage } = await import('../registration/registration-step-page.js');
      return { element: <RegistrationStepPage step={step} title={title} /> };
    },
  });

  /** The frame of the signed-in screens: top bar and sign-out (and a family account's child switcher). */
  const appShell = async () => ({
    Component: (await import('./signed-in-shell.js')).SignedInShell,
  });

  /** A family page, loaded on first visit. */
  const familyPage = (path: string, load: () => Promise<{ default: ComponentType }>): RouteObject => ({
    path,
    lazy: async () => ({ Component: (await load()).default }),
  });

  return [
    {
      Component: RootLayout,
      HydrateFallback: PageSpinner,
      ErrorBoundary: RouteErrorPage,
      // Every screen starts from who is signed in. A failed check leaves the guards to treat the
      // user as a visitor, as a signed-out session would.
      loader: async () => {
        await queryClient.ensureQueryData(sessionQuery).catch(() => undefined);
        return null;
      },
      children: [
        // Visitors only: signed-in users go on to their dashboard.
        guarded({ visitor: true }, [
          { index: true, Component: StudentLoginPage },
          {
            path: 'admin',
            loader: async () => (await import('../auth/auth.api.js')).loadStaffSignInOptions(queryClient),
            lazy: async () => ({
              Component: (await import('../auth/admin-login-page.js')).AdminLoginPage,
            }),
          },
          familyPage('family/sign-in', async () => ({
            default: (await import('../family/family-sign-in-page.js')).FamilySignInPage,
          })),
          familyPage('family/register', async () => ({
            default: (await import('../family/family-register-page.js')).FamilyRegisterPage,
          })),
          familyPage('family/forgot-password', async () => ({
            default: (await import('../family/family-link-pages.js')).FamilyForgotPasswordPage,
          })),
          {
            path: 'forgot-password',
            lazy: async () => ({
              Component: (await import('../auth/student-password-reset-pages.js')).StudentForgotPasswordPage,
            }),
          },
        ]),
        // A student's reset link is opened by their family, on whatever device: the page decides (D77).
        {
          path: 'reset-password',
          lazy: async () => ({
            Component: (await import('../auth/student-password-reset-pages.js')).StudentResetPasswordPage,
          }),
        },
        // The family's mailed links work whoever is signed in on this device: each page decides.
        familyPage('family/verify', async () => ({
          default: (await import('../family/family-link-pages.js')).FamilyVerifyPage,
        })),
        familyPage('family/reset-password', async () => ({
          default: (await import('../family/family-link-pages.js')).FamilyResetPasswordPage,
        })),
        familyPage('family/accept', async () => ({
          default: (await import('../family/family-accept-page.js')).FamilyAcceptPage,
        })),
        // An optional message's unsubscribe link works without a sign-in.
        {
          path: 'notices/unsubscribe',
          lazy: async () => ({
            Component: (await import('../notices/unsubscribe-page.js')).UnsubscribePage,
          }),
        },
        // Signed in, even with a password change pending: the way out must always work.
        guarded({ allowPasswordChange: true, allowSecondFactorSetup: true }, [
          {
            path: 'logout',
            lazy: async () => ({
              Component: (await import('../auth/logout-page.js')).LogoutPage,
            }),
          },
        ]),
        // A staff member's own second factor, reachable before it is set up.
        guarded({ role: 'staff', allowSecondFactorSetup: true }, [
          {
            path: 'admin/two-factor',
            lazy: async () => ({
              Component: (await import('../auth/two-factor-page.js')).TwoFactorPage,
            }),
          },
        ]),
        guarded({}, [
          {
            lazy: appShell,
            children: [
              {
                path: 'dashboard',
                lazy: async () => ({
                  Component: (await import('./dashboard-route.js')).DashboardRoute,
                }),
              },
              {
                path: 'registration/change-password',
                lazy: async () => ({
                  Component: (await import('../auth/change-password-page.js')).ChangePasswordPage,
                }),
              },
              {
                path: 'registration',
                loader: async ({ request }) => (await import('../registration/registration.api.js')).loadRegistration(queryClient, new URL(request.url)),
                lazy: async () => ({
                  Component: (await import('../registration/registration-layout.js')).RegistrationLayout,
                }),
                children: [
                  dataStep('student-data', 'student', 'Student Data'),
                  dataStep('family-data', 'family', 'Family Data'),
                  dataStep('health-data', 'health', 'Health Data'),
                  dataStep('other-data', 'other', 'Other Data'),
                  {
                    path: 'documents',
                    loader: async ({ request }) => (await import('../documents/documents.api.js')).loadDocuments(queryClient, new URL(request.url)),
                    lazy: async () => ({
                      Component: (await import('../documents/documents-step-page.js')).DocumentsStepPage,
                    }),
                  },
                  {
                    path: 'complete',
                    loader: async ({ request }) => (await import('../registration/registration-form.api.js')).loadCompleteStep(queryClient, new URL(request.url)),
                    lazy: async () => ({
                      Component: (await import('../registration/complete-step-page.js')).CompleteStepPage,
                    }),
                  },
                  // /registration and an unknown step open the first step (a redirect answer on the server).
                  { index: true, loader: () => replace('/registration/student-data') },
                  { path: '*', loader: () => replace('/registration/student-data') },
                ],
              },
              {
                path: 'term-reports',
                loader: async ({ request }) => (await import('../term-reports/term-reports.api.js')).loadTermReports(queryClient, new URL(request.url)),
                lazy: async () => ({
                  Component: (await import('../term-reports/term-reports-page.js')).TermReportsPage,
                }),
              },
              {
                path: 'notices',
                lazy: async () => ({
                  Component: (await import('../notices/notices-page.js')).NoticesPage,
                }),
              },
              // A family's absence notes; the decision's mail and the digest's link open it (?student=, &date=).
              {
                path: 'absence-notes',
                lazy: async () => ({
                  Component: (await import('../absence-notes/absence-notes-page.js')).AbsenceNotesPage,
                }),
              },
              {
                path: 'attendance',
                loader: async ({ request }) => (await import('../attendance/attendance.api.js')).loadAttendance(queryClient, new URL(request.url)),
                lazy: async () => ({
                  Component: (await import('../attendance/attendance-page.js')).AttendancePage,
                }),
              },
            ],
          },
        ]),
        // A family account's own pages.
        guarded({ role: 'guardian' }, [
          {
            lazy: appShell,
            children: [
              familyPage('family/children', async () => ({
                default: (await import('../family/my-children-page.js')).MyChildrenPage,
              })),
            ],
          },
        ]),
        guarded({ role: 'staff' }, [
          {
            lazy: appShell,
            children: [
              {
                path: 'admin/dashboard',
                // The chosen screen's code is fetched beside the menu's, not once the menu has
                // rendered; the list (no view named) even before the menu's code is in.
                loader: ({ request }) => {
                  loadChosenScreen(new URL(request.url)).catch(() => undefined);
                  return null;
                },
                // The screen is chosen by ?view=, which the route's own code cannot know: a page the
                // server rendered waits for it before hydrating (main.tsx), or the screen would stay
                // the server's markup until its code came and a first tap on it would go nowhere.
                handle: { codeOfPage: loadChosenScreen } satisfies PageCodeHandle,
                lazy: async () => {
                  const [{ AdminDashboardPage }, { ADMIN_MENU }] = await Promise.all([import('./admin-dashboard-page.js'), import('./admin-menu.js')]);
                  return { element: <AdminDashboardPage menu={ADMIN_MENU} /> };
                },
              },
            ],
          },
        ]),
        // An unknown address says so and links home (the server answers index.html for it; an
        // unknown /api path stays a JSON 404 there).
        {
          path: '*',
          lazy: async () => ({
            Component: (await import('../components/not-found-page.js')).NotFoundPage,
          }),
        },
      ],
    },
  ];
}

/** The app's browser router over the app's query cache; `hydrationData` when the server rendered the page. */
export function createAppRouter(routes: RouteObject[], hydrationData?: HydrationState) {
  return createBrowserRouter(routes, hydrationData ? { hydrationData } : {});
}
