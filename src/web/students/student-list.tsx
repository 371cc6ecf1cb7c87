import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ComponentType } from 'react';
import EditIcon from '@mui/icons-material/Edit';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import FamilyRestroomIcon from '@mui/icons-material/FamilyRestroom';
import FolderOpenIcon from '@mui/icons-material/FolderOpen';
import HistoryIcon from '@mui/icons-material/History';
import LockResetIcon from '@mui/icons-material/LockReset';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import SummarizeIcon from '@mui/icons-material/Summarize';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { GridRowSelectionModel } from '@mui/x-data-grid';
import { useNavigate } from 'react-router';
import { ADMIN_MESSAGES, callListUrl, listName, registrationFormUrl, type AdminStudent } from '../../shared/students.schemas.js';
import type { SessionUser } from '../../shared/auth.schemas.js';
import { FROM_STUDENT_LIST } from '../components/back-to-students.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage } from '../lib/api-client.js';
import { useFormClasses } from '../lib/form-classes.js';
import { useSession } from '../lib/session.js';
import { canTake, classChoicesFor, reachesEveryClass } from '../lib/staff-access.js';
import { usePainted } from '../lib/use-painted.js';
import { useDownloadFile } from '../lib/download-file.js';
import { useEnrolmentActions, type EnrolmentActions } from './enrolment-actions.js';
import { StudentFilters, StudentListToolbar } from './student-list-controls.js';
import { KEPT_FILTERS_KEY, useStudentListData, type KeptFilters } from './student-list-data.js';
import type { StudentGridProps } from './student-grid.js';
import type { StudentRowAction } from './student-row-actions.js';
import type { BulkSelection } from '../../shared/bulk.schemas.js';
// The bulk bar is on the list's first screen, which the server renders: its code comes with the
// list's. As a lazy part it was not loaded when the list rendered again right after hydrating,
// so React swapped the server's bar for nothing until the code came and the grid jumped
// (layout shift 0.069 at 1280 px; docs/decisions.md D104).
import BulkActions from './bulk-actions.js';

// The grid and the dialogs are most of the list's code: the search, filters and total paint
// first, the grid arrives after them, and each dialog's code comes the first time it opens (D64).
const StudentGrid = lazy(() => import('./student-grid.js'));
const AddStudentDialog = lazy(async () => ({ default: (await import('./add-student-dialog.js')).AddStudentDialog }));
const EditStudentDialog = lazy(async () => ({ default: (await import('./edit-student-dialog.js')).EditStudentDialog }));
const StudentHistoryDialog = lazy(async () => ({ default: (await import('./student-history-dialog.js')).StudentHistoryDialog }));
const ResetPasswordDialog = lazy(async () => ({ default: (await import('./reset-password-dialog.js')).ResetPasswordDialog }));
const PdfDialog = lazy(async () => ({ default: (await import('../components/pdf-view.js')).PdfDialog }));

/** No row ticked. */
const NOTHING_TICKED: GridRowSelectionModel = { type: 'include', ids: new Set() };

/** Where the grid will be, while its code comes. */
function GridPlaceholder() {
  return <Skeleton variant="rounded" height="100%" role="progressbar" aria-label="Loading the list" />;
}

type StudentDialogKind = 'form' | 'edit' | 'history' | 'reset' | 'documents' | 'family' | 'review';
type DialogKind = StudentDialogKind | 'add';
type Dialog = { kind: StudentDialogKind; student: AdminStudent } | { kind: 'add' } | null;

/**
 * A student's uploaded documents over the list. The documents feature draws it; src/web/app hands
 * it in, since one feature does not import another (docs/architecture.md "Web").
 */
export type StudentDocumentsDialog = ComponentType<{ student: { id: string; name: string } | null; onClose: () => void }>;

/** Who is linked to a student's record (the family feature's dialog), handed in the same way. */
export type StudentFamilyDialog = StudentDocumentsDialog;

/** What the list offers for the class chosen in its filter (the family feature's code letters), handed in the same way. */
export type ClassTools = ComponentType<{ classId: string }>;

