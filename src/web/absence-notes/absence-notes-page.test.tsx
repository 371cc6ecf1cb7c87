import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionAnswer } from '../../shared/auth.schemas.js';
import { ABSENCE_NOTE_MESSAGES, type AbsenceNoteList } from '../../shared/absence-notes.schemas.js';
import { answerFetch, createQueryClient, renderScreen } from '../../../tests/support/render-web.js';
import { familySession } from '../../../tests/support/family-session.js';
import { absenceNote } from '../../../tests/support/absence-note.js';
import { sessionQueryKey } from '../lib/session.js';
import { AbsenceNotesPage } from './absence-notes-page.js';

/**
 * A family's absence notes (docs/decisions.md D93): the form opens on the digest link's day, the
 * server's refusal appears under the fields it names, a double click sends one note, and the form is
 * not shown when the answer's `can_send` is false (the list still is). The session is in the query
 * cache; the page's own calls meet a stand-in fetch.
 */

const STUDENT = '20220001';
const LIST_PATH = `/api/absence-notes?student_id=${STUDENT}`;

const note = absenceNote({
  state: 'declined',
  decision: { reason: 'evidence_needed', text: "A doctor's note or other evidence is needed", decided_by: 'Mrs. J. Francis', decided_at: '2026-11-25T10:00:00Z' },
});

function renderPage(list: AbsenceNoteList, post: [number, unknown] = [201, { message: ABSENCE_NOTE_MESSAGES.sent, note: { ...note, state: 'waiting', decision: null } }]) {
  const calls: string[] = [];
  answerFetch({ [LIST_PATH]: [200, list], '/api/absence-notes': post }, calls);
  const queryClient = createQueryClient();
  queryClient.setQueryData<SessionAnswer>(sessionQueryKey, { user: familySession('family@example.com', [STUDENT]) });
  renderScreen(<AbsenceNotesPage />, { path: `/absence-notes?student=${STUDENT}&date=2026-11-24`, queryClient });
  return calls;
}

async function chooseReason(label: string) {
  fireEvent.mouseDown(await screen.findByRole('combobox', { name: /Reason/ }));
  fireEvent.click(await screen.findByRole('option', { name: label }));
}

/** The helper text a field is described by. */
function descriptionOf(element: HTMLElement): string {
  const ids = (element.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the family absence note form', () => {
  it("opens on the link's day, and the server's 400 shows each message on its own field", async () => {
    const calls = renderPage({ can_send: true, notes: [] }, [
      400,
      { message: 'Check the note.', code: 'validation_failed', errors: { date_to: [ABSENCE_NOTE_MESSAGES.tooManyDays], text: [ABSENCE_NOTE_MESSAGES.describeOther] } },
    ]);
    await screen.findByRole('heading', { name: 'Explain an absence' });
    expect(document.querySelector<HTMLInputElement>('input[name="date_from"]')?.value).toBe('2026-11-24');
    await chooseReason('Illness');
    fireEvent.click(screen.getByRole('button', { name: 'Send to the school' }));

    const dateToMessage = await screen.findByText(ABSENCE_NOTE_MESSAGES.tooManyDays);
    expect(dateToMessage.closest('.MuiFormControl-root, .MuiPickersTextField-root')?.textContent).toContain('Last day');
    expect(descriptionOf(screen.getByRole('textbox', { name: /More about it/ }))).toBe(ABSENCE_NOTE_MESSAGES.describeOther);
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).not.toContain('Check the note.');
    expect(calls.filter((call) => call.startsWith('POST /api/absence-notes'))).toHaveLength(1);
  });

  it('a double click sends one note', async () => {
    const calls = renderPage({ can_send: true, notes: [] });
    await screen.findByRole('heading', { name: 'Explain an absence' });
    await chooseReason('Medical or dental appointment');
    const send = screen.getByRole('button', { name: 'Send to the school' });
    fireEvent.click(send);
    fireEvent.click(send);
    await screen.findByText(ABSENCE_NOTE_MESSAGES.sent);
    expect(calls.filter((call) => call === 'POST /api/absence-notes')).toHaveLength(1);
  });

  it('checks with the shared rules before sending: Other needs words', async () => {
    const calls = renderPage({ can_send: true, notes: [] });
    await screen.findByRole('heading', { name: 'Explain an absence' });
    await chooseReason('Other');
    fireEvent.click(screen.getByRole('button', { name: 'Send to the school' }));
    await waitFor(() => expect(descriptionOf(screen.getByRole('textbox', { name: /Why/ }))).toBe(ABSENCE_NOTE_MESSAGES.describeOther));
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('hides the form when can_send is false, and still lists the notes with the school answer', async () => {
    renderPage({ can_send: false, notes: [note] });
    const item = await screen.findByTestId('absence-note');
    expect(item.textContent).toContain('2026-11-23 to 2026-11-24');
    expect(within(item).getByText('Declined')).toBeTruthy();
    expect(item.textContent).toContain("The school's answer: A doctor's note or other evidence is needed");
    expect(screen.queryByRole('heading', { name: 'Explain an absence' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull();
  });
});
