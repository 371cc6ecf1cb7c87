import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ABSENCE_NOTE_MESSAGES, type AbsenceNote, type AbsenceNoteDetail } from '../../shared/absence-notes.schemas.js';
import { answerFetch, renderScreen } from '../../../tests/support/render-web.js';
import { absenceNote } from '../../../tests/support/absence-note.js';
import { AbsenceNoteDialog } from './absence-notes-queue.js';

/**
 * The queue's decision dialog (docs/decisions.md D93): the note with its attachment and the
 * child's attendance on its days; Decline asks for a reason before sending; a decision is sent
 * once for a double click, with the shared schema's fields; a note no longer waiting shows its
 * answer and no decision.
 */

const note = absenceNote({ attachment: { url: '/api/absence-notes/12/attachment', file_name: 'doctor.jpg', mime: 'image/jpeg', size: 20_000 } });

const detail = (overrides: Partial<AbsenceNote> = {}): AbsenceNoteDetail => ({
  note: { ...note, ...overrides },
  student: { id: '20220001', first_name: 'Aaliyah', last_name: 'Mohammed', class_id: '5A' },
  days: [
    { date: '2026-11-23', status: 'absent', time_in: null, excused: { am: false, pm: false, late: false } },
    { date: '2026-11-24', status: 'late', time_in: '08:40', excused: { am: false, pm: false, late: false } },
  ],
});

const decided = { ...note, state: 'accepted' as const, decision: { reason: 'evidence_seen' as const, text: "A doctor's note or other evidence was seen", decided_by: 'Mrs. J. Francis', decided_at: '2026-11-25T09:00:00Z' } };

function renderDialog(answer: AbsenceNoteDetail) {
  const calls: string[] = [];
  const onClose = vi.fn();
  const bodies = answerFetch(
    {
      '/api/absence-notes/12': [200, answer],
      '/api/absence-notes/12/decision': [200, { message: ABSENCE_NOTE_MESSAGES.accepted, note: decided }],
    },
    calls,
  );
  renderScreen(<AbsenceNoteDialog noteId={12} onClose={onClose} />);
  return { calls, bodies, onClose };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the absence note decision dialog', () => {
  it("shows the attachment and the child's attendance on the note's days", async () => {
    renderDialog(detail());
    const dialog = await screen.findByRole('dialog', { name: 'Mohammed, Aaliyah · 5A' });
    expect(within(dialog).getByRole('link', { name: /Open the attachment \(doctor\.jpg\)/ }).getAttribute('href')).toBe('/api/absence-notes/12/attachment');
    const days = within(dialog).getByRole('table', { name: 'Attendance on these days' });
    expect(days.textContent).toContain('2026-11-23absent (no arrival recorded at the gate)');
    expect(days.textContent).toContain('late (arrived 08:40)');
  });

  it('Decline needs a reason before anything is sent, then sends the shared schema fields', async () => {
    const { calls, bodies } = renderDialog(detail());
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(await within(dialog).findByRole('radio', { name: 'Decline' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Decline note' }));
    await within(dialog).findByText('Choose a reason.');
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);

    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /Reason/ }));
    fireEvent.click(await screen.findByRole('option', { name: "A doctor's note or other evidence is needed" }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Words for the family/ }), { target: { value: 'Please bring it on Monday.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Decline note' }));
    await waitFor(() =>
      expect(bodies.get('POST /api/absence-notes/12/decision')).toEqual({ decision: 'decline', reason: 'evidence_needed', details: 'Please bring it on Monday.' }),
    );
  });

  it('a double click on Accept sends one decision and closes', async () => {
    const { calls, bodies, onClose } = renderDialog(detail());
    const dialog = await screen.findByRole('dialog');
    const accept = await within(dialog).findByRole('button', { name: 'Accept note' });
    fireEvent.click(accept);
    fireEvent.click(accept);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.filter((call) => call === 'POST /api/absence-notes/12/decision')).toHaveLength(1);
    expect(bodies.get('POST /api/absence-notes/12/decision')).toEqual({ decision: 'accept' });
    expect(await screen.findByText(ABSENCE_NOTE_MESSAGES.accepted)).toBeTruthy();
  });

  it('a note already decided shows the answer and offers no decision', async () => {
    renderDialog(detail({ state: 'accepted', decision: decided.decision }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText(/Accepted by Mrs\. J\. Francis on 2026-11-25/);
    expect(within(dialog).queryByRole('button', { name: /Accept note|Decline note/ })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeTruthy();
  });
});
