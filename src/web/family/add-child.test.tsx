import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerFetch, createQueryClient, renderScreen } from '../../../tests/support/render-web.js';
import { familyChildrenKey } from './family.api.js';
import { MyChildrenPage } from './my-children-page.js';

/**
 * "Add a child" on My children: the date of birth as its placeholder says, dd/MM/yyyy, sent as
 * yyyy-MM-dd (docs/decisions.md D77). POST /api/family/link is its only call; `fetch` answers it.
 */

afterEach(() => vi.unstubAllGlobals());

describe('"Add a child"', () => {
  it('"Add a child" asks for dd/MM/yyyy and sends it as yyyy-MM-dd', async () => {
    const bodies = answerFetch({ '/api/family/link': [400, { message: 'That code and date of birth do not match a child.', code: 'validation_failed' }] });
    const queryClient = createQueryClient();
    queryClient.setQueryData(familyChildrenKey, []);
    renderScreen(<MyChildrenPage />, { path: '/family/children', queryClient });
    const form = screen.getByRole('form', { name: 'Add a child' });
    const date = within(form).getByRole('textbox', { name: /Child's date of birth/ });
    expect(date.getAttribute('placeholder')).toBe('dd/MM/yyyy');
    const user = userEvent.setup();
    await user.type(within(form).getByRole('textbox', { name: /Family code/ }), 'ABCD-EFGH');
    await user.type(date, '09/03/2014');
    await user.click(within(form).getByRole('button', { name: 'Add child' }));
    expect((await within(form).findByRole('alert')).textContent).toContain('do not match a child');
    expect(bodies.get('POST /api/family/link')).toEqual({ code: 'ABCDEFGH', date_of_birth: '2014-03-09' });
  });
});
