import { registrationCallsOf } from './registration.paths.js';

/**
 * The screen modules (paths under src/web) that a signed-in client path loads before it can show
 * anything: the signed-in frame and the path's screens. The server names their built files in the
 * index.html it answers for that path as `<link rel="modulepreload">`, so they download alongside
 * the entry script instead of after it has run (docs/performance.md, web). The router
 * (src/web/app/router.tsx) is what loads them; a browser test holds this list to the build.
 */
export interface ScreenModules {
  /** A client path prefix, matched at a segment boundary; the first entry that matches counts. */
  prefix: string;
  modules: readonly string[];
  /**
   * The GET calls the path's screens make at once for a signed-in student (by their own id), which
   * the server names as `<link rel="preload" as="fetch">` in the same page: the exact URLs the
   * web client asks for, or the browser would ask twice.
   */
  studentCalls?: (studentId: string) => readonly string[];
}

const SIGNED_IN_FRAME = 'components/app-shell.tsx';

export const SCREEN_MODULES: readonly ScreenModules[] = [
  { prefix: '/dashboard', modules: [SIGNED_IN_FRAME, 'dashboard/dashboard-page.tsx'] },
  // The password change sits under /registration but is the auth feature's own screen (router.tsx).
  { prefix: '/registration/change-password', modules: [SIGNED_IN_FRAME, 'auth/change-password-page.tsx'] },
  {
    prefix: '/registration',
    modules: [SIGNED_IN_FRAME, 'registration/registration-routes.tsx', 'registration/registration.api.ts'],
    studentCalls: registrationCallsOf,
  },
  { prefix: '/term-reports', modules: [SIGNED_IN_FRAME, 'term-reports/term-reports-routes.tsx'] },
  { prefix: '/attendance', modules: [SIGNED_IN_FRAME, 'attendance/attendance-routes.tsx'] },
];

/** The screen modules of a client path, or none. */
export function screenModulesFor(urlPath: string): ScreenModules | undefined {
  return SCREEN_MODULES.find(({ prefix }) => urlPath === prefix || urlPath.startsWith(`${prefix}/`));
}
