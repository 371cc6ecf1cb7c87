import Typography from '@mui/material/Typography';
import { useFormClasses } from '../lib/form-classes.js';
import { useSession } from '../lib/session.js';
import { classListTitle } from '../lib/staff-access.js';
import { usePageTitle } from '../lib/use-page-title.js';
import StudentList, { type ClassTools, type StudentDocumentsDialog, type StudentFamilyDialog, type StudentReviewDialog } from './student-list.js';

/**
 * Dashboard (docs/requirements.md R11, the default option): the student list, headed "Students", or for someone who
 * sees only their classes (a form teacher) with those classes and their name: "Form 5 5A — Mrs. J. Francis".
 */
export default function StudentsScreen(props: { documentsDialog: StudentDocumentsDialog; familyDialog?: StudentFamilyDialog; reviewDialog?: StudentReviewDialog; classTools?: ClassTools }) {
  usePageTitle('Admin Dashboard');
  const user = useSession().data?.user;
  const classes = useFormClasses();
  return (
    <>
      <Typography variant="h1" sx={{ mb: 2 }}>
        {classListTitle(user, classes.data ?? []) ?? 'Students'}
      </Typography>
      <StudentList {...props} />
    </>
  );
}
