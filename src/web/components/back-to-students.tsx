import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Button from '@mui/material/Button';
import { useLocation, useNavigate } from 'react-router';

/** Where the admin student list is, and the history state its row actions leave behind them. */
export const STUDENT_LIST_PATH = '/admin/dashboard';
export const FROM_STUDENT_LIST = { fromStudentList: true } as const;

/**
 * "Back to students" on a student's screen that an administrator opened from the student list
 * (attendance, term reports). Opened from the list, it goes back in the history, so the list comes
 * back with its search and filters (the list keeps them in its history entry); opened any other
 * way (a bookmark, a typed address), it opens the list.
 */
export function BackToStudents() {
  const navigate = useNavigate();
  const location = useLocation();
  const fromList = (location.state as { fromStudentList?: boolean } | null)?.fromStudentList === true;
  return (
    <Button startIcon={<ArrowBackIcon aria-hidden />} onClick={() => void (fromList ? navigate(-1) : navigate(STUDENT_LIST_PATH))} sx={{ alignSelf: 'flex-start' }}>
      Back to students
    </Button>
  );
}
