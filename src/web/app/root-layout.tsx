import { useEffect } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { LoadingOverlay } from '../components/loading-overlay.js';
import { SkipLink } from './skip-link.js';

/** The root of every route: the skip link (first on every screen), the page, the loading overlay and scroll restoration. */
export function RootLayout() {
  // The page works from here on (hydrated, or rendered in the browser): `<html data-hydrated>`.
  // A page rendered on the server shows its controls before its code arrives; the browser
  // tests wait for this before they use one that only works with the code (a select's menu).
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
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
