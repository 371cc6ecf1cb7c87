import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerFetch, createQueryClient, renderScreen } from '../../../tests/support/render-web.js';
import type { AdminStudent } from '../../shared/students.schemas.js';
import { IDENTITY_TAKEN_MESSAGES } from '../../shared/registration.fields.js';
import { EditStudentDialog } from './edit-student-dialog.js';

/**
 * Edit Student's states (docs/decisions.md D82): nothing is sent until Save; Cancel and Escape
 * with unsaved changes ask "Discard changes?"; a class move is confirmed first; a double click
 * sends once; a refusal keeps the dialog open with the message under its field.
 * POST /api/student is the dialog's only call; `fetch` answers it.
 */

afterEach(() => vi.unstubAllGlobals());

const JANE: AdminStudent = {
  id: '20250004',
  first_name: 'Jane',
  last_name: 'Doe',
  middle_name: null,
  sex: 'Female',
  class_id: '3A',
  date_of_birth: '2012-04-05',
  birth_certificate_no: 'B12-0000004',
  updatedAt: '2026-11-01T10:00:00.000Z',
  registration: 'in_progress',
};

const SAVED = { id: JANE.id, saved: {}, progress: { studentData: 1, familyData: 0, healthData: 0, otherData: 0, documents: 0, submit: 0, termsAndConditions: 0 }, updated_at: '2026-11-28T10:00:00.000Z' };

function renderDialog(answer: [number, unknown] = [200, SAVED]) {
  const calls: string[] = [];
  const bodies = answerFetch({ '/api/student': answer }, calls);
  const queryClient = createQueryClient();
  queryClient.setQueryData(['admin', 'form-classes'], [
    { id: '3A', form_level: 3 },
    { id: '3B', form_level: 3 },
  ]);
  const onClose = vi.fn();
  renderScreen(<EditStudentDialog student={JANE} onClose={onClose} />, { queryClient });
  const dialog = screen.getByRole('dialog', { name: /Edit Student/ });
  const posts = () => calls.filter((call) => call.startsWith('POST /api/student'));
  return { dialog, onClose, posts, bodies, user: userEvent.setup() };
}

const field = (dialog: HTMLElement, name: string) => dialog.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;

async function chooseClass(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, label: string) {
  await user.click(within(dialog).getByRole('combobox', { name: /Class/ }));
  await user.click(await screen.findByRole('option', { name: new RegExp(label) }));
}

describe('Edit Student', () => {
  it('closes on Cancel at once when nothing changed', async () => {
    const { dialog, onClose, user, posts } = renderDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog', { name: 'Discard changes?' })).toBeNull();
    expect(posts()).toEqual([]);
  });

  it('asks "Discard changes?" on Cancel and on Escape with unsaved changes, and sends nothing', async () => {
    const { dialog, onClose, user, posts } = renderDialog();
    await user.clear(field(dialog, 'first_name'));
    await user.type(field(dialog, 'first_name'), 'Janet');
    await user.tab();
    expect(posts()).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const ask = await screen.findByRole('dialog', { name: 'Discard changes?' });
    await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Discard changes?' })).toBeNull());
    expect(field(dialog, 'first_name').value).toBe('Janet');
    expect(onClose).not.toHaveBeenCalled();

    await user.keyboard('{Escape}');
    const again = await screen.findByRole('dialog', { name: 'Discard changes?' });
    await user.click(within(again).getByRole('button', { name: 'Discard' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(posts()).toEqual([]);
  });

  it('confirms a class move before Save sends every change in one request', async () => {
    const { dialog, onClose, user, posts, bodies } = renderDialog();
    await user.clear(field(dialog, 'last_name'));
    await user.type(field(dialog, 'last_name'), 'Roe');
    await chooseClass(user, dialog, '3B');
    expect(posts()).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const confirm = await screen.findByRole('dialog', { name: 'Move to another class?' });
    expect(confirm.textContent).toContain('Move Jane Roe from 3A to 3B?');
    expect(posts()).toEqual([]);
    // Cancelling the move sends nothing and keeps the edit.
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Move to another class?' })).toBeNull());
    expect(posts()).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Move to another class?' })).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(posts()).toEqual(['POST /api/student']);
    expect(bodies.get('POST /api/student')).toEqual({ id: JANE.id, last_name: 'Roe', class_id: '3B' });
  });

  it('sends once for a double click on Save', async () => {
    const { dialog, onClose, user, posts } = renderDialog();
    await user.type(field(dialog, 'first_name'), 'n');
    await user.dblClick(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts()).toEqual(['POST /api/student']);
  });

  it("checks the shared rules before sending: an empty name says Required and nothing goes", async () => {
    const { dialog, onClose, user, posts } = renderDialog();
    await user.clear(field(dialog, 'first_name'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Required')).toBeTruthy();
    expect(posts()).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it("keeps the dialog open on a 409 with the server's message under the pin", async () => {
    const message = IDENTITY_TAKEN_MESSAGES.birth_certificate_no;
    const { dialog, onClose, user, posts } = renderDialog([409, { message, code: 'conflict', errors: { birth_certificate_no: [message] } }]);
    await user.clear(field(dialog, 'birth_certificate_no'));
    await user.type(field(dialog, 'birth_certificate_no'), 'B12-0000001');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Error Occured.');
    expect(field(dialog, 'birth_certificate_no').getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getAllByText(message).length).toBeGreaterThan(0);
    expect(posts()).toEqual(['POST /api/student']);
    expect(onClose).not.toHaveBeenCalled();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toHaveProperty('disabled', false);
  });
});
