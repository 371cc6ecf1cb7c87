import { fireEvent, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Enrolment } from '../../shared/enrolment.schemas.js';
import { answerFetch, createQueryClient, renderScreen } from '../../../tests/support/render-web.js';
import { ReadmitForm, WithdrawForm } from './enrolment-dialog.js';

/**
 * The Withdraw and Readmit forms (D80): the shared rules checked before anything is sent (the
 * school of a transfer, a date in the window the server gave), the body sent, a refusal's field
 * message on its field, and a readmission's classes limited to the form left and the next.
 */

const ON_ROLL: Enrolment = {
  student_id: '20230007',
  on_roll: true,
  class_id: '4B',
  left_on: null,
  left_class: null,
  events: [],
  window: { earliest: '2026-09-07', latest: '2026-11-27' },
};
const FORMER: Enrolment = { ...ON_ROLL, on_roll: false, class_id: null, left_on: '2026-11-20', left_class: '5A', window: { earliest: '2026-11-20', latest: '2026-11-27' } };
const CLASSES = ['1A', '4B', '5A', '5B', '6A'].map((id) => ({ id, form_level: Number(id[0]) }));

afterEach(() => vi.unstubAllGlobals());

function render(ui: React.ReactElement) {
  const queryClient = createQueryClient();
  queryClient.setQueryData(['admin', 'form-classes'], CLASSES);
  return renderScreen(ui, { queryClient });
}

describe('Withdraw', () => {
  it('asks for the school of a transfer and a date in the window before sending, then sends the withdrawal', async () => {
    const calls: string[] = [];
    const bodies = answerFetch({ '/api/enrolment/20230007/withdraw': [200, { message: 'Student 20230007 is withdrawn as of 27/11/2026.', enrolment: { ...ON_ROLL, on_roll: false } }] }, calls);
    const onDone = vi.fn();
    render(<WithdrawForm enrolment={ON_ROLL} onBack={() => undefined} onDone={onDone} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Reason' }));
    await user.click(await screen.findByRole('option', { name: 'Transferred to another school' }));
    fireEvent.change(screen.getByLabelText(/^Left on/), { target: { value: '2026-11-28' } });
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('Name the school the student moves to.')).toBeTruthy();
    expect(screen.getByText('Choose a date from 07/09/2026 to 27/11/2026.')).toBeTruthy();
    expect(calls).toEqual([]);

    fireEvent.change(screen.getByLabelText(/^Left on/), { target: { value: '2026-11-02' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'School moving to' }), { target: { value: 'Fatima College' } });
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    await vi.waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(bodies.get('POST /api/enrolment/20230007/withdraw')).toEqual({ date: '2026-11-02', reason: 'transferred', other_school: 'Fatima College' });
  });

  it('asks for a note when the reason is "other"', async () => {
    const calls: string[] = [];
    answerFetch({}, calls);
    render(<WithdrawForm enrolment={ON_ROLL} onBack={() => undefined} onDone={() => undefined} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Reason' }));
    await user.click(await screen.findByRole('option', { name: 'Other' }));
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('Write a note saying why.')).toBeTruthy();
    expect(calls).toEqual([]);
  });
});

describe('Readmit', () => {
  it('offers the classes of the form left and the next, and shows the server’s refusal on its field', async () => {
    answerFetch({ '/api/enrolment/20230007/readmit': [400, { message: 'The school has no class 6A.', code: 'validation_failed', errors: { class_id: ['The school has no class 6A.'] } }] });
    render(<ReadmitForm enrolment={FORMER} onBack={() => undefined} onDone={() => undefined} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Readmit' }));
    expect(await screen.findByText('Choose a class.')).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: 'Class' }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual(['Form 5 5A', 'Form 5 5B', 'Form 6 6A']);
    await user.click(screen.getByRole('option', { name: 'Form 6 6A' }));
    await user.click(screen.getByRole('button', { name: 'Readmit' }));
    expect(await screen.findAllByText('The school has no class 6A.')).not.toHaveLength(0);
  });
});
