import type { ReactElement } from 'react';
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
