import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerFetch, renderScreen } from '../../../tests/support/render-web.js';
import type { StudentChangesPage } from '../../shared/students.schemas.js';
import { StudentHistoryDialog } from './student-history-dialog.js';

/**
 * A student's history dialog (docs/decisions.md D82): each change as its label with the old and
 * new value, who and when in school time (America/Port_of_Spain, UTC-4), newest first, older
 * pages on request. GET /api/students/{id}/history is its only call; `fetch` answers it.
 */

afterEach(() => vi.unstubAllGlobals());

const change = (id: number, at: string, label: string, old_value: string | null, new_value: string | null) => ({ id, at, who: 'admin:office', field: label, label, old_value, new_value });

const NEWEST: StudentChangesPage = {
  student_id: '20250004',
  changes: [change(9, '2026-11-28T14:05:00.000Z', 'Immigration Permit', 'Not answered', 'Yes'), change(8, '2026-11-28T03:30:00.000Z', 'Class', '3A', '3B')],
  next_before_id: 8,
};
const OLDER: StudentChangesPage = { student_id: '20250004', changes: [change(3, '2026-10-01T12:00:00.000Z', 'Middle Name', null, 'Ann')], next_before_id: null };

describe('the history dialog', () => {
  it("lists the changes newest first in school time, and pages back", async () => {
    answerFetch({ '/api/students/20250004/history': [200, NEWEST], '/api/students/20250004/history?before_id=8': [200, OLDER] });
    renderScreen(<StudentHistoryDialog student={{ id: '20250004', name: 'Doe, Jane' }} onClose={() => undefined} />);
    const list = await screen.findByRole('list', { name: 'Changes, newest first' });
    const items = () => within(list).getAllByRole('listitem').map((item) => item.textContent);
    expect(items()).toEqual(['Immigration Permit: Not answered → Yes2026-11-28 10:05 · admin:office', 'Class: 3A → 3B2026-11-27 23:30 · admin:office']);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show older changes' }));
    await within(list).findByText('Middle Name: (empty) → Ann');
    expect(items()).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Show older changes' })).toBeNull();
  });
});
