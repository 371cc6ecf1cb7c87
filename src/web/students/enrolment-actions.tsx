import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import SchoolIcon from '@mui/icons-material/School';
import HowToRegIcon from '@mui/icons-material/HowToReg';
import { listName, type AdminStudent } from '../../shared/students.schemas.js';
import { useSession } from '../lib/session.js';
import { canTake } from '../lib/staff-access.js';
import type { EnrolmentView } from './enrolment-dialog.js';
import type { StudentRowAction } from './student-row-actions.js';

// The dialog's code comes the first time it opens, as the list's other dialogs (D64).
const EnrolmentDialog = lazy(async () => ({ default: (await import('./enrolment-dialog.js')).EnrolmentDialog }));

/** The row actions that edit a record or its account: a former student's record is read-only (D60), so their rows leave them out. */
const EDITING_ACTIONS: ReadonlySet<string> = new Set(['edit', 'reset']);

export interface EnrolmentActions {
  /** A row's actions with the enrolment ones: every row the history; a former student's row Readmit, and no Edit or Reset password. */
  forRow: (row: AdminStudent, actions: StudentRowAction[]) => StudentRowAction[];
  /** How many actions a row may gain at most (the grid sizes its Actions column by the longest row). */
  extraCount: number;
  /** The dialog, mounted once it was first opened. */
  dialog: ReactNode;
}

/**
 * The student list's enrolment actions and dialog (docs/decisions.md D80): "Enrolment history"
 * for staff who may read it (its dialog holds Withdraw for the office), and on a former student's
 * row "Readmit" in place of Edit and Reset password.
 */
export function useEnrolmentActions(): EnrolmentActions {
  const user = useSession().data?.user ?? null;
  const mayRead = canTake(user, 'student.history');
  const mayChange = canTake(user, 'student.enrolment');
  const [open, setOpen] = useState<{ student: { id: string; name: string }; start: EnrolmentView } | null>(null);
  const [opened, setOpened] = useState(false);

  const forRow = useCallback(
    (row: AdminStudent, actions: StudentRowAction[]): StudentRowAction[] => {
      const name = listName(row) || row.id;
      const show = (start: EnrolmentView) => () => {
        setOpened(true);
        setOpen({ student: { id: row.id, name }, start });
      };
      const former = Boolean(row.left_on);
      const kept = former ? actions.filter((action) => !EDITING_ACTIONS.has(action.key)) : actions;
      return [
        ...kept,
        ...(former && mayChange ? [{ key: 'readmit', label: 'Readmit', name: `Readmit ${name}`, icon: <HowToRegIcon />, onClick: show('readmit') }] : []),
        ...(mayRead ? [{ key: 'enrolment', label: 'Enrolment history', name: `Enrolment history of ${name}`, icon: <SchoolIcon />, onClick: show('history') }] : []),
      ];
    },
    [mayRead, mayChange],
  );

  const dialog = opened ? (
    <Suspense fallback={null}>
      <EnrolmentDialog student={open?.student ?? null} start={open?.start ?? 'history'} mayChange={mayChange} onClose={() => setOpen(null)} />
    </Suspense>
  ) : null;
  // A former student's row trades Edit and Reset password for Readmit, so it is no longer than a
  // row on the roll unless the role may readmit without editing.
  const tradesEdits = canTake(user, 'student.edit') || canTake(user, 'student.reset-password');
  return { forRow, extraCount: (mayRead ? 1 : 0) + (mayChange && !tradesEdits ? 1 : 0), dialog };
}
