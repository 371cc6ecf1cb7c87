import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient, Providers } from './app/providers.js';
import { createAppRouter } from './app/router.js';
import { sessionQuery } from './auth/auth.api.js';

/**
 * How long the first render waits for the session answer. index.html asks for it while the
 * scripts download, so it is normally here already and the first paint is the right screen, not
 * a spinner that is replaced at once; a slow answer gets the spinner after this long.
 */
const SESSION_WAIT_MS = 250;

const nextTask = (delayMs = 0) => new Promise((resolve) => window.setTimeout(resolve, delayMs));

/**
 * Start-up work in short tasks rather than one long one (Lighthouse's Total Blocking Time;
 * docs/performance.md, web): evaluating the scripts is one task; building the router (it reads
 * sessionStorage, slow on a cold start) waits for the next; the first render is a transition,
 * which React renders in slices. (A function, not top-level await: that would make Rollup split
 * the entry into many small files.)
 */
async function start(container: HTMLElement): Promise<void> {
  const root = createRoot(container);
  const queryClient = createQueryClient();
  const sessionKnown = queryClient.prefetchQuery(sessionQuery);
  await nextTask();
  const router = createAppRouter(queryClient);
  await Promise.race([sessionKnown, nextTask(SESSION_WAIT_MS)]);
  startTransition(() => {
    root.render(
      <StrictMode>
        <Providers queryClient={queryClient}>
          <RouterProvider router={router} />
        </Providers>
      </StrictMode>,
    );
  });
}

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element.');
void start(container);