/** Verify, return or reopen a student's registration (the review feature's dialog), handed in the same way. */
export type StudentReviewDialog = StudentDocumentsDialog;

interface StudentListProps {
  documentsDialog: StudentDocumentsDialog;
  familyDialog?: StudentFamilyDialog;
  reviewDialog?: StudentReviewDialog;
  classTools?: ClassTools;
}

/**
 * The dashboard's student list (docs/requirements.md R11): ID, Name ('Last, First'), Class, Date of Birth, Birth
 * Certificate Pin, Sex, Registration and Actions, by class then name (D82); one search box over ID,
 * names (middle names too, accents and case aside, either order), pin, class and date of birth, and filters by class and registration stage (not started, in progress,
 * complete); 'Total Number of Students: N'. Export call list downloads the rows shown with the
 * parents' phones and e-mails. The grid draws only the rows in view, so 2,000 students are
 * as quick as 20. Past the school's threshold (STUDENT_LIST_SERVER_MODE_ABOVE, the server's
 * answer says when) the grid runs in server mode: it asks for one page at a time, and the server
 * sorts, searches and filters (D64); below it the whole list is filtered here. Actions: the registration form, edit, the student's history, reset password, the student's documents
 * (a dialog with previews), term reports and attendance (the student's own screens, which an
 * administrator opens with ?student=ID), and for the office the student's Family (who is linked,
 * codes, invitations). Each action has a tooltip and a name that says whose row it is
 * (D46). Add student opens the Add Student form; with one class chosen, those who may print family
 * codes get that class's letters.
 *
 * Each staff role sees what its permissions allow: Add student, Export call list, Edit
 * and Reset password only when the session says so; someone who sees only their classes (a form
 * teacher) gets the list the server narrowed to them and a class choice of theirs only (opened on
 * the first when they have several).
 */
export default function StudentList({ documentsDialog: DocumentsDialog, familyDialog: FamilyDialog, reviewDialog: ReviewDialog, classTools: ClassToolsOf }: StudentListProps) {
  const user = useSession().data?.user ?? null;
  const everyClass = reachesEveryClass(user);
  const may = useListPermissions(user, { family: FamilyDialog !== undefined, review: ReviewDialog !== undefined, letters: ClassToolsOf !== undefined });
  // The history, Readmit; a former student's row has no Edit or Reset password (D80).
  const enrolment = useEnrolmentActions();
  const list = useStudentListData(user);
  const { search, setSearch, classId, setClassId, registration, setRegistration, withFormer, setWithFormer, filter, found, listError } = list;
  const classes = useFormClasses();
  const classChoices = classChoicesFor(user, classes.data ?? []);
  const showsClassChoice = everyClass || classChoices.length > 1;
  const callList = useCallListExport(filter);
  const { dialog, opened, openDialog, close } = useDialogs();
  // Bulk actions (docs/decisions.md D83): rows ticked, or the whole filtered list as its filter.
  const selection = useBulkSelection(user, may.edit, list);
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  // A row's actions; the grid draws them as icon buttons, or on a phone as one menu.
  const { actionsOf, actionCount } = useRowActions({ kept: { search, classId, registration }, openDialog, may, enrolment });

  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
      <StudentFilters
        search={search}
        onSearch={setSearch}
        classId={classId}
        onClassId={setClassId}
        classChoices={classChoices}
        showsClassChoice={showsClassChoice}
        everyClass={everyClass}
        registration={registration}
        onRegistration={setRegistration}
      />
      <StudentListToolbar
        count={<ListCount list={list} />}
        withFormer={withFormer}
        onWithFormer={setWithFormer}
        onExport={may.export ? callList.exportCallList : undefined}
        exportDisabled={callList.exporting || found === 0}
        classTools={may.letters && classId !== '' && ClassToolsOf && <ClassToolsOf classId={classId} />}
        onAdd={may.add ? () => openDialog({ kind: 'add' }) : undefined}
      />
      <BulkActions
        selectedCount={selection.selectedCount}
        allMatching={selection.allMatching}
        found={found}
        selection={selection.selection}
        onSelectAll={selection.selectAllMatching}
        onClear={selection.clearSelection}
        onDone={selection.clearSelection}
        classes={classChoices}
        classId={classId}
        may={selection.bulk}
        narrow={narrow}
      />
      {listError && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {errorMessage(listError)}
        </Alert>
      )}
      <StudentGridArea list={list} narrow={narrow} actionsOf={actionsOf} actionCount={actionCount} selection={selection.gridSelection} />
      <StudentDialogs
        dialog={dialog}
        opened={opened}
        onClose={close}
        onAdded={(student) => setSearch(student.id)}
        may={may}
        documentsDialog={DocumentsDialog}
        familyDialog={FamilyDialog}
        reviewDialog={ReviewDialog}
      />
      {enrolment.dialog}
    </Paper>
  );
}

