import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerEveryCall, renderScreen } from '../../../tests/support/render-web.js';
import { ReRegistrationChanges } from './re-registration-changes.js';

/**
 * Times shown to the office are the school's (America/Port_of_Spain, UTC-4), whatever the
 * browser's own zone (D84): a change stored at 01:30 UTC on the 28th happened at 21:30 on the
 * 27th at the school. The screens' own calls are answered here.
 */

const STORED = '2026-11-28T01:30:00.000Z';
const AT_SCHOOL = '2026-11-27 21:30';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the office’s “what changed” list', () => {
  it('the re-registration “what changed” list gives when in the school’s time, and the day it opened in the school’s day', async () => {
    answerEveryCall({
      year: 2026,
      opened_at: '2026-09-01T02:00:00.000Z',
      pending: 5,
      steps: [{ step: 'student', label: 'Student Data', confirmed_at: STORED, confirmed_by: 'guardian:7', how: 'unchanged' }],
      changes: [{ field: 'home_address', label: 'Home address', step: 'student', old_value: '1 Main Road', new_value: '2 Main Road', by: 'guardian:7', at: STORED }],
    });
    renderScreen(<ReRegistrationChanges studentId="20220001" />);
    expect(await screen.findByText(/Home address/)).toBeTruthy();
    expect(screen.getByTestId('re-registration-change-home_address').textContent).toContain(AT_SCHOOL);
    expect(screen.getByTestId('re-registration-office-step-student').textContent).toContain(AT_SCHOOL);
    expect(screen.getByText('Changed since 2026-08-31')).toBeTruthy();
    expect(document.body.textContent).not.toContain('01:30');
  });
});
