import Typography from '@mui/material/Typography';
import { usePageTitle } from '../lib/use-page-title.js';
import StudentList from './student-list.js';

/** Dashboard (SPEC §2, the default option): the student list. */
export default function StudentsScreen() {
  usePageTitle('Admin Dashboard');
  return (
    <>
      <Typography variant="h1" sx={{ mb: 2 }}>
        Students
      </Typography>
      <StudentList />
    </>
  );
}