type StudentListData = ReturnType<typeof useStudentListData>;

/**
 * What the session allows on the list; Family, Review registration and the class's letters also
 * need their feature's piece handed in.
 */
function useListPermissions(user: SessionUser | null, handedIn: { family: boolean; review: boolean; letters: boolean }) {
  return {
    add: canTake(user, 'students.add'),
    export: canTake(user, 'students.export'),
    edit: canTake(user, 'student.edit'),
    reset: canTake(user, 'student.reset-password'),
    family: canTake(user, 'student.family') && handedIn.family,
    review: canTake(user, 'registrations.review') && handedIn.review,
    letters: canTake(user, 'families.manage') && handedIn.letters,
  };
}

type ListPermissions = ReturnType<typeof useListPermissions>;

/** The call list holds exactly the rows the filters show, with the parents' phones and e-mails. */
function useCallListExport(filter: StudentListData['filter']) {
  const download = useDownloadFile();
  const snackbar = useSnackbar();
  const exportCallList = () =>
    download.mutate(
      { url: callListUrl(filter), fileName: 'Call List.xlsx' },
      { onError: (cause) => snackbar(errorMessage(cause), 'error') },
    );
  return { exportCallList, exporting: download.isPending };
}

/** 'Total Number of Students: N', and how many the search and filters found. */
function ListCount({ list: { loaded, listError, total, filtered, found } }: { list: StudentListData }) {
  return (
    <>
      {/* The count only once it is known: a list still loading is not a school of 0. */}
      {loaded ? ADMIN_MESSAGES.totalStudents(total) : listError ? '' : 'Loading students…'}
      {filtered && loaded && ` · ${found} found`}
    </>
  );
}

/** The grid over the list's rows, its code asked for once the search and filters have painted. */
function StudentGridArea({ list, ...props }: { list: StudentListData } & Pick<StudentGridProps, 'narrow' | 'actionsOf' | 'actionCount' | 'selection'>) {
  // Rendered in the same pass as the search and filters, React would hold the whole list back
  // until the grid's code had come (D64).
  const gridWanted = usePainted();
  return (
    <Box sx={{ height: { xs: 520, md: 'max(440px, calc(100vh - 350px))' }, width: '100%' }}>
      <Suspense fallback={<GridPlaceholder />}>
        {gridWanted ? (
          <StudentGrid
            rows={list.rows}
            loading={!list.loaded || (list.serverMode && list.fetching)}
            serverMode={list.serverMode}
            rowCount={list.found}
            paginationModel={list.paginationModel}
            onPaginationModelChange={list.setPaginationModel}
            sortModel={list.sortModel}
            onSortModelChange={list.setSortModel}
            filtered={list.filtered}
            {...props}
          />
        ) : (
          <GridPlaceholder />
        )}
      </Suspense>
    </Box>
  );
}

