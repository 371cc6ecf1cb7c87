import { act, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StudentRecord } from '../../shared/registration.schemas.js';
import { familySession } from '../../../tests/support/family-session.js';
import { createQueryClient, renderScreen } from '../../../tests/support/render-web.js';
import { NO_PROGRESS, savedAnswer, stubStudentSaves } from '../../../tests/support/student-saves.js';
import { accountKeyOf, discardDrafts } from '../lib/drafts.js';
import { RegistrationContext } from '../lib/registration-context.js';
import { sessionQueryKey } from '../lib/session.js';
import { DraftSender } from './draft-sender.js';
import { studentRecordKey, useStudentRecord } from './registration.api.js';
import { RegistrationStepPage } from './registration-step-page.js';

/**
 * A family account with two children: the Student Data step of one child, then of the other, as
 * the frame shows it when "Whose record" changes, with the frame's sender beside it. A value that
 * could not reach the server belongs to the child it was typed for (D72): it is never sent as the
 * other child's; it is sent for its own child while the other is shown (D73), and the first
 * child's record then holds it. POST /api/student is the only call; `fetch` answers it here.
 */

const JADEN = '20260001';
const MARCUS = '20240001';
const PARENT = familySession('family@example.com', [JADEN, MARCUS]);
const recordOf = (id: string, middleName: string) =>
  ({ id, first_name: id === JADEN ? 'Jaden' : 'Marcus', last_name: 'Ramdass', middle_name: middleName, progress: NO_PROGRESS, updated_at: '2026-01-01T00:00:00.000Z' }) as unknown as StudentRecord;

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
  discardDrafts(accountKeyOf(PARENT));
});

/** The frame around the step, reduced to what it gives the step: whose record (from the cache), and the sender. */
function TwoChildren() {
  const [studentId, setStudentId] = useState(JADEN);
  const record = useStudentRecord(studentId).data!;
  return (
    <>
      <DraftSender />
      <button type="button" onClick={() => setStudentId(studentId === JADEN ? MARCUS : JADEN)}>
        Switch child
      </button>
      <RegistrationContext.Provider value={{ studentId, record, status: undefined, editable: true, role: 'guardian', refreshRecord: () => undefined }}>
        <RegistrationStepPage step="student" title="Student Data" />
      </RegistrationContext.Provider>
    </>
  );
}

function renderTwoChildren() {
  const queryClient = createQueryClient();
  queryClient.setQueryData(sessionQueryKey, { user: PARENT });
  // Fresh for the whole test: the records are never asked for.
  queryClient.setQueryDefaults(['student-record'], { staleTime: Infinity });
  queryClient.setQueryData(studentRecordKey(JADEN), recordOf(JADEN, 'Kyle'));
  queryClient.setQueryData(studentRecordKey(MARCUS), recordOf(MARCUS, 'Lee'));
  return renderScreen(<TwoChildren />, { queryClient });
}

const middleName = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Middle Name' });
const middleNameBox = () => middleName().closest('[data-field]') as HTMLElement;
const unreachable = 'Not saved yet: the school portal could not be reached. It will be sent again shortly.';

describe('a value that could not be sent, when the family switches child', () => {
  it('is not sent as the other child’s, and is sent for its own child while the other is shown', async () => {
    // The sender's pause before trying again is a timer: the test moves the clock past it.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    renderTwoChildren();
    await user.clear(middleName());
    await user.type(middleName(), 'Alexander');
    await user.tab();
    await waitFor(() => expect(middleNameBox().querySelector('[data-waiting]')?.textContent).toBe(unreachable));
    // Said as connection trouble: the step is not "showing an error", and it says what waits.
    expect(screen.getByTestId('step-missing').textContent).not.toContain('shows an error');
    expect(screen.getByTestId('step-waiting').textContent).toContain('Not saved yet: Middle Name');
    expect(posts[0]).toEqual({ id: JADEN, middle_name: 'Alexander' });

    // Within the retry's pause, the parent opens the other child's record.
    await user.click(screen.getByRole('button', { name: 'Switch child' }));
    expect(middleName().value).toBe('Lee');
    expect(middleNameBox().querySelector('[data-waiting]')).toBeNull();
    expect(within(middleNameBox()).queryByRole('alert')).toBeNull();
    // The connection is back: Jaden's value is sent for Jaden while Marcus is shown; nothing for Marcus.
    reachable = true;
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    await waitFor(() => expect(posts.at(-1)).toEqual({ id: JADEN, middle_name: 'Alexander' }));
    expect(posts.filter((post) => post.id === MARCUS)).toEqual([]);
    expect(middleName().value).toBe('Lee');

    // Back to Jaden: the record holds the value, with nothing waiting.
    await user.click(screen.getByRole('button', { name: 'Switch child' }));
    expect(middleName().value).toBe('Alexander');
    expect(middleNameBox().querySelector('[data-waiting]')).toBeNull();
    expect(screen.queryByTestId('step-waiting')).toBeNull();
  }, 60_000);
});

describe('the end of a step', () => {
  it('offers the next step by name; the last data step leads to Documents', async () => {
    const { unmount } = renderTwoChildren();
    expect(screen.getByRole('link', { name: 'Next: Family Data' }).getAttribute('href')).toBe('/registration/family-data');
    unmount();
    renderScreen(
      <RegistrationContext.Provider value={{ studentId: JADEN, record: recordOf(JADEN, 'Kyle'), status: undefined, editable: true, role: 'guardian', refreshRecord: () => undefined }}>
        <RegistrationStepPage step="other" title="Other Data" />
      </RegistrationContext.Provider>,
    );
    expect((await screen.findByRole('link', { name: 'Next: Documents' })).getAttribute('href')).toBe('/registration/documents');
  });
});
