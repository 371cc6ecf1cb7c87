import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DECLARATION_MESSAGES, type StudentRecord } from '../../shared/registration.schemas.js';
import { TERMS_DECLARATION } from '../../shared/terms.js';
import { renderScreen } from '../../../tests/support/render-web.js';
import { savedAnswer, stubStudentSaves } from '../../../tests/support/student-saves.js';
import { Declaration } from './declaration.js';

/**
 * The parent's declaration on the Complete step (D75): a student sees who agreed or who must, and
 * has nothing to tick; a family account ticks it; what is shown comes from the record's agreement.
 */

const STUDENT_ID = '20260001';
let posts: Record<string, unknown>[];

beforeEach(() => {
  posts = stubStudentSaves(savedAnswer);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function recordOf(values: Partial<StudentRecord>): StudentRecord {
  return { id: STUDENT_ID, agree_terms_conditions: 0, agree_terms_date: null, agreement: null, family_linked: false, ...values } as StudentRecord;
}

const AGREE = 'I Agree to the Terms and Conditions';

describe("a student's view of the declaration", () => {
  it('with a linked family account: the parent agrees here when they sign in; nothing to tick', () => {
    renderScreen(<Declaration studentId={STUDENT_ID} record={recordOf({ family_linked: true })} role="student" editable />);
    expect(screen.getByText(TERMS_DECLARATION)).toBeTruthy();
    expect(screen.getByTestId('agreed-on').textContent).toBe(`Not agreed yet. ${DECLARATION_MESSAGES.studentWithFamily}`);
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('switch')).toBeNull();
    expect(posts).toEqual([]);
  });

  it('without one: the parent signs the printed form', () => {
    renderScreen(<Declaration studentId={STUDENT_ID} record={recordOf({})} role="student" editable />);
    expect(screen.getByTestId('agreed-on').textContent).toBe(`Not agreed yet. ${DECLARATION_MESSAGES.studentWithoutFamily}`);
    expect(screen.queryByRole('switch')).toBeNull();
  });

  it('once agreed: who agreed and on which day', () => {
    const record = recordOf({ agree_terms_conditions: 1, agree_terms_date: '2026-11-20', family_linked: true, agreement: { name: 'Asha Ramdass', kind: 'guardian', at: '2026-11-20T14:00:00.000Z' } });
    renderScreen(<Declaration studentId={STUDENT_ID} record={record} role="student" editable />);
    expect(screen.getByTestId('agreed-on').textContent).toBe('Agreed online by Asha Ramdass (parent or guardian) on 2026-11-20.');
    expect(screen.queryByRole('switch')).toBeNull();
  });
});

describe("a family account's view", () => {
  it('ticks the declaration, which saves the agreement', async () => {
    renderScreen(<Declaration studentId={STUDENT_ID} record={recordOf({ family_linked: true })} role="guardian" editable />);
    expect(screen.getByTestId('agreed-on').textContent).toBe('Not agreed yet.');
    await userEvent.setup().click(screen.getByRole('switch', { name: AGREE }));
    await waitFor(() => expect(posts).toEqual([{ id: STUDENT_ID, agree_terms_conditions: 1 }]));
  });
});