/** The dialog shown, and the kinds opened so far. */
function useDialogs() {
  const [dialog, setDialog] = useState<Dialog>(null);
  // A dialog stays mounted once opened, so it closes with its transition; its code loads on first opening.
  const [opened, setOpened] = useState<ReadonlySet<DialogKind>>(() => new Set());
  const openDialog = useCallback((next: NonNullable<Dialog>) => {
    setOpened((kinds) => (kinds.has(next.kind) ? kinds : new Set([...kinds, next.kind])));
    setDialog(next);
  }, []);
  const close = () => setDialog(null);
  return { dialog, opened, openDialog, close };
}

/** What may be done to many students at once, and the rows ticked for it (or the whole filtered list). */
function useBulkSelection(user: SessionUser | null, mayEdit: boolean, { rows, filter, found, search, classId, registration, withFormer }: StudentListData) {
  const bulk = {
    changeClass: canTake(user, 'students.add') && mayEdit,
    invite: canTake(user, 'families.manage') && canTake(user, 'student.invite-family'),
    paperDocuments: canTake(user, 'documents.review') && mayEdit,
    print: canTake(user, 'class.read'),
  };
  const mayTick = bulk.changeClass || bulk.invite || bulk.paperDocuments;
  const [ticked, setTicked] = useState<GridRowSelectionModel>(NOTHING_TICKED);
  const [allMatching, setAllMatching] = useState(false);
  const clearSelection = useCallback(() => {
    setTicked(NOTHING_TICKED);
    setAllMatching(false);
  }, []);
  // Another search or filter is another list: nothing of the old one stays selected.
  useEffect(clearSelection, [clearSelection, search, classId, registration, withFormer]);
  // The header's "all" box ticks every selectable row it holds; the list keeps the ids either way.
  const tickedIds = ticked.type === 'include' ? [...ticked.ids].map(String) : rows.filter((row) => !row.left_on && !ticked.ids.has(row.id)).map((row) => row.id);
  const selection: BulkSelection | null = allMatching ? { kind: 'filter', filter } : tickedIds.length > 0 ? { kind: 'ids', ids: tickedIds } : null;
  const onTick = (model: GridRowSelectionModel) => {
    setAllMatching(false);
    setTicked(model);
  };
  // With the whole filtered list chosen, the grid shows every row ticked.
  const everyRow: GridRowSelectionModel = { type: 'exclude', ids: new Set() };
  return {
    bulk,
    allMatching,
    selectedCount: allMatching ? found : tickedIds.length,
    selection,
    selectAllMatching: () => setAllMatching(true),
    clearSelection,
    gridSelection: mayTick ? { model: allMatching ? everyRow : ticked, onChange: onTick } : undefined,
  };
}

/** Each row's actions, for the grid, and how many each row has. */
function useRowActions({
  kept: { search, classId, registration },
  openDialog,
  may: { edit: mayEdit, reset: mayReset, family: mayFamily, review: mayReview },
  enrolment: { forRow: withEnrolmentActions, extraCount: enrolmentActionCount },
}: {
  kept: KeptFilters;
  openDialog: (next: NonNullable<Dialog>) => void;
  may: ListPermissions;
  enrolment: EnrolmentActions;
}) {
  const navigate = useNavigate();
  // What the list keeps when a row action leaves it; a ref, so the columns are not rebuilt per keystroke.
  const filters = useRef<KeptFilters>({ search, classId, registration });
  useEffect(() => {
    filters.current = { search, classId, registration };
  });
  const actionsOf = useCallback(
    (row: AdminStudent): StudentRowAction[] => {
      const name = listName(row) || row.id;
      const open = (kind: StudentDialogKind) => () => openDialog({ kind, student: row });
      const show = (path: string) => () => {
        window.sessionStorage.setItem(KEPT_FILTERS_KEY, JSON.stringify(filters.current));
        void navigate(`${path}?student=${encodeURIComponent(row.id)}`, { state: FROM_STUDENT_LIST });
      };
      const all: (StudentRowAction | false)[] = [
        { key: 'form', label: 'View registration form', name: `View registration form of ${name}`, icon: <PictureAsPdfIcon />, onClick: open('form') },
        mayEdit && { key: 'edit', label: 'Edit', name: `Edit ${name}`, icon: <EditIcon />, onClick: open('edit') },
        { key: 'history', label: 'History', name: `History of ${name}`, icon: <HistoryIcon />, onClick: open('history') },
        mayReset && { key: 'reset', label: 'Reset password', name: `Reset password of ${name}`, icon: <LockResetIcon />, onClick: open('reset') },
        { key: 'documents', label: 'Documents', name: `Documents of ${name}`, icon: <FolderOpenIcon />, onClick: open('documents') },
        { key: 'terms', label: 'Term reports', name: `Term reports of ${name}`, icon: <SummarizeIcon />, onClick: show('/term-reports') },
        { key: 'attendance', label: 'Attendance', name: `Attendance of ${name}`, icon: <EventAvailableIcon />, onClick: show('/attendance') },
        mayFamily && { key: 'family', label: 'Family', name: `Family of ${name}`, icon: <FamilyRestroomIcon />, onClick: open('family') },
        mayReview && { key: 'review', label: 'Review registration', name: `Review registration of ${name}`, icon: <FactCheckIcon />, onClick: open('review') },
      ];
      return withEnrolmentActions(row, all.filter((action) => action !== false));
    },
    [navigate, openDialog, filters, mayEdit, mayReset, mayFamily, mayReview, withEnrolmentActions],
  );
  const actionCount = 5 + (mayEdit ? 1 : 0) + (mayReset ? 1 : 0) + (mayFamily ? 1 : 0) + (mayReview ? 1 : 0) + enrolmentActionCount;
  return { actionsOf, actionCount };
}

