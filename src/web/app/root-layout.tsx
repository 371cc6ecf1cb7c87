import { Outlet, ScrollRestoration } from 'react-router';
import { LoadingOverlay } from '../components/loading-overlay.js';

/** The root of every route: the page, the loading overlay and scroll restoration. */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <LoadingOverlay />
      <ScrollRestoration />
    </>
  );
}
