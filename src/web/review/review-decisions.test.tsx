import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RegistrationState } from '../../shared/students.schemas.js';
import { registrationDecisionsFor, type DocumentQueue, type OfficeStudentReview, type RegistrationReview } from '../../shared/review.schemas.js';
import { answerFetch, renderScreen } from '../../../tests/support/render-web.js';
import { DocumentDecision } from './document-decision.js';
import { RegistrationDecision } from './registration-decision.js';
import { ReviewScreen } from './review-screen.js';

/**
 * The office's decision buttons (docs/decisions.md D81): Verify, Return and Reopen are enabled
 * exactly where the record's answer says the server would decide, with the reason under a
 * disabled one; Verify over unreviewed documents asks first, with the count and whom the family's
 * message reaches; in Document Review, Accept waits for the document on the screen, ignores a
 * key's repeats and sends one decision per document.
 */

const STUDENT = '20220001';
const isDisabled = (element: HTMLElement) => (element as HTMLButtonElement).disabled;
const FAMILY_EMAIL = 'family@example.com';

const review = (state: RegistrationState, unreviewed = 0): RegistrationReview => ({
  state,
  note: null,
  steps: [],
  reviewed_at: null,
  documents: [],
  documents_unreviewed: unreviewed,
  documents_returned: 0,
  decisions: registrationDecisionsFor(state),
});
const office: OfficeStudentReview = { documents: [], paper: [], reach: { recipients: [{ email: FAMILY_EMAIL, via: 'family_account' }] } };
const noReRegistration = { year: null, opened_at: null, steps: [], pending: 0, changes: [] };

