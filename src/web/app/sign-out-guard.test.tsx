import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../tests/support/render-web.js';
import { holdUnsentWork } from '../lib/unsent-work.js';
import { Providers } from './providers.js';
import { SignOutGuard } from './sign-out-guard.js';

/**
 * Signing out removes the account's drafts from the device (D73): with work unsent, the
 * sign-out link asks first; Cancel stays, the confirming button signs out; with nothing unsent
 * it goes straight on. Nothing is called: the guard only stands between two screens.
 */

let release: (() => void) | undefined;
afterEach(() => {
  release?.();
  release = undefined;
});

function renderWithSignOut() {
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <>
          <SignOutGuard />
          <Link to="/logout">Sign out</Link>
        </>
      ),
    },
    { path: '/logout', element: <p>Signing out…</p> },
  ]);
  render(
    <Providers queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}

describe('signing out with work unsent', () => {
  it('asks first: Cancel stays signed in, the confirming button signs out', async () => {
    release = holdUnsentWork();
    const router = renderWithSignOut();
    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'Sign out' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out before your changes are saved?' });
    expect(dialog.textContent).toContain('Signing out removes them from this device.');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(router.state.location.pathname).toBe('/');

    await user.click(screen.getByRole('link', { name: 'Sign out' }));
    await user.click(await screen.findByRole('button', { name: 'Sign out and remove them' }));
    await screen.findByText('Signing out…');
    expect(router.state.location.pathname).toBe('/logout');
  });

  it('with nothing unsent, signs out without asking', async () => {
    const router = renderWithSignOut();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Sign out' }));
    await screen.findByText('Signing out…');
    expect(router.state.location.pathname).toBe('/logout');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
