import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { matchRoutes, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { createEmotionCache } from './app/emotion-cache.js';
import { createQueryClient, Providers } from './app/providers.js';
import { createAppRouter, createRoutes, type PageCodeHandle } from './app/router.js';
import { PAGE_STATE_ID, readPageState } from './app/page-state.js';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element.');

// One query cache for the app: the routes' loaders fill it and the screens read it.
const queryClient = createQueryClient();
const routes = createRoutes(queryClient);
const emotionCache = createEmotionCache();
const state = readPageState(document.getElementById(PAGE_STATE_ID)?.textContent ?? null);

/**
 * The routes of this address whose code is fetched on first visit are fetched before hydrating,
 * as React Router's server-rendering guide does: the first render must be the page the server
 * rendered, not the fallback shown while a route's code loads.
 */
async function loadLazyRoutesOf(all: RouteObject[]): Promise<void> {
  const matches = matchRoutes(all, window.location) ?? [];
  const url = new URL(window.location.href);
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy === 'function') {
        const loaded = await (route.lazy as () => Promise<Partial<RouteObject>>)();
        Object.assign(route, { ...loaded, lazy: undefined });
      }
      // Code the page needs beyond the route's own (router.tsx, PageCodeHandle).
      await (route.handle as Partial<PageCodeHandle> | undefined)?.codeOfPage?.(url);
    }),
  );
}

if (state) {
  // The server rendered this page (entry-server.tsx): hydrate it with the data it was rendered from.
  await loadLazyRoutesOf(routes);
  const router = createAppRouter(routes, state.router);
  hydrateRoot(
    container,
    <StrictMode>
      <Providers queryClient={queryClient} emotionCache={emotionCache} dehydratedState={state.queries}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
} else {
  createRoot(container).render(
    <StrictMode>
      <Providers queryClient={queryClient} emotionCache={emotionCache}>
        <RouterProvider router={createAppRouter(routes)} />
      </Providers>
    </StrictMode>,
  );
}