/** The dialogs a row action or Add student opens. */
function StudentDialogs({
  dialog,
  opened,
  onClose: close,
  onAdded,
  may,
  documentsDialog: DocumentsDialog,
  familyDialog: FamilyDialog,
  reviewDialog: ReviewDialog,
}: {
  dialog: Dialog;
  opened: ReadonlySet<DialogKind>;
  onClose: () => void;
  onAdded: (student: { id: string }) => void;
  may: { add: boolean; edit: boolean; reset: boolean; family: boolean; review: boolean };
  documentsDialog: StudentDocumentsDialog;
  familyDialog?: StudentFamilyDialog;
  reviewDialog?: StudentReviewDialog;
}) {
  const of = (kind: StudentDialogKind) => (dialog && dialog.kind === kind && 'student' in dialog ? dialog.student : null);
  const formStudent = of('form');
  const documentsStudent = of('documents');
  const familyStudent = of('family');
  const reviewStudent = of('review');
  const historyStudent = of('history');
  return (
    <Suspense fallback={null}>
      {opened.has('form') && (
        <PdfDialog
          url={formStudent ? registrationFormUrl(formStudent.id) : null}
          title={formStudent ? `Registration Form — ${listName(formStudent)} (${formStudent.id})` : ''}
          onClose={close}
        />
      )}
      {may.edit && opened.has('edit') && <EditStudentDialog student={of('edit')} onClose={close} />}
      {opened.has('history') && <StudentHistoryDialog student={historyStudent ? { id: historyStudent.id, name: listName(historyStudent) || historyStudent.id } : null} onClose={close} />}
      {may.reset && opened.has('reset') && <ResetPasswordDialog student={of('reset')} onClose={close} />}
      {opened.has('documents') && <DocumentsDialog student={documentsStudent ? { id: documentsStudent.id, name: listName(documentsStudent) || documentsStudent.id } : null} onClose={close} />}
      {may.family && FamilyDialog && opened.has('family') && <FamilyDialog student={familyStudent ? { id: familyStudent.id, name: listName(familyStudent) || familyStudent.id } : null} onClose={close} />}
      {may.review && ReviewDialog && opened.has('review') && <ReviewDialog student={reviewStudent ? { id: reviewStudent.id, name: listName(reviewStudent) || reviewStudent.id } : null} onClose={close} />}
      {may.add && opened.has('add') && <AddStudentDialog open={dialog?.kind === 'add'} onClose={close} onAdded={onAdded} />}
    </Suspense>
  );
}
