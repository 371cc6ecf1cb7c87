import StudentsScreen from '../admin/students-screen.js';
import { StudentDocumentsDialog } from '../documents/student-documents-dialog.js';

/**
 * The admin Dashboard: the student list, whose Documents action opens the documents feature's
 * dialog (features meet only here, in app/).
 */
export default function DashboardScreen() {
  return <StudentsScreen documentsDialog={StudentDocumentsDialog} />;
}
