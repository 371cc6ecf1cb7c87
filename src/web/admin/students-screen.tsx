import Typography from '@mui/material/Typography';
import { usePageTitle } from '../lib/use-page-title.js';
import StudentList, { type StudentDocumentsDialog } from './student-list.js';

/** Dashboard (SPEC §2, the default option): the student list. */
export default function StudentsScreen({ documentsDialog }: { documentsDialog: StudentDocumentsDialog }) {
  usePageTitle('Admin Dashboard');
  return (
    <>
      <Typography variant="h1" sx={{ mb: 2 }}>
        Students
      </Typography>
      <StudentList documentsDialog={documentsDialog} />
    </>
  );
}
