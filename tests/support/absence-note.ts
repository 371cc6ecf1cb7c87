import type { AbsenceNote } from '../../src/shared/absence-notes.schemas.js';

/** A waiting note for two days of illness, as the absence notes API answers it, for component tests to vary. */
export function absenceNote(overrides: Partial<AbsenceNote> = {}): AbsenceNote {
  return {
    id: 12,
    student_id: '20220001',
    sender: 'family',
    sent_by: 'Sandra Mohammed',
    date_from: '2026-11-23',
    date_to: '2026-11-24',
    part: 'whole_day',
    reason: 'illness',
    text: 'Fever and a cough.',
    attachment: null,
    state: 'waiting',
    school_days: 2,
    decision: null,
    created_at: '2026-11-24T18:00:00Z',
    withdrawn_at: null,
    ...overrides,
  };
}
