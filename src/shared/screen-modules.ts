/**
 * The screen modules (paths under src/web) that a signed-in client path loads before it can show
 * anything: the signed-in frame and the path's screens. The server names their built files in the
 * index.html it answers for that path as `<link rel="modulepreload">`, so they download alongside
 * the entry script instead of after it has run (docs/performance.md, web). The router
 * (src/web/app/router.tsx) is what loads them; a browser test holds this list to the build.
 */
export interface ScreenModules {
  /** A client path prefix, matched at a segment boundary. */
  prefix: string;
  modules: readonly string[];
}

const SIGNED_IN_FRAME = 'components/app-shell.tsx';

export const SCREEN_MODULES: readonly ScreenModules[] = [
  { prefix: '/dashboard', modules: [SIGNED_IN_FRAME, 'dashboard/dashboard-page.tsx'] },
  {
    prefix: '/registration',
    modules: [SIGNED_IN_FRAME, 'registration/registration-routes.tsx', 'registration/registration.api.ts'],
  },
  { prefix: '/term-reports', modules: [SIGNED_IN_FRAME, 'term-reports/term-reports-routes.tsx'] },
  { prefix: '/attendance', modules: [SIGNED_IN_FRAME, 'attendance/attendance-routes.tsx'] },
];

/** The screen modules of a client path, or none. */
export function screenModulesFor(urlPath: string): ScreenModules | undefined {
  return SCREEN_MODULES.find(({ prefix }) => urlPath === prefix || urlPath.startsWith(`${prefix}/`));
}
