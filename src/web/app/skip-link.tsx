import { useState, type MouseEvent } from 'react';
import Link from '@mui/material/Link';
import { MAIN_CONTENT_ID } from '../components/main-content.js';

/** Out of sight but read and focusable (the usual visually-hidden pattern). */
const HIDDEN = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap', margin: '-1px', padding: 0, border: 0 } as const;

/**
 * "Skip to main content" (WCAG 2.4.1, docs/decisions.md D77): the first thing the Tab key reaches
 * on every screen, hidden until it has the focus (then shown over the top left corner). It moves
 * the focus to the screen's `<main>` (every screen has one, with MAIN_CONTENT_ID), so a keyboard or screen reader user
 * skips the app bar and its menus.
 */
export function SkipLink() {
  // The focus is followed in state rather than by a :focus rule, so what shows is the component's own.
  const [focused, setFocused] = useState(false);
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    event.preventDefault();
    // A landmark is not focusable by itself: -1 lets a script focus it without adding a Tab stop.
    if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
    main.focus();
    main.scrollIntoView?.();
  };
  return (
    <Link
      href={`#${MAIN_CONTENT_ID}`}
      onClick={skip}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      sx={
        focused
          ? {
              position: 'fixed',
              top: 8,
              left: 8,
              zIndex: (theme) => theme.zIndex.tooltip + 1,
              bgcolor: 'background.paper',
              color: 'primary.main',
              px: 2,
              py: 1,
              borderRadius: 1,
              boxShadow: 3,
              fontWeight: 600,
            }
          : HIDDEN
      }
    >
      Skip to main content
    </Link>
  );
}
