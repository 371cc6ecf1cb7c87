import { act, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StudentRecord } from '../../shared/registration.schemas.js';
import { renderScreen } from '../../../tests/support/render-web.js';
import { NO_PROGRESS, savedAnswer, stubStudentSaves } from '../../../tests/support/student-saves.js';
import { RegistrationContext } from '../lib/registration-context.js';
import { FieldProblemsContext, useFieldProblemsStore } from './field-problems.js';
import { RegistrationStepPage } from './registration-step-page.js';

/**
 * A family account with two children: the Student Data step of one child, then of the other, as
 * the frame shows it when "Whose record" changes. A value that could not reach the server belongs
 * to the child it was typed for: it is never sent as the other child's, and it comes back, unsent,
 * under the first child's field. POST /api/student is the only call; `fetch` answers it here.
 */

const JADEN = '20260001';
const MARCUS = '20240001';
const recordOf = (id: string, middleName: string) =>
  ({ id, first_name: id === JADEN ? 'Jaden' : 'Marcus', last_name: 'Ramdass', middle_name: middleName, progress: NO_PROGRESS, updated_at: '2026-01-01T00:00:00.000Z' }) as unknown as StudentRecord;
const RECORDS: Record<string, StudentRecord> = { [JADEN]: recordOf(JADEN, 'Kyle'), [MARCUS]: recordOf(MARCUS, 'Lee') };

/** The bodies POSTed to /api/student, in order. */
let posts: Record<string, unknown>[];
/** Whether the network answers: while false, a save fails as a dropped connection does. */
let reachable: boolean;

beforeEach(() => {
  reachable = false;
  posts = stubStudentSaves((body) => (reachable ? savedAnswer(body) : Promise.reject(new TypeError('Failed to fetch'))));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The frame around the step, reduced to what it gives the step: whose record, and one store of field problems. */
function TwoChildren() {
  const [studentId, setStudentId] = useState(JADEN);
  const problems = useFieldProblemsStore();
  return (
    <FieldProblemsContext.Provider value={problems}>
      <button type="button" onClick={() => setStudentId(studentId === JADEN ? MARCUS : JADEN)}>
        Switch child
      </button>
      <RegistrationContext.Provider value={{ studentId, record: RECORDS[studentId]!, status: undefined, editable: true, role: 'guardian', refreshRecord: () => undefined }}>
        <RegistrationStepPage step="student" title="Student Data" />
      </RegistrationContext.Provider>
    </FieldProblemsContext.Provider>
  );
}

const middleName = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Middle Name' });
const middleNameBox = () => middleName().closest('[data-field]') as HTMLElement;

describe('a value that could not be sent, when the family switches child', () => {
  it('is not sent as the other child’s, and is sent for its own child when that child is shown again', async () => {
    // The field's pause before trying again is a timer: the test moves the clock past it.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    renderScreen(<TwoChildren />);
    await user.clear(middleName());
    await user.type(middleName(), 'Alexander');
    await user.tab();
    await waitFor(() => expect(within(middleNameBox()).getByRole('alert').textContent).toBe('Could not reach the school portal. Trying again…'));
    expect(posts).toEqual([{ id: JADEN, middle_name: 'Alexander' }]);

    // Within the retry's pause, the parent opens the other child's record.
    await user.click(screen.getByRole('button', { name: 'Switch child' }));
    expect(middleName().value).toBe('Lee');
    expect(within(middleNameBox()).queryByRole('alert')).toBeNull();
    // Past the pause, nothing was sent for Marcus.
    reachable = true;
    await act(() => vi.advanceTimersByTimeAsync(6_000));
    expect(posts.filter((post) => post.id === MARCUS)).toEqual([]);

    // Back to Jaden: the value is there, said to be unsent, and is sent for Jaden.
    await user.click(screen.getByRole('button', { name: 'Switch child' }));
    expect(middleName().value).toBe('Alexander');
    await act(() => vi.advanceTimersByTimeAsync(6_000));
    await waitFor(() => expect(posts).toEqual([{ id: JADEN, middle_name: 'Alexander' }, { id: JADEN, middle_name: 'Alexander' }]));
    await waitFor(() => expect(within(middleNameBox()).queryByRole('alert')).toBeNull());
    expect(posts.filter((post) => post.id === MARCUS)).toEqual([]);
  }, 60_000);
});

describe('the end of a step', () => {
  it('offers the next step by name; the last data step leads to Documents', async () => {
    const { unmount } = renderScreen(<TwoChildren />);
    expect(screen.getByRole('link', { name: 'Next: Family Data' }).getAttribute('href')).toBe('/registration/family-data');
    unmount();
    renderScreen(
      <RegistrationContext.Provider value={{ studentId: JADEN, record: RECORDS[JADEN]!, status: undefined, editable: true, role: 'guardian', refreshRecord: () => undefined }}>
        <RegistrationStepPage step="other" title="Other Data" />
      </RegistrationContext.Provider>,
    );
    expect((await screen.findByRole('link', { name: 'Next: Documents' })).getAttribute('href')).toBe('/registration/documents');
  });
});