function answers(state: RegistrationState, unreviewed = 0): Record<string, [number, unknown]> {
  return {
    [`/api/registration-review/${STUDENT}`]: [200, review(state, unreviewed)],
    [`/api/review/re-registrations/${STUDENT}`]: [200, noReRegistration],
    [`/api/review/students/${STUDENT}`]: [200, office],
    [`/api/review/registrations/${STUDENT}/verify`]: [200, { ...review('verified'), message: 'Registration verified.' }],
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the registration decision buttons', () => {
  it('a record in progress: Verify, Return and Reopen all disabled, each reason shown', async () => {
    answerFetch(answers('in_progress'));
    renderScreen(<RegistrationDecision studentId={STUDENT} name="Mohammed, Aaliyah" />);
    await screen.findByText(/^Now: In progress/);
    for (const name of ['Verify registration', 'Return registration', 'Reopen']) expect(isDisabled(screen.getByRole('button', { name }))).toBe(true);
    const help = screen.getByTestId('registration-decision-help');
    expect(help.textContent).toContain('Verify: Only a submitted registration');
    expect(help.textContent).toContain('Return: Only a submitted or verified registration');
    expect(help.textContent).toContain('Reopen: Only a verified registration can be reopened.');
  });

  it('a submitted record with unreviewed documents: Verify asks first, names the count and whom it reaches, then sends confirm_unreviewed', async () => {
    const calls: string[] = [];
    const bodies = answerFetch(answers('submitted', 3), calls);
    renderScreen(<RegistrationDecision studentId={STUDENT} name="Mohammed, Aaliyah" />);
    await screen.findByText(/^Now: Submitted/);
    expect(isDisabled(screen.getByRole('button', { name: 'Reopen' }))).toBe(true);
    expect(isDisabled(screen.getByRole('button', { name: 'Return registration' }))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Verify registration' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('unreviewed-warning').textContent).toContain('3 documents are not reviewed yet.');
    expect((await within(dialog).findByTestId('family-reach')).textContent).toContain(`${FAMILY_EMAIL} (family account)`);
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify anyway' }));
    await waitFor(() => expect(bodies.get(`POST /api/review/registrations/${STUDENT}/verify`)).toEqual({ confirm_unreviewed: true }));
  });
});

describe('Document Review', () => {
  const queue: DocumentQueue = {
    total: 2,
    items: ['one', 'two'].map((name, index) => ({
      public_id: `public-id-number-${name}`,
      url: `/api/documents/public-id-number-${name}`,
      file_type: 'picture',
      file_name: `${name}.jpg`,
      mime: 'image/jpeg',
      uploaded_at: `2026-11-0${index + 1}T10:00:00.000Z`,
      student: { id: STUDENT, first_name: 'Aaliyah', last_name: 'Mohammed', class_id: '5A', date_of_birth: '2010-01-01', birth_certificate_no: 'B1', sex: 'Female' },
    })),
  };

  it('Accept waits for the picture on the screen; a held key and a second press send one decision', async () => {
    const calls: string[] = [];
    answerFetch(
      {
        ...answers('submitted', 2),
        '/api/review/documents': [200, queue],
        '/api/form-classes': [200, []],
        '/api/review/documents/public-id-number-one': [200, { message: 'Document accepted.', review_state: 'accepted', review_reason: null }],
      },
      calls,
    );
    renderScreen(<ReviewScreen />);
    const picture = await screen.findByRole('img', { name: 'Picture of Mohammed, Aaliyah' });
    const accept = screen.getByRole('button', { name: 'Accept (A)' });
    expect(isDisabled(accept)).toBe(true);
    expect(screen.getByTestId('review-decision-help').textContent).toContain('Accept and Return wait until the document is on the screen.');
    // A press before the picture is shown does nothing.
    fireEvent.keyDown(document.body, { key: 'a' });
    fireEvent.load(picture);
    await waitFor(() => expect(isDisabled(accept)).toBe(false));
    // The key goes down (one decision), stays down (repeats), and is pressed again.
    fireEvent.keyDown(document.body, { key: 'a' });
    for (let i = 0; i < 5; i++) fireEvent.keyDown(document.body, { key: 'a', repeat: true });
    fireEvent.keyDown(document.body, { key: 'a' });
    await screen.findByText('Document accepted.');
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual(['POST /api/review/documents/public-id-number-one']);
  });
});

describe("a document's decision in the student's Documents dialog", () => {
  const publicId = 'public-id-birth-certificate';
  const decided: OfficeStudentReview = {
    ...office,
    documents: [
      { public_id: publicId, file_type: 'birth_certificate', file_name: 'birth.pdf', review_state: 'accepted', review_reason: null, reviewed_at: '2026-11-27 10:03', reviewed_by: 'Olivia Thomas' },
    ],
  };

  it('says who decided and when; Change decision offers the other state and needs the reason for the change', async () => {
    const bodies = answerFetch({
      [`/api/review/students/${STUDENT}`]: [200, decided],
      [`/api/review/documents/${publicId}`]: [200, { message: 'Decision changed.', review_state: 'returned', review_reason: 'Expired or not certified' }],
    });
    renderScreen(<DocumentDecision studentId={STUDENT} fileType="birth_certificate" />);
    expect((await screen.findByText('Accepted by Olivia Thomas on 2026-11-27 10:03')).textContent).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Change decision: birth.pdf' }));
    // Accepted already: only Return is offered.
    expect(screen.getByRole('combobox', { name: 'New decision' }).textContent).toBe('Return to the family');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Reason' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Expired or not certified' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save decision' }));
    await screen.findByText('Say why the earlier decision changes.');
    expect(bodies.size).toBe(0);
    expect((await screen.findByTestId('family-reach')).textContent).toContain(FAMILY_EMAIL);
    fireEvent.change(screen.getByRole('textbox', { name: /Why the decision changes/ }), { target: { value: 'The copy is from 2019.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save decision' }));
    await waitFor(() => expect(bodies.get(`POST /api/review/documents/${publicId}`)).toEqual({ decision: 'return', reason: 'expired', change_reason: 'The copy is from 2019.' }));
    // Then the printable notice is offered.
    expect((await screen.findByRole('link', { name: 'Print notice' })).getAttribute('href')).toBe(`/api/review/students/${STUDENT}/notice`);
  });

  it('says when a slot was received on paper, with or without an uploaded file', async () => {
    answerFetch({
      [`/api/review/students/${STUDENT}`]: [200, { ...office, paper: [{ file_type: 'sea_slip', received_at: '2026-11-27 09:15', received_by: 'Olivia Thomas' }] }],
    });
    renderScreen(<DocumentDecision studentId={STUDENT} fileType="sea_slip" />);
    expect((await screen.findByTestId('paper-sea_slip')).textContent).toBe('Received on paper by Olivia Thomas on 2026-11-27 09:15');
    expect(screen.queryByRole('button', { name: /Change decision|Decide/ })).toBeNull();
  });
});
