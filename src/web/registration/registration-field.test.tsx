import { act, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { onlineManager } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIELD_MESSAGES, findField, IDENTITY_TAKEN_MESSAGES, type FieldValue } from '../../shared/registration.fields.js';
import { familySession } from '../../../tests/support/family-session.js';
import { createQueryClient, jsonResponse, renderScreen } from '../../../tests/support/render-web.js';
import { savedAnswer, stubStudentSaves } from '../../../tests/support/student-saves.js';
import { accountKeyOf, discardDrafts, draftsOf } from '../lib/drafts.js';
import { sessionQueryKey } from '../lib/session.js';
import { hasUnsentWork } from '../lib/unsent-work.js';
import { DraftSender } from './draft-sender.js';
import { RegistrationField } from './registration-field.js';
import { SAVE_TIMEOUT_MS } from './registration.api.js';

/**
 * One registration field of a signed-in parent: the catalogue's rules shown before any save, the
 * save on blur with its indicator, and what the field shows when a save is refused or cannot
 * leave the browser (D73: the value stays, kept on the device, and the trouble is said as such).
 * The frame's sender runs beside it, as in the signed-in frame. The save's POST /api/student is the
 * only call; `fetch` answers it here.
 */

const STUDENT_ID = '20240007';
const PARENT = familySession('parent@example.tt', [STUDENT_ID]);
const ACCOUNT = accountKeyOf(PARENT);
/** The draft of a field kept on the device for the student, if any. */
const keptDraft = (name: string) => draftsOf(ACCOUNT)[STUDENT_ID]?.[name];

/** The bodies POSTed to /api/student, in order. */
let posts: unknown[];
/** How the fake server answers a save. */
let answer: (body: Record<string, unknown>) => Response;

beforeEach(() => {
  answer = savedAnswer;
  posts = stubStudentSaves((body) => answer(body));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  onlineManager.setOnline(true);
  discardDrafts(ACCOUNT);
});

function renderField(name: string, value: FieldValue) {
  const field = findField(name);
  if (!field) throw new Error(`no field ${name}`);
  const queryClient = createQueryClient();
  queryClient.setQueryData(sessionQueryKey, { user: PARENT });
  const rendered = renderScreen(
    <>
      <RegistrationField field={field} value={value} studentId={STUDENT_ID} readOnly={false} />
      <DraftSender />
    </>,
    { queryClient },
  );
  const own = within(rendered.container);
  const input = field.control === 'switch' ? own.getByRole('switch') : own.getByRole('textbox');
  const stateOf = () => rendered.container.querySelector('[data-save-state]')?.getAttribute('data-save-state');
  return { field, input: input as HTMLInputElement, stateOf, rendered, queryClient };
}

