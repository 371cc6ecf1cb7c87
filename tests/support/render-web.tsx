import type { ReactElement } from 'react';
import { vi } from 'vitest';
import { render, type RenderResult } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { createQueryClient, Providers } from '../../src/web/app/providers.js';

/** The app's own query client (its retry rules and error handling), for a test to fill before rendering. */
export { createQueryClient };

/** A JSON answer as the server sends it, for a component test's stand-in `fetch`. */
export const jsonResponse = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export interface RenderedScreen extends RenderResult {
  queryClient: QueryClient;
}

/**
 * Renders a piece of the web client as the app does (its query client, theme and snackbar) inside
 * a router at `path`. Data the screen reads can be put in `queryClient` before (`setQueryData`), so
 * only the calls the component itself makes need a fake fetch.
 */
export function renderScreen(ui: ReactElement, options: { path?: string; queryClient?: QueryClient } = {}): RenderedScreen {
  const queryClient = options.queryClient ?? createQueryClient();
  const result = render(
    <Providers queryClient={queryClient}>
      <MemoryRouter initialEntries={[options.path ?? '/']}>{ui}</MemoryRouter>
    </Providers>,
  );
  return { ...result, queryClient };
}

/**
 * A stand-in `fetch` for a form's own calls: the CSRF cookie answered with 204 (and the cookie set),
 * each path of `answers` with its status and JSON body, anything else refused. Each call is pushed
 * to `calls` as "METHOD path"; the JSON bodies sent are answered by "METHOD path".
 */
export function answerFetch(answers: Record<string, [status: number, body: unknown]>, calls: string[] = []): Map<string, unknown> {
  const bodies = new Map<string, unknown>();
  document.cookie = 'XSRF-TOKEN=token';
  vi.stubGlobal(
    'fetch',
    vi.fn((path: string, init: RequestInit = {}) => {
      const call = `${init.method ?? 'GET'} ${path}`;
      calls.push(call);
      if (typeof init.body === 'string') bodies.set(call, JSON.parse(init.body));
      if (path === '/sanctum/csrf-cookie') return Promise.resolve(new Response(null, { status: 204 }));
      const answer = answers[path];
      return answer ? Promise.resolve(jsonResponse(answer[0], answer[1])) : Promise.reject(new Error(`no answer for ${call}`));
    }),
  );
  return bodies;
}

/** A stand-in `fetch` answering every call with 200 and the same JSON body: a screen that only reads one thing. */
export function answerEveryCall(body: unknown): void {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(jsonResponse(200, body))),
  );
}
