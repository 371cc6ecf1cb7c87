import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderScreen } from '../../../tests/support/render-web.js';
import { UnsubscribePage } from './unsubscribe-page.js';

/**
 * The page a mail's "stop these e-mails" link opens: a click turns the kind off (a scanner that
 * follows the link turns nothing off), it says what it did, and it always offers a way on to the
 * portal. POST /api/notices/unsubscribe is its only call; `fetch` answers it here.
 */

let calls: string[];
beforeEach(() => {
  calls = [];
  document.cookie = 'XSRF-TOKEN=token';
  vi.stubGlobal(
    'fetch',
    vi.fn((path: string, init: RequestInit = {}) => {
      calls.push(`${init.method ?? 'GET'} ${path}`);
      return Promise.resolve(jsonResponse(200, { kind: 'attendance-digest', label: 'the daily attendance e-mail', email: 'parent@example.tt' }));
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('the unsubscribe page', () => {
  it('asks first, says what it turned off, and offers the way to the portal before and after', async () => {
    renderScreen(<UnsubscribePage />, { path: '/notices/unsubscribe?token=abc' });
    expect(screen.getByRole('link', { name: /Go to the .* portal/ }).getAttribute('href')).toBe('/');
    expect(calls).toEqual([]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Turn off' }));
    expect((await screen.findByRole('status')).textContent).toContain('the daily attendance e-mail, for parent@example.tt');
    expect(screen.getByRole('link', { name: /Go to the .* portal/ }).getAttribute('href')).toBe('/');
  });
});
