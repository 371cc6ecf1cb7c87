import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => undefined;

/**
 * False in the page the server renders and while the browser hydrates it, true once the page runs
 * (and from the start on a screen the browser renders itself): for what only the browser knows,
 * such as the screen's width or its PDF viewer, without a hydration mismatch.
 */
export function useInBrowser(): boolean {
  return useSyncExternalStore(subscribeToNothing, () => true, () => false);
}
