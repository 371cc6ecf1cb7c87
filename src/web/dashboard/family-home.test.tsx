import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionAnswer, SessionUser } from '../../shared/auth.schemas.js';
import type { FamilyHome, FamilyHomeChild } from '../../shared/family-home.schemas.js';
import { createQueryClient, renderScreen } from '../../../tests/support/render-web.js';
import { sessionQueryKey } from '../lib/session.js';
import { DashboardPage } from './dashboard-page.js';
import { familyHomeQueryKey } from './family-home.api.js';
import { familySession } from '../../../tests/support/family-session.js';

/**
 * A family's dashboard (D76): greeted by the parent's own name, a card per linked child with its
 * registration and deadline, documents, today's attendance and newest report card, each linking to
 * that child's screen; one column on a phone; "No child is linked" once, with Add a child. The
 * session and the home answer are put in the query cache, so the screen makes no call.
 */

const parent = (childIds: string[]): SessionUser => familySession('family@example.com', childIds);

const child = (overrides: Partial<FamilyHomeChild> & Pick<FamilyHomeChild, 'student_id' | 'first_name'>): FamilyHomeChild => ({
  last_name: 'Mohammed',
  class_name: 'Form 5 5A',
  registration: {
    steps_done: 6,
    steps_total: 6,
    submitted: true,
    review: null,
    deadline: '2026-12-11',
    editable: true,
    reason: null,
  },
  documents: { missing: [], returned: [] },
  today: { status: 'on-time', time_in: '07:42' },
  latest_report: { year: 2025, term: 3 },
  ...overrides,
});

const HOME: FamilyHome = {
  date: '2026-11-26',
  children: [
    child({
      student_id: '20220001',
      first_name: 'Aaliyah',
      documents: {
        missing: [],
        returned: [
          {
            type: 'birth_certificate',
            label: 'Birth Certificate',
            reason: 'The scan is blurred.',
          },
        ],
      },
      today: { status: 'late', time_in: '08:17' },
    }),
    child({
      student_id: '20260001',
      first_name: 'Jaden',
      last_name: 'Ramdass',
      class_name: 'Form 1 1A',
      registration: {
        steps_done: 3,
        steps_total: 6,
        submitted: false,
        review: null,
        deadline: '2026-12-11',
        editable: true,
        reason: null,
      },
      documents: {
        missing: [
          { type: 'sea_slip', label: 'SEA Slip' },
          { type: 'picture', label: 'Picture' },
        ],
        returned: [],
      },
      today: { status: 'absent', time_in: null },
      latest_report: null,
    }),
    child({
      student_id: '20240001',
      first_name: 'Kiara',
      class_name: 'Form 3 3A',
      registration: {
        steps_done: 5,
        steps_total: 6,
        submitted: false,
        review: null,
        deadline: '2026-11-20',
        editable: false,
        reason: 'The registration deadline (2026-11-20) has passed. The record can be viewed but not changed.',
      },
      today: { status: 'absent-am', time_in: '12:20' },
    }),
  ],
};

function renderHome(childIds: string[], home: FamilyHome | null) {
  const queryClient = createQueryClient();
  queryClient.setQueryData<SessionAnswer>(sessionQueryKey, {
    user: parent(childIds),
  });
  if (home) queryClient.setQueryData(familyHomeQueryKey(childIds), home);
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.reject(new Error('the home cards come from the cache here'))),
  );
  return renderScreen(<DashboardPage />, { path: '/dashboard', queryClient });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const ids = HOME.children.map((c) => c.student_id);

describe('a family account on its dashboard', () => {
  it("greets the parent by their own name, with no student's ID", () => {
    renderHome(ids, HOME);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Welcome, Sandra Mohammed');
    expect(screen.queryByText(/^Student ID \d+$/)).toBeNull();
    // The student's three cards are not a parent's.
    expect(screen.queryByRole('link', { name: /Edit\/View Registration/ })).toBeNull();
  });

  it("shows a card per child with registration, deadline, documents, today and the newest report card, each linking to that child's screen", () => {
    renderHome(ids, HOME);
    const cards = within(screen.getByRole('list', { name: 'Your children' })).getAllByRole('listitem');
    expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(['Aaliyah Mohammed', 'Jaden Ramdass', 'Kiara Mohammed']);

    const aaliyah = within(screen.getByRole('listitem', { name: 'Aaliyah Mohammed' }));
    aaliyah.getByText('Form 5 5A · Student ID 20220001');
    aaliyah.getByText('Submitted to the school.');
    aaliyah.getByText('Deadline: 2026-12-11');
    aaliyah.getByText('Returned by the office: Birth Certificate — The scan is blurred. Upload it again.');
    aaliyah.getByText('Late, arrived at 08:17.');
    aaliyah.getByText('Newest: Term 3 Trinity 2025-2026');
    expect(aaliyah.getByRole('link', { name: "Open Aaliyah Mohammed's registration" }).getAttribute('href')).toBe(
      '/registration/student-data?student=20220001',
    );
    expect(aaliyah.getByRole('link', { name: "Open Aaliyah Mohammed's documents" }).getAttribute('href')).toBe('/registration/documents?student=20220001');
    expect(aaliyah.getByRole('link', { name: "Open Aaliyah Mohammed's attendance" }).getAttribute('href')).toBe('/attendance?student=20220001');
    expect(aaliyah.getByRole('link', { name: "Open Aaliyah Mohammed's report cards" }).getAttribute('href')).toBe('/term-reports?student=20220001');

    const jaden = within(screen.getByRole('listitem', { name: 'Jaden Ramdass' }));
    jaden.getByText('3 of 6 steps done.');
    jaden.getByText('Missing: SEA Slip, Picture.');
    jaden.getByText('Absent (no arrival recorded at the gate).');
    // An absent or late day offers the absence note's form, opened on that day.
    expect(jaden.getByRole('link', { name: 'Explain this absence' }).getAttribute('href')).toBe('/absence-notes?student=20260001&date=2026-11-26');
    jaden.getByText('No report card posted yet.');

    const kiara = within(screen.getByRole('listitem', { name: 'Kiara Mohammed' }));
    kiara.getByText('The registration deadline (2026-11-20) has passed. The record can be viewed but not changed.');
    kiara.getByText('Absent for the morning session (arrived at 12:20).');
    kiara.getByText('Every required document is uploaded.');
  });

  it('says once that no child is linked, with the way to add one', () => {
    renderHome([], null);
    expect(screen.getAllByText(/No child is linked to your account yet/)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Add a child' }).getAttribute('href')).toBe('/family/children');
  });
});