/** Replaces the field's text and leaves it (Tab), as a person does. */
async function typeAndLeave(input: HTMLInputElement, text: string, user = userEvent.setup()): Promise<void> {
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

// Typing and the moved clocks take a few seconds on a busy machine: the time limit is generous, nothing waits on it.
describe('a save that does not go through', { timeout: 30_000 }, () => {
  const serverTrouble = 'Not saved yet: the school portal had a problem. It will be sent again shortly.';

  it('a 502 keeps the typed text, says it is not saved yet (not an error), and the sender sends it later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    let failing = true;
    answer = (body) => (failing ? new Response('<h1>502 Bad Gateway</h1>', { status: 502, statusText: 'Bad Gateway' }) : savedAnswer(body));
    const { input, stateOf } = renderField('medical_history', 'None');
    await typeAndLeave(input, 'Allergic to penicillin', user);
    await waitFor(() => expect(document.querySelector('[data-waiting]')?.textContent).toBe(serverTrouble));
    expect(input.value).toBe('Allergic to penicillin');
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(stateOf()).toBe('waiting'));
    // Kept on the device, waiting, and the tab asks before closing.
    expect(keptDraft('medical_history')).toMatchObject({ draft: 'Allergic to penicillin', pending: true, message: serverTrouble });
    expect(hasUnsentWork()).toBe(true);

    failing = false;
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    await waitFor(() => expect(stateOf()).toBe('saved'));
    expect(posts.at(-1)).toEqual({ id: STUDENT_ID, medical_history: 'Allergic to penicillin' });
    expect(input.value).toBe('Allergic to penicillin');
    expect(document.querySelector('[data-waiting]')).toBeNull();
    expect(keptDraft('medical_history')).toBeUndefined();
    expect(hasUnsentWork()).toBe(false);
  });

  it('a switch the server cannot take stays where it was put', async () => {
    answer = () => jsonResponse(503, { message: 'The database is not reachable.', code: 'service_unavailable' });
    const { input } = renderField('terms_and_conditions', 0);
    await userEvent.setup().click(input);
    await waitFor(() => expect(keptDraft('terms_and_conditions')?.message).toBe(serverTrouble));
    expect(input.checked).toBe(true);
  });

  it('a save with no answer is given up after its time and said to be connection trouble', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>(() => undefined)));
    const { input, stateOf } = renderField('nationality', 'Trinidadian');
    await typeAndLeave(input, 'Grenadian', user);
    expect(stateOf()).toBe('saving');
    await act(() => vi.advanceTimersByTimeAsync(SAVE_TIMEOUT_MS));
    await waitFor(() => expect(document.querySelector('[data-waiting]')?.textContent).toBe('Not saved yet: the school portal did not answer. It will be sent again shortly.'));
    expect(input.value).toBe('Grenadian');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("the server's rule for the value keeps what was typed, with the server's message under the field, and is not sent again until changed", async () => {
    const taken = IDENTITY_TAKEN_MESSAGES.birth_certificate_no;
    answer = () => jsonResponse(409, { message: taken, code: 'conflict', errors: { birth_certificate_no: [taken] } });
    const { input, stateOf } = renderField('birth_certificate_no', 'A123456');
    await typeAndLeave(input, 'B654321');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(taken));
    expect(input.value).toBe('B654321');
    await waitFor(() => expect(stateOf()).toBe('error'), { timeout: 3000 });
    expect(keptDraft('birth_certificate_no')).toMatchObject({ draft: 'B654321', pending: false, message: taken });
    // Left again unchanged: nothing sent.
    await userEvent.setup().click(input);
    await userEvent.setup().tab();
    expect(posts).toHaveLength(1);
  });

  it('a refusal for another reason keeps the text and says why', async () => {
    answer = () => jsonResponse(422, { message: 'Registration is closed.', code: 'registration_closed' });
    const { input, stateOf } = renderField('middle_name', 'Anne');
    await typeAndLeave(input, 'Typed Name');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Not saved: Registration is closed.'));
    expect(input.value).toBe('Typed Name');
    await waitFor(() => expect(stateOf()).toBe('error'), { timeout: 3000 });
  });

  it('an ended session keeps the value waiting and says to sign in again', async () => {
    answer = () => jsonResponse(401, { message: 'Please sign in again.', code: 'unauthenticated' });
    const { input } = renderField('middle_name', 'Anne');
    await typeAndLeave(input, 'After Lunch');
    await waitFor(() => expect(document.querySelector('[data-waiting]')?.textContent).toBe('Not saved yet: your sign-in has ended. It will be sent when you sign in again.'));
    expect(input.value).toBe('After Lunch');
    expect(keptDraft('middle_name')).toMatchObject({ draft: 'After Lunch', pending: true });
  });

  it('offline: keeps the value, says so, sends nothing, and the sender saves it when the connection is back', async () => {
    onlineManager.setOnline(false);
    const { input, stateOf } = renderField('middle_name', 'Anne');
    await typeAndLeave(input, 'Offline');
    await waitFor(() => expect(document.querySelector('[data-waiting]')?.textContent).toBe('Not saved yet: no connection. It will be sent when the connection is back.'));
    expect(input.value).toBe('Offline');
    expect(posts).toEqual([]);
    onlineManager.setOnline(true);
    await waitFor(() => expect(stateOf()).toBe('saved'), { timeout: 3000 });
    expect(posts).toEqual([{ id: STUDENT_ID, middle_name: 'Offline' }]);
    expect(document.querySelector('[data-waiting]')).toBeNull();
  });

  it('a value kept on the device comes back in the field when it is shown again (a reload, a closed tab)', async () => {
    onlineManager.setOnline(false);
    const first = renderField('middle_name', 'Anne');
    await typeAndLeave(first.input, 'Kept');
    await waitFor(() => expect(keptDraft('middle_name')?.pending).toBe(true));
    first.rendered.unmount();
    const again = renderField('middle_name', 'Anne');
    expect(again.input.value).toBe('Kept');
    expect(document.querySelector('[data-waiting]')?.textContent).toBe('Not saved yet: no connection. It will be sent when the connection is back.');
    expect(again.stateOf()).toBe('waiting');
  });

  it('text typed but not yet left makes closing the tab ask first', async () => {
    const { input } = renderField('middle_name', 'Anne');
    const user = userEvent.setup();
    await user.type(input, 'x');
    expect(hasUnsentWork()).toBe(true);
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    await user.tab();
    await waitFor(() => expect(hasUnsentWork()).toBe(false));
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
