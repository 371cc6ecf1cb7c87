import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createQueryClient, Providers } from './providers.js';
import { RootLayout } from './root-layout.js';
import { MAIN_CONTENT_ID } from '../components/main-content.js';

/**
 * "Skip to main content" (docs/decisions.md D77): the root of every route puts it first, so it is
 * the first thing Tab reaches on every screen, hidden until focused, and it moves the focus to
 * the screen's main content, past the app bar. Every screen's `<main>` carries MAIN_CONTENT_ID,
 * the link's target (an accessibility checker refuses a skip link whose target is missing).
 */

function renderScreenWithBar() {
  const router = createMemoryRouter(
    [
      {
        Component: RootLayout,
        children: [
          {
            index: true,
            element: (
              <>
                <header>
                  <button type="button">Open menu</button>
                  <a href="/notices">Notices</a>
                </header>
                <main id={MAIN_CONTENT_ID}>
                  <h1>Dashboard</h1>
                  <button type="button">First action</button>
                </main>
              </>
            ),
          },
        ],
      },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <Providers queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
}

describe('the skip link', () => {
  it('is the first thing Tab reaches, shown only while it has the focus', async () => {
    renderScreenWithBar();
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(getComputedStyle(skip).position).toBe('absolute');
    await userEvent.setup().tab();
    expect(document.activeElement).toBe(skip);
    expect(getComputedStyle(skip).position).toBe('fixed');
  });

  it('moves the focus to the main content, so the next Tab is inside it', async () => {
    renderScreenWithBar();
    const user = userEvent.setup();
    await user.tab();
    await user.keyboard('{Enter}');
    const main = screen.getByRole('main');
    expect(document.activeElement).toBe(main);
    expect(main.getAttribute('tabindex')).toBe('-1');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'First action' }));
  });
});
