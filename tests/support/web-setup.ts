import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { mediaQueryList } from './media-query.js';

// Testing Library's `findBy…` and `waitFor` give up after 1 s by default, a speed bound: a review
// screen's decision took longer while the machine ran the other suites beside it. 15 s is a hang
// guard; a test that waits for something that never comes still fails.
configure({ asyncUtilTimeout: 15_000 });

// Testing Library unmounts after each test by itself only when Vitest's globals are on; they are not.
afterEach(() => {
  cleanup();
});

// jsdom has no matchMedia; MUI's useMediaQuery asks it. No query matches: the desktop layout.
if (!window.matchMedia) window.matchMedia = (query: string) => mediaQueryList(query, false);
