import { useEffect } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { LoadingOverlay } from '../components/loading-overlay.js';
import { replayTypedBeforeHydration } from '../lib/typed-early.js';
import { SkipLink } from './skip-link.js';

/** The root of every route: the skip link (first on every screen), the page, the loading overlay and scroll restoration. */
export function RootLayout() {
  // The page works from here on (hydrated, or rendered in the browser): `<html data-hydrated>`.
  // A page rendered on the server shows its controls before its code arrives; the browser
  // tests wait for this before they use one that only works with the code (a select's menu).
  useEffect(() => {
    // What was typed before the code arrived is taken as typed, in a task of its own: each field's
    // input is then an event React handles as it would a keystroke.
    const timer = window.setTimeout(() => {
      replayTypedBeforeHydration(document);
      document.documentElement.dataset.hydrated = 'true';
    }, 0);
    return () => window.clearTimeout(timer);
  }, []);
  return (
    <>
      <SkipLink />
      <Outlet />
      <LoadingOverlay />
      <ScrollRestoration />
    </>
  );
}
