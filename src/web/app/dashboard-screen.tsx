import { lazy, Suspense, type ComponentProps, type ComponentType } from 'react';
import StudentsScreen from '../students/students-screen.js';
import { useSession } from '../lib/session.js';
import { canTake } from '../lib/staff-access.js';

// Each dialog's code comes when the list first opens it, never holding the list up.
const LazyDocumentsDialog = lazy(async () => ({ default: (await import('../documents/student-documents-dialog.js')).StudentDocumentsDialog }));
// Only the office and administrators see these.
const LazyFamilyDialog = lazy(async () => ({ default: (await import('../family/student-family-dialog.js')).StudentFamilyDialog }));
const LazyReviewDialog = lazy(async () => ({ default: (await import('../review/registration-review-dialog.js')).RegistrationReviewDialog }));
const LazyDocumentDecision = lazy(async () => ({ default: (await import('../review/document-decision.js')).DocumentDecision }));
const LazyFamilyLetters = lazy(async () => ({ default: (await import('../family/family-letters-button.js')).FamilyLettersButton }));

/** A lazily loaded component that draws nothing until its code is in. */
function loadedWhenShown<P extends object>(Lazy: ComponentType<P>): ComponentType<P> {
  return function Shown(props: P) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}

const ShownDocumentsDialog = loadedWhenShown<ComponentProps<typeof LazyDocumentsDialog>>(LazyDocumentsDialog);
const DocumentDecision = loadedWhenShown<ComponentProps<typeof LazyDocumentDecision>>(LazyDocumentDecision);

/** The Documents dialog; for those who review documents, each file's decision and "Change decision" (docs/decisions.md D81). */
function DocumentsDialog(props: { student: { id: string; name: string } | null; onClose: () => void }) {
  const user = useSession().data?.user ?? null;
  return <ShownDocumentsDialog {...props} decision={canTake(user, 'documents.review') ? DocumentDecision : undefined} />;
}
const FamilyDialog = loadedWhenShown<ComponentProps<typeof LazyFamilyDialog>>(LazyFamilyDialog);
const ReviewDialog = loadedWhenShown<ComponentProps<typeof LazyReviewDialog>>(LazyReviewDialog);
const FamilyLetters = loadedWhenShown<ComponentProps<typeof LazyFamilyLetters>>(LazyFamilyLetters);

/**
 * The admin Dashboard: the student list, whose Documents action opens the documents feature's
 * dialog, whose Family action the family feature's, whose Review registration action the review
 * feature's, and whose chosen class offers the family
 * feature's code letters (features meet only here, in app/).
 */
export default function DashboardScreen() {
  return <StudentsScreen documentsDialog={DocumentsDialog} familyDialog={FamilyDialog} reviewDialog={ReviewDialog} classTools={FamilyLetters} />;
}
