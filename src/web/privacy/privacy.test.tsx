import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerEveryCall, renderScreen } from '../../../tests/support/render-web.js';
import { Privacy } from './privacy.js';

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

describe('the privacy audit screen', () => {
  it('the privacy audit log gives each entry’s time in the school’s time', async () => {
    answerEveryCall({
      entries: [{ id: 1, at: STORED, actor: 'admin:office', action: 'read', entity: 'student', entity_id: '20220001', field: null, old_value: null, new_value: null, ip: null }],
      next_before_id: null,
    });
    renderScreen(<Privacy />);
    expect(await screen.findByText(AT_SCHOOL)).toBeTruthy();
    expect(document.body.textContent).not.toContain('01:30');
  });
});
