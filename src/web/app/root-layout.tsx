import { Outlet, ScrollRestoration } from 'react-router';
import { LoadingOverlay } from '../components/loading-overlay.js';
import { SkipLink } from './skip-link.js';

/** The root of every route: the skip link (first on every screen), the page, the loading overlay and scroll restoration. */
export function RootLayout() {
  return (
    <>
      <SkipLink />
      <Outlet />
      <LoadingOverlay />
      <ScrollRestoration />
    </>
  );
}
