import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { answerFetch, renderScreen } from '../../../tests/support/render-web.js';
import BulkActions, { type BulkActionsProps } from './bulk-actions.js';

/**
 * The student list's bulk toolbar (docs/decisions.md D83): what it says is selected, what the role
 * may do, the phone's menu, and the change-class dialog, which counts the selection on the server
 * and sends that count back, so a list that changed meanwhile is refused and said so.
 */

const OFFICE = { changeClass: true, invite: true, paperDocuments: true, print: true };
const CLASSES = [{ id: '3A' }, { id: '3B' }];
const SUMMARY = { students: 12, former_left_out: 0, invitations: 20, without_parent_email: 2, recently_invited: 0 };

function renderToolbar(props: Partial<BulkActionsProps> = {}) {
  const all: BulkActionsProps = {
    selectedCount: 0,
    allMatching: false,
    found: 40,
    selection: null,
    onSelectAll: vi.fn(),
    onClear: vi.fn(),
    onDone: vi.fn(),
    classes: CLASSES,
    classId: '3A',
    may: OFFICE,
    narrow: false,
    ...props,
  };
  renderScreen(<BulkActions {...all} />);
  return all;
}

describe('the bulk toolbar', () => {
  it('says what is selected, offers the whole filtered list, and keeps the actions off until something is', async () => {
    const user = userEvent.setup();
    const props = renderToolbar();
    const toolbar = screen.getByRole('toolbar', { name: 'Bulk actions' });
    expect(within(toolbar).getByRole('status').textContent).toBe('Tick rows to act on them');
    expect(within(toolbar).getByRole('button', { name: 'Change class' })).toHaveProperty('disabled', true);
    expect(within(toolbar).getByRole('button', { name: 'Print class list' })).toHaveProperty('disabled', false);
    await user.click(within(toolbar).getByRole('button', { name: 'Select all 40 matching' }));
    expect(props.onSelectAll).toHaveBeenCalledOnce();
  });

  it('shows a form teacher only the printouts, with no ticking', () => {
    renderToolbar({ may: { changeClass: false, invite: false, paperDocuments: false, print: true } });
    const toolbar = screen.getByRole('toolbar', { name: 'Bulk actions' });
    expect(within(toolbar).getAllByRole('button').map((button) => button.textContent)).toEqual(['Print class list']);
    expect(within(toolbar).queryByRole('status')).toBeNull();
  });

  it('on a phone folds the actions into one menu and asks before moving, with the count the server gave', async () => {
    const user = userEvent.setup();
    const calls: string[] = [];
    const bodies = answerFetch(
      {
        '/api/students/bulk/summary': [200, SUMMARY],
        '/api/students/bulk/class': [409, { message: 'The selection now holds 13 students, not 12: the list changed. Check it and try again.', code: 'conflict' }],
      },
      calls,
    );
    const selection = { kind: 'filter' as const, filter: { class_id: '3A' } };
    renderToolbar({ narrow: true, allMatching: true, selectedCount: 12, selection });
    expect(screen.getByRole('status').textContent).toBe('All 40 matching selected');
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    const menu = screen.getByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Change class', 'Send invitations', 'Documents received', 'Print class list']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Change class' }));

    const dialog = await screen.findByRole('dialog', { name: 'Change class' });
    await within(dialog).findByText('12 students selected. Choose their new class.');
    expect(within(dialog).getByRole('button', { name: 'Move' })).toHaveProperty('disabled', true);
    await user.click(within(dialog).getByRole('combobox', { name: 'New class' }));
    await user.click(screen.getByRole('option', { name: '3B' }));
    expect(within(dialog).getByText('Move 12 students to 3B?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('The selection now holds 13 students');
    expect(bodies.get('POST /api/students/bulk/class')).toEqual({ selection, class_id: '3B', expected: 12 });
    await waitFor(() => expect(calls.filter((call) => call === 'POST /api/students/bulk/class')).toHaveLength(1));
  });
});
