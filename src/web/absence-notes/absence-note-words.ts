import type { ChipProps } from '@mui/material/Chip';
import type { AbsenceNote, AbsenceNoteState } from '../../shared/absence-notes.schemas.js';

/** How the family's list and the school's queue show a note's state and days. */

export const STATE_COLORS: Record<AbsenceNoteState, ChipProps['color']> = {
  waiting: 'warning',
  accepted: 'success',
  declined: 'error',
  withdrawn: 'default',
};

/** "2026-11-24" or "2026-11-24 to 2026-11-25". */
export function noteDays(note: Pick<AbsenceNote, 'date_from' | 'date_to'>): string {
  return note.date_from === note.date_to ? note.date_from : `${note.date_from} to ${note.date_to}`;
}
