import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient, Providers } from './app/providers.js';
import { createAppRouter } from './app/router.js';
import { createAppTheme } from './app/theme.js';
import { sessionQuery } from './auth/auth.api.js';

/**
 * How long the first render waits for the session answer and the path's screens. index.html asks
 * for the session and names the screens' files while the scripts download, so they are normally
 * here already and the first paint is the right screen, not a spinner that is replaced at once; a
 * slow answer gets the spinner after this long.
 */
const SESSION_WAIT_MS = 250;

const nextTask = (delayMs = 0) => new Promise((resolve) => window.setTimeout(resolve, delayMs));

/** Resolves once the router has loaded the first path's screens (its lazy routes) and loaders. */
function routerReady(router: ReturnType<typeof createAppRouter>): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * Start-up work in short tasks rather than one long one (Lighthouse's Total Blocking Time;
 * docs/performance.md, web): evaluating the scripts is one task (React's and MUI's own start-up
 * make it the longest); the query cache, the session's fetch (index.html has asked for it
 * already) and the router wait for the next (building the router reads sessionStorage, slow on a
 * cold start, and starts loading the path's screens, which the first render needs); React's root
 * and the theme for the one after; the first render is a transition, which React renders in
 * slices. (A function, not top-level await: that would make Rollup split the entry into many
 * small files.)
 */
async function start(container: HTMLElement): Promise<void> {
  await nextTask();
  const queryClient = createQueryClient();
  const sessionKnown = queryClient.prefetchQuery(sessionQuery);
  const router = createAppRouter(queryClient);
  await nextTask();
  const root = createRoot(container);
  const theme = createAppTheme();
  await Promise.race([Promise.all([sessionKnown, routerReady(router)]), nextTask(SESSION_WAIT_MS)]);
  startTransition(() => {
    root.render(
      <StrictMode>
        <Providers queryClient={queryClient} theme={theme}>
          <RouterProvider router={router} />
        </Providers>
      </StrictMode>,
    );
  });
}

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element.');
void start(container);
