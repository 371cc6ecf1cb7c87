import { useEffect } from 'react';

/**
 * Work on this page the server has not confirmed yet (text typed but not yet left, a save in
 * flight, a draft waiting to be sent): while any is held, closing or reloading the tab asks first
 * (`beforeunload`, D73). Any screen holds it with `useUnsentWork(true)` while it has such work.
 */

const held = new Set<symbol>();

function askFirst(event: BeforeUnloadEvent): void {
  // Browsers show their own wording; both calls are what they need to ask.
  event.preventDefault();
  event.returnValue = '';
}

function listen(): void {
  if (held.size > 0) window.addEventListener('beforeunload', askFirst);
  else window.removeEventListener('beforeunload', askFirst);
}

/** Whether this page holds work the server has not confirmed. */
export function hasUnsentWork(): boolean {
  return held.size > 0;
}

/** Holds unsent work until the returned function is called. */
export function holdUnsentWork(): () => void {
  const token = Symbol('unsent work');
  held.add(token);
  listen();
  return () => {
    held.delete(token);
    listen();
  };
}

/** Holds unsent work while `active` (and the component is mounted). */
export function useUnsentWork(active: boolean): void {
  useEffect(() => (active ? holdUnsentWork() : undefined), [active]);
}
