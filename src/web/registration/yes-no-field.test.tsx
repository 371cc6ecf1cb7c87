import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findField, type FieldValue } from '../../shared/registration.fields.js';
import { jsonResponse, renderScreen } from '../../../tests/support/render-web.js';
import { savedAnswer, stubStudentSaves } from '../../../tests/support/student-saves.js';
import { RegistrationField } from './registration-field.js';

/**
 * A yes/no question of the record (D75): the question in words, Yes and No with neither chosen
 * until answered, answered by keyboard, cleared back to not answered; each answer saved as 1, 0 or
 * null. The save's POST /api/student is the only call; `fetch` answers it here.
 */

const STUDENT_ID = '20240007';
let posts: Record<string, unknown>[];
let answer: (body: Record<string, unknown>) => Response;

beforeEach(() => {
  answer = savedAnswer;
  posts = stubStudentSaves((body) => answer(body));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function renderQuestion(name: string, value: FieldValue) {
  const field = findField(name)!;
  renderScreen(<RegistrationField field={field} value={value} studentId={STUDENT_ID} readOnly={false} />);
  const group = screen.getByRole('radiogroup', { name: field.question });
  return { field, group, yes: within(group).getByRole<HTMLInputElement>('radio', { name: 'Yes' }), no: within(group).getByRole<HTMLInputElement>('radio', { name: 'No' }) };
}

/** The text of the elements that describe an element (aria-describedby), as a screen reader reads it. */
const descriptionOf = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

describe('a yes/no question', () => {
  it('asks its question in words and offers Yes and No with neither chosen when nobody answered', () => {
    const { yes, no, group } = renderQuestion('hepatitis', null);
    expect(screen.getByRole('radiogroup', { name: 'Is the student immunised against Hepatitis?' })).toBe(group);
    expect(yes.checked).toBe(false);
    expect(no.checked).toBe(false);
    expect(descriptionOf(group)).toBe('Not answered');
    expect(screen.queryByRole('button', { name: /Clear the answer/ })).toBeNull();
    expect(posts).toEqual([]);
  });

  it('shows a stored No as No, not as unanswered', () => {
    const { yes, no, group } = renderQuestion('polio', 0);
    expect(no.checked).toBe(true);
    expect(yes.checked).toBe(false);
    expect(descriptionOf(group)).toBe('Answered No');
  });

  it('is answered by keyboard, saved as 1 or 0, and cleared back to not answered (null)', async () => {
    const user = userEvent.setup();
    const { yes, no, group } = renderQuestion('measles', null);
    await user.tab();
    expect(document.activeElement).toBe(yes);
    await user.keyboard(' ');
    await waitFor(() => expect(posts).toEqual([{ id: STUDENT_ID, measles: 1 }]));
    expect(yes.checked).toBe(true);
    await user.click(no);
    await waitFor(() => expect(posts.at(-1)).toEqual({ id: STUDENT_ID, measles: 0 }));
    await user.click(screen.getByRole('button', { name: 'Clear the answer: Is the student immunised against Measles?' }));
    await waitFor(() => expect(posts.at(-1)).toEqual({ id: STUDENT_ID, measles: null }));
    expect(yes.checked).toBe(false);
    expect(no.checked).toBe(false);
    expect(descriptionOf(group)).toBe('Not answered');
  });

  it('an answer the server cannot take now stays chosen and is said to wait, not to be wrong', async () => {
    answer = () => jsonResponse(500, { message: 'Something went wrong on our side. Please try again.', code: 'internal' });
    const { yes } = renderQuestion('asthma', null);
    await userEvent.setup().click(yes);
    await waitFor(() => expect(document.querySelector('[data-waiting]')?.textContent).toMatch(/^Not saved yet: /));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(yes.checked).toBe(true);
  });
});
