import type { DehydratedState } from '@tanstack/react-query';
import type { HydrationState } from 'react-router';

/**
 * What a server-rendered page carries for the browser to hydrate it with: React Router's loader
 * data and the query cache's answers (TanStack Query's `dehydrate`). It travels as JSON in a
 * script tag the browser never runs (`type="application/json"`), so the page needs no inline
 * script under the CSP (docs/security.md).
 */
export interface PageState {
  router: HydrationState;
  queries: DehydratedState;
}

/** The id of the script tag that holds the page's state. */
export const PAGE_STATE_ID = 'page-state';

/**
 * The state as the text of a script tag: JSON with every `<` written `\u003c`, so no value (a
 * name a parent typed, say) can close the tag (`</script>`) or open a comment in it.
 */
export function pageStateScript(state: PageState): string {
  const json = JSON.stringify(state).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${PAGE_STATE_ID}">${json}</script>`;
}

/** The state a server-rendered page carries, or null for the app shell (the page renders in the browser). */
export function readPageState(text: string | null): PageState | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as PageState;
  } catch {
    return null;
  }
}
