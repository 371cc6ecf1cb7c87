import { AsyncLocalStorage } from 'node:async_hooks';
import { Writable } from 'node:stream';
import { StrictMode, type ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import createEmotionServer from '@emotion/server/create-instance';
import { dehydrate } from '@tanstack/react-query';
import { createEmotionCache } from './app/emotion-cache.js';
import { pageStateScript } from './app/page-state.js';
import { createQueryClient, Providers } from './app/providers.js';
import { createRoutes } from './app/router.js';
import type { SessionAnswer } from '../shared/auth.schemas.js';
import { setApiTransport } from './lib/api-client.js';
import { sessionQueryKey } from './lib/session.js';
import { setSchoolName } from './lib/school-name.js';

export { setSchoolName };

/**
 * The first page of a visit, rendered on the server (docs/decisions.md D99). The server's page
 * route calls `renderPage` with the address and a reader of the API's paths bound to the visit's
 * session; the same routes as in the browser run their loaders (createStaticHandler), which ask
 * for their data as they always do, and the reader answers from the server's own reads (the same
 * access rules and handlers as the JSON API). React renders the page (renderToPipeableStream),
 * Emotion gives the CSS it used (@emotion/server), and the query cache and loader data go along
 * for the browser to hydrate with (main.tsx).
 */

/** The API's answer to a path the page read, or null when the server has no read for it. */
export type PageReader = (path: string) => Promise<{ status: number; body: unknown } | null>;

export type RenderedPage =
  /** A guard's answer: someone signed out, owing a new password or a second factor. */
  | { kind: 'redirect'; status: number; location: string }
  /** The page: its critical CSS for the head, its markup for #root, its state for after. */
  | { kind: 'page'; status: number; head: string; body: string; state: string }
  /** The page reads something the server cannot render from, or failed: the app shell renders it in the browser. */
  | { kind: 'shell'; reason: string };

interface PageReads {
  read: PageReader;
  /** Paths the page read that no server read answers. */
  missing: string[];
}

const pageReads = new AsyncLocalStorage<PageReads>();

// A loader's call reaches the page's own reads, in the request that renders it.
setApiTransport(async (path, init) => {
  const reads = pageReads.getStore();
  if (!reads || (init.method ?? 'GET') !== 'GET') throw new Error(`Only a page's reads are answered on the server (${init.method ?? 'GET'} ${path}).`);
  const answer = await reads.read(path);
  if (answer === null) {
    reads.missing.push(path);
    return Response.json({ message: 'Not read on the server.', code: 'internal' }, { status: 501 });
  }
  return Response.json(answer.body, { status: answer.status });
});

/** Renders a tree to HTML with React's streaming renderer, once every part is ready. */
function renderToHtml(tree: ReactNode, signal: AbortSignal, nonce: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        html += chunk.toString();
        done();
      },
      final(done) {
        resolve(html);
        done();
      },
    });
    const stream = renderToPipeableStream(tree, {
      // React's own inline scripts (a part that finished late) run under the page's CSP nonce.
      nonce,
      // Nothing is sent before every part is ready, so every part goes in its place in the HTML:
      // by default React moves parts past this many bytes to the end of the page, to be put in
      // place by its script, which a browser without JavaScript never runs.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady: () => stream.pipe(sink),
      onShellError: reject,
      onError: (error) => {
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    });
    signal.addEventListener('abort', () => stream.abort(), { once: true });
  });
}

/** The page at `url` (a path with its query) for the session `read` answers as. */
export async function renderPage(url: string, read: PageReader, signal: AbortSignal, nonce: string): Promise<RenderedPage> {
  const reads: PageReads = { read, missing: [] };
  const queryClient = createQueryClient({ onServer: true });
  const handler = createStaticHandler(createRoutes(queryClient));
  const context = await pageReads.run(reads, () => handler.query(new Request(new URL(url, 'http://portal.invalid'), { signal })));
  if (context instanceof Response) {
    const location = context.headers.get('location');
    if (context.status >= 300 && context.status < 400 && location) return { kind: 'redirect', status: context.status, location };
    return { kind: 'shell', reason: `a loader answered ${context.status}` };
  }
  if (reads.missing.length > 0) return { kind: 'shell', reason: `not read on the server: ${reads.missing.join(', ')}` };
  if (context.errors) return { kind: 'shell', reason: 'a loader failed' };
  // A family account's screens show the child chosen in the tab (lib/family-child.ts), which
  // only the browser knows, unless the address names the child (docs/decisions.md D99).
  const user = queryClient.getQueryData<SessionAnswer>(sessionQueryKey)?.user;
  if (user?.role === 'guardian' && !new URL(url, 'http://portal.invalid').searchParams.has('student')) {
    return { kind: 'shell', reason: "a family account's child is chosen in the tab" };
  }

  // The answers the page is rendered from, taken before it renders: an answer that lands during
  // the render is not in the markup, so the browser must not hydrate with it either.
  const state = pageStateScript({
    router: { loaderData: context.loaderData, actionData: context.actionData, errors: null },
    queries: dehydrate(queryClient),
  });
  const router = createStaticRouter(handler.dataRoutes, context);
  const emotionCache = createEmotionCache();
  const emotion = createEmotionServer(emotionCache);
  const body = await renderToHtml(
    <StrictMode>
      <Providers queryClient={queryClient} emotionCache={emotionCache}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </Providers>
    </StrictMode>,
    signal,
    nonce,
  );
  const head = emotion.constructStyleTagsFromChunks(emotion.extractCriticalToChunks(body));
  queryClient.clear();
  return { kind: 'page', status: context.statusCode, head, body, state };
}
