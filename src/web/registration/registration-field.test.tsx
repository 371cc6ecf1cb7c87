import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { onlineManager } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIELD_MESSAGES, findField, IDENTITY_TAKEN_MESSAGES, type FieldValue } from '../../shared/registration.fields.js';
import { jsonResponse, renderScreen } from '../../../tests/support/render-web.js';
import { savedAnswer, stubStudentSaves } from '../../../tests/support/student-saves.js';
import { RegistrationField } from './registration-field.js';

/**
 * One registration field on its own: the catalogue's rules shown before any save, the save on blur
 * with its indicator, and what the field shows when a save is refused or cannot leave the browser.
 * The save's POST /api/student is the only call; `fetch` answers it here.
 */

const STUDENT_ID = '20240007';

/** The bodies POSTed to /api/student, in order. */
let posts: unknown[];
/** How the fake server answers a save. */
let answer: (body: Record<string, unknown>) => Response;

beforeEach(() => {
  answer = savedAnswer;
  posts = stubStudentSaves((body) => answer(body));
});
afterEach(() => {
  vi.unstubAllGlobals();
  onlineManager.setOnline(true);
});

function renderField(name: string, value: FieldValue) {
  const field = findField(name);
  if (!field) throw new Error(`no field ${name}`);
  const rendered = renderScreen(<RegistrationField field={field} value={value} studentId={STUDENT_ID} readOnly={false} />);
  const own = within(rendered.container);
  const input = field.control === 'switch' ? own.getByRole('switch') : own.getByRole('textbox');
  const stateOf = () => rendered.container.querySelector('[data-save-state]')?.getAttribute('data-save-state');
  return { field, input: input as HTMLInputElement, stateOf };
}

/** Replaces the field's text and leaves it (Tab), as a person does. */
async function typeAndLeave(input: HTMLInputElement, text: string): Promise<void> {
  const user = userEvent.setup();
  await user.clear(input);
  if (text !== '') await user.type(input, text);
  await user.tab();
}

describe("a registration field's rules, before any save", () => {
  it.each([
    ['phone_home', '6221234', '62212', FIELD_MESSAGES.phoneLength],
    ['phone_home', '6221234', '471-36a4', FIELD_MESSAGES.onlyNumbers],
    ['email', 'parent@example.tt', 'not-an-email', FIELD_MESSAGES.email],
    ['first_name', 'Jaden', '', FIELD_MESSAGES.required],
  ])('%s (stored %j): typing %j shows %j under the field and sends nothing', async (name, stored, typed, message) => {
    const { input, stateOf } = renderField(name, stored);
    await typeAndLeave(input, typed);
    expect(screen.getByRole('alert').textContent).toBe(message);
    expect(input.value).toBe(typed);
    expect(posts).toEqual([]);
    expect(stateOf()).toBe('idle');
  });

  it('says a required field is empty only when it is left', async () => {
    const { input } = renderField('first_name', 'Jaden');
    const user = userEvent.setup();
    await user.clear(input);
    expect(screen.queryByRole('alert')).toBeNull();
    await user.tab();
    expect(screen.getByRole('alert').textContent).toBe(FIELD_MESSAGES.required);
  });

  it('shows a broken rule while typing, before the field is left', async () => {
    const { input } = renderField('phone_home', null);
    await userEvent.setup().type(input, '12a');
    expect(screen.getByRole('alert').textContent).toBe(FIELD_MESSAGES.onlyNumbers);
    expect(posts).toEqual([]);
  });
});

describe('saving a valid value', () => {
  it('a phone number typed as people write it is saved as its 7 digits, with the indicator going from saving to saved', async () => {
    const { input, stateOf } = renderField('phone_home', '6221234');
    // The hint and the fixed prefix, which is shown and never stored.
    expect(screen.getByText('7 digits')).toBeTruthy();
    expect(screen.getByText('(868)')).toBeTruthy();
    await typeAndLeave(input, '(868) 471-3675');
    await waitFor(() => expect(stateOf()).toBe('saving'));
    expect(screen.getByLabelText('Saving Home Phone', { exact: false })).toBeTruthy();
    await waitFor(() => expect(stateOf()).toBe('saved'), { timeout: 3000 });
    expect(posts).toEqual([{ id: STUDENT_ID, phone_home: '4713675' }]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('the same value again sends nothing', async () => {
    const { input } = renderField('email', 'parent@example.tt');
    await typeAndLeave(input, 'parent@example.tt');
    expect(posts).toEqual([]);
  });
});

describe('a save that does not go through', () => {
  const couldNotSave = 'Could not save: Something went wrong on our side. Please try again.';

  it('a text refused by the server shows the stored value again and says why in words', async () => {
    answer = () => jsonResponse(500, { message: 'Something went wrong on our side. Please try again.', code: 'internal' });
    const { input, stateOf } = renderField('middle_name', 'Anne');
    await typeAndLeave(input, 'Typed Name');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(couldNotSave));
    expect(input.value).toBe('Anne');
    await waitFor(() => expect(stateOf()).toBe('error'), { timeout: 3000 });
  });

  it('a switch refused by the server goes back to where it was', async () => {
    answer = () => jsonResponse(500, { message: 'Something went wrong on our side. Please try again.', code: 'internal' });
    const { input } = renderField('terms_and_conditions', 0);
    await userEvent.setup().click(input);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(couldNotSave));
    expect(input.checked).toBe(false);
  });

  it("the server's rule for the value keeps what was typed, with the server's message under the field", async () => {
    const taken = IDENTITY_TAKEN_MESSAGES.birth_certificate_no;
    answer = () => jsonResponse(409, { message: taken, code: 'conflict', errors: { birth_certificate_no: [taken] } });
    const { input, stateOf } = renderField('birth_certificate_no', 'A123456');
    await typeAndLeave(input, 'B654321');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(taken));
    expect(input.value).toBe('B654321');
    await waitFor(() => expect(stateOf()).toBe('error'), { timeout: 3000 });
  });

  it('offline: keeps the value, says so, and saves it when the connection is back', async () => {
    onlineManager.setOnline(false);
    const { input, stateOf } = renderField('middle_name', 'Anne');
    await typeAndLeave(input, 'Offline');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('You are offline. This will be saved when the connection is back.'));
    expect(input.value).toBe('Offline');
    expect(posts).toEqual([]);
    onlineManager.setOnline(true);
    await waitFor(() => expect(stateOf()).toBe('saved'), { timeout: 3000 });
    expect(posts).toEqual([{ id: STUDENT_ID, middle_name: 'Offline' }]);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('a field in its step', () => {
  it('each message sits in the field it belongs to', async () => {
    renderField('email', null);
    const { input } = renderField('phone_home', null);
    await typeAndLeave(input, '123');
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText(FIELD_MESSAGES.phoneLength)).toBeTruthy();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });
});
