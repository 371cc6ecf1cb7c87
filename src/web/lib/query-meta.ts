/**
 * The `meta` of a query or mutation whose progress the screen shows in place (a field's save
 * indicator, a dialog's progress bar, the session check): the page's loading overlay
 * (components/loading-overlay.tsx) does not cover the page for it.
 */
export const BACKGROUND_QUERY = { background: true } as const;
