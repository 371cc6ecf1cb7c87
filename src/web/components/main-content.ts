/**
 * The id of every screen's `<main>`: the skip link's target (docs/decisions.md D77). Each screen's
 * one `<main>` carries it, so "Skip to main content" always has somewhere to go.
 */
export const MAIN_CONTENT_ID = 'main-content';
