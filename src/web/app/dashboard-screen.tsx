import { lazy, Suspense, type ComponentProps } from 'react';
import StudentsScreen from '../admin/students-screen.js';
import { StudentDocumentsDialog } from '../documents/student-documents-dialog.js';

// Only the office and administrators see these: loaded beside the list, never holding it up.
const LazyFamilyDialog = lazy(async () => ({ default: (await import('../family/student-family-dialog.js')).StudentFamilyDialog }));
const LazyReviewDialog = lazy(async () => ({ default: (await import('../review/registration-review-dialog.js')).RegistrationReviewDialog }));
const LazyFamilyLetters = lazy(async () => ({ default: (await import('../family/family-letters-button.js')).FamilyLettersButton }));

function FamilyDialog(props: ComponentProps<typeof LazyFamilyDialog>) {
  return (
    <Suspense fallback={null}>
      <LazyFamilyDialog {...props} />
    </Suspense>
  );
}

function ReviewDialog(props: ComponentProps<typeof LazyReviewDialog>) {
  return (
    <Suspense fallback={null}>
      <LazyReviewDialog {...props} />
    </Suspense>
  );
}

function FamilyLetters(props: ComponentProps<typeof LazyFamilyLetters>) {
  return (
    <Suspense fallback={null}>
      <LazyFamilyLetters {...props} />
    </Suspense>
  );
}

/**
 * The admin Dashboard: the student list, whose Documents action opens the documents feature's
 * dialog, whose Family action the family feature's, whose Review registration action the review
 * feature's (issue 18), and whose chosen class offers the family
 * feature's code letters (features meet only here, in app/).
 */
export default function DashboardScreen() {
  return <StudentsScreen documentsDialog={StudentDocumentsDialog} familyDialog={FamilyDialog} reviewDialog={ReviewDialog} classTools={FamilyLetters} />;
}
