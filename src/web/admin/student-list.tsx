import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import EditIcon from '@mui/icons-material/Edit';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import FamilyRestroomIcon from '@mui/icons-material/FamilyRestroom';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import FolderOpenIcon from '@mui/icons-material/FolderOpen';
import HistoryIcon from '@mui/icons-material/History';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import LockResetIcon from '@mui/icons-material/LockReset';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import SearchIcon from '@mui/icons-material/Search';
import SummarizeIcon from '@mui/icons-material/Summarize';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { GridPaginationModel, GridRowSelectionModel, GridSortModel } from '@mui/x-data-grid';
import { NavigationType, useNavigate, useNavigationType } from 'react-router';
import {
  ADMIN_MESSAGES,
  DEFAULT_STUDENT_SORT,
  REGISTRATION_STATES,
  REGISTRATION_STATE_LABELS,
  STUDENT_PAGE_SIZES,
  STUDENT_SORT_FIELDS,
  callListUrl,
  listName,
  matchesStudentFilter,
  registrationFormUrl,
  type AdminStudent,
  type RegistrationState,
  type StudentListFilter,
  type StudentListPageRequest,
  type StudentSortField,
} from '../../shared/admin.schemas.js';
import { FROM_STUDENT_LIST } from '../components/back-to-students.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage } from '../lib/api-client.js';
import { useFormClasses } from '../lib/form-classes.js';
import { useSession } from '../lib/session.js';
import { canTake, classChoicesFor, firstClassOf, reachesEveryClass } from '../lib/staff-access.js';
import { useDebouncedValue } from '../lib/use-debounced-value.js';
import { usePainted } from '../lib/use-painted.js';
import { useDownloadFile, useStudentPage, useStudents } from './admin.api.js';
import { useEnrolmentActions } from './enrolment-actions.js';
import type { StudentRowAction } from './student-row-actions.js';
import type { BulkSelection } from '../../shared/bulk.schemas.js';

// The grid and the dialogs are most of the list's code: the search, filters and total paint
// first, the grid arrives after them, and each dialog's code comes the first time it opens (D64).
const StudentGrid = lazy(() => import('./student-grid.js'));
const AddStudentDialog = lazy(async () => ({ default: (await import('./add-student-dialog.js')).AddStudentDialog }));
const EditStudentDialog = lazy(async () => ({ default: (await import('./edit-student-dialog.js')).EditStudentDialog }));
const StudentHistoryDialog = lazy(async () => ({ default: (await import('./student-history-dialog.js')).StudentHistoryDialog }));
const ResetPasswordDialog = lazy(async () => ({ default: (await import('./reset-password-dialog.js')).ResetPasswordDialog }));
const PdfDialog = lazy(async () => ({ default: (await import('../components/pdf-view.js')).PdfDialog }));
const BulkActions = lazy(() => import('./bulk-actions.js'));

/** No row ticked. */
const NOTHING_TICKED: GridRowSelectionModel = { type: 'include', ids: new Set() };

/** Where the grid will be, while its code comes. */
function GridPlaceholder() {
  return <Skeleton variant="rounded" height="100%" role="progressbar" aria-label="Loading the list" />;
}

interface KeptFilters {
  search: string;
  classId: string;
  registration: RegistrationState | '';
}

/**
 * The search and filters the list had when a row action left it for a student's screen. They come
 * back when the person returns by going back (a "pop": the Back to students button or the
 * browser's back), not when the list is chosen afresh from the menu. In the tab's sessionStorage,
 * which sign-out clears.
 */
const KEPT_FILTERS_KEY = 'portal.studentList.filters';

function readKeptFilters(): KeptFilters | null {
  try {
    const kept = JSON.parse(window.sessionStorage.getItem(KEPT_FILTERS_KEY) ?? 'null') as Partial<KeptFilters> | null;
    if (!kept) return null;
    const registration = REGISTRATION_STATES.find((state) => state === kept.registration) ?? '';
    return { search: String(kept.search ?? ''), classId: String(kept.classId ?? ''), registration };
  } catch {
    return null;
  }
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

/** How long the search waits for typing to pause before a large school's list asks the server. */
const SERVER_SEARCH_DELAY_MS = 300;

/** The server's sort for the grid's sort model: a sortable column, or the list's own order (class, then name: D82). */
function serverSortOf(model: GridSortModel): Pick<StudentListPageRequest, 'sort' | 'direction'> {
  const first = model[0];
  const sort = STUDENT_SORT_FIELDS.find((field): field is StudentSortField => field === first?.field);
  return sort && first?.sort ? { sort, direction: first.sort } : { ...DEFAULT_STUDENT_SORT };
}

/** The grid opens sorted by class (then name), its arrow on the Class column saying so (D82). */
const DEFAULT_SORT_MODEL: GridSortModel = [{ field: DEFAULT_STUDENT_SORT.sort, sort: DEFAULT_STUDENT_SORT.direction }];

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
  const mayAdd = canTake(user, 'students.add');
  const mayExport = canTake(user, 'students.export');
  const mayEdit = canTake(user, 'student.edit');
  const mayReset = canTake(user, 'student.reset-password');
  const mayFamily = canTake(user, 'student.family') && FamilyDialog !== undefined;
  const mayReview = canTake(user, 'registrations.review') && ReviewDialog !== undefined;
  const mayLetters = canTake(user, 'families.manage') && ClassToolsOf !== undefined;
  // The history, Readmit; a former student's row has no Edit or Reset password (D80).
  const { forRow: withEnrolmentActions, extraCount: enrolmentActionCount, dialog: enrolmentDialog } = useEnrolmentActions();
  // Former students (a year rollover's leavers, D60) are left out unless asked for.
  const [withFormer, setWithFormer] = useState(false);
  const navigate = useNavigate();
  const navigationType = useNavigationType();
  // Back from a student's screen, the list shows the search and filters it had.
  const [kept] = useState(() => (navigationType === NavigationType.Pop ? readKeptFilters() : null));
  const [search, setSearch] = useState(kept?.search ?? '');
  const deferredSearch = useDeferredValue(search);
  // One class of their own needs no filter: the list holds only it.
  const [classId, setClassId] = useState(() => kept?.classId ?? ((user?.class_ids.length ?? 0) > 1 ? firstClassOf(user) : ''));
  const [registration, setRegistration] = useState<RegistrationState | ''>(kept?.registration ?? '');
  const classes = useFormClasses();
  const classChoices = classChoicesFor(user, classes.data ?? []);
  const showsClassChoice = everyClass || classChoices.length > 1;
  const download = useDownloadFile();
  const snackbar = useSnackbar();
  const filterWith = (text: string): StudentListFilter => ({
    ...(text !== '' ? { search: text } : {}),
    ...(classId !== '' ? { class_id: classId } : {}),
    ...(registration !== '' ? { registration } : {}),
    ...(withFormer ? { former: 'include' as const } : {}),
  });
  const filter = filterWith(deferredSearch.trim());
  const filtered = Object.keys(filter).length > 0;
  const [paginationModel, setPaginationModel] = useState<GridPaginationModel>({ page: 0, pageSize: STUDENT_PAGE_SIZES[0] });
  const [sortModel, setSortModel] = useState<GridSortModel>(DEFAULT_SORT_MODEL);
  // The first page is asked of the server whatever the school's size; its answer says whether the
  // list stays on the server (a large school) or loads whole and works here (a small one).
  const [clientMode, setClientMode] = useState(false);
  const [serverSearch] = useDebouncedValue(search.trim(), SERVER_SEARCH_DELAY_MS);
  const pageRequest: StudentListPageRequest = { ...filterWith(serverSearch), ...serverSortOf(sortModel), page: paginationModel.page, page_size: paginationModel.pageSize };
  const studentPage = useStudentPage(pageRequest, !clientMode);
  const serverMode = !clientMode && studentPage.data?.serverMode === true;
  useEffect(() => {
    if (studentPage.data?.serverMode === false) setClientMode(true);
  }, [studentPage.data?.serverMode]);
  const students = useStudents(withFormer, clientMode);
  // A new search or filter starts at the first page.
  useEffect(() => {
    setPaginationModel((model) => (model.page === 0 ? model : { ...model, page: 0 }));
  }, [serverSearch, classId, registration, withFormer]);
  const [dialog, setDialog] = useState<Dialog>(null);
  // Bulk actions (docs/decisions.md D83): rows ticked, or the whole filtered list as its filter.
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
  // The grid's code is asked for once the search and filters are on screen: rendered in the same
  // pass, React would hold the whole list back until the grid's code had come (D64).
  const gridWanted = usePainted();
  // A dialog stays mounted once opened, so it closes with its transition; its code loads on first opening.
  const [opened, setOpened] = useState<ReadonlySet<DialogKind>>(() => new Set());
  const openDialog = useCallback((next: NonNullable<Dialog>) => {
    setOpened((kinds) => (kinds.has(next.kind) ? kinds : new Set([...kinds, next.kind])));
    setDialog(next);
  }, []);
  // What the list keeps when a row action leaves it; a ref, so the columns are not rebuilt per keystroke.
  const filters = useRef<KeptFilters>({ search, classId, registration });
  useEffect(() => {
    filters.current = { search, classId, registration };
  });
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));

  const clientRows = useMemo(
    () =>
      (students.data ?? []).filter((student) =>
        matchesStudentFilter(student, { search: deferredSearch, ...(classId ? { class_id: classId } : {}), ...(registration ? { registration } : {}) }),
      ),
    [students.data, deferredSearch, classId, registration],
  );
  const rows = serverMode ? (studentPage.data?.rows ?? []) : clientRows;
  const found = serverMode ? (studentPage.data?.total ?? 0) : clientRows.length;
  const loaded = serverMode ? studentPage.data !== undefined : students.data !== undefined;
  const listError = serverMode || !clientMode ? studentPage.error : students.error;

  // The call list holds exactly the rows the filters show, with the parents' phones and e-mails.
  const exportCallList = () =>
    download.mutate(
      { url: callListUrl(filter), fileName: 'Call List.xlsx' },
      { onError: (cause) => snackbar(errorMessage(cause), 'error') },
    );

  // A row's actions; the grid draws them as icon buttons, or on a phone as one menu.
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
    [navigate, openDialog, mayEdit, mayReset, mayFamily, mayReview, withEnrolmentActions],
  );
  const actionCount = 5 + (mayEdit ? 1 : 0) + (mayReset ? 1 : 0) + (mayFamily ? 1 : 0) + (mayReview ? 1 : 0) + enrolmentActionCount;

  const total = serverMode ? (studentPage.data?.totalStudents ?? 0) : (students.data?.length ?? 0);
  // The header's "all" box ticks every selectable row it holds; the list keeps the ids either way.
  const tickedIds = ticked.type === 'include' ? [...ticked.ids].map(String) : rows.filter((row) => !row.left_on && !ticked.ids.has(row.id)).map((row) => row.id);
  const selection: BulkSelection | null = allMatching ? { kind: 'filter', filter } : tickedIds.length > 0 ? { kind: 'ids', ids: tickedIds } : null;
  const onTick = (model: GridRowSelectionModel) => {
    setAllMatching(false);
    setTicked(model);
  };
  const close = () => setDialog(null);
  const of = (kind: StudentDialogKind) => (dialog && dialog.kind === kind && 'student' in dialog ? dialog.student : null);
  const formStudent = of('form');
  const documentsStudent = of('documents');
  const familyStudent = of('family');
  const reviewStudent = of('review');
  const historyStudent = of('history');

  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
      <Box sx={{ display: 'grid', gap: 2, mb: 1.5, gridTemplateColumns: { xs: '1fr 1fr', md: 'minmax(0, 2fr) minmax(0, 1fr) minmax(0, 1fr)' } }}>
        <TextField
          label="Search students"
          placeholder="ID, name, pin, class or date of birth"
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          size="small"
          sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}
          slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon aria-hidden /></InputAdornment> } }}
        />
        {showsClassChoice && (
          <TextField select label="Class" value={classId} onChange={(event) => setClassId(event.target.value)} size="small" fullWidth>
            <MenuItem value="">{everyClass ? 'All classes' : 'All my classes'}</MenuItem>
            {classChoices.map((formClass) => (
              <MenuItem key={formClass.id} value={formClass.id}>
                {formClass.id}
              </MenuItem>
            ))}
          </TextField>
        )}
        <TextField
          select
          label="Registration"
          value={registration}
          onChange={(event) => setRegistration(event.target.value as RegistrationState | '')}
          size="small"
          fullWidth
          sx={showsClassChoice ? undefined : { gridColumn: { xs: '1 / -1', md: 'span 2' } }}
        >
          <MenuItem value="">Any stage</MenuItem>
          {REGISTRATION_STATES.map((state) => (
            <MenuItem key={state} value={state}>
              {REGISTRATION_STATE_LABELS[state]}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
        {/* The count only once it is known: a list still loading is not a school of 0. */}
        <Typography role="status" aria-live="polite" sx={{ fontWeight: 500 }}>
          {loaded ? ADMIN_MESSAGES.totalStudents(total) : listError ? '' : 'Loading students…'}
          {filtered && loaded && ` · ${found} found`}
        </Typography>
        <FormControlLabel control={<Checkbox size="small" checked={withFormer} onChange={(event) => setWithFormer(event.target.checked)} />} label="Include former students" />
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', ml: { sm: 'auto' } }}>
          {mayExport && (
            <Button variant="outlined" startIcon={<FileDownloadIcon />} onClick={exportCallList} disabled={download.isPending || found === 0}>
              Export call list
            </Button>
          )}
          {mayLetters && classId !== '' && ClassToolsOf && <ClassToolsOf classId={classId} />}
          {mayAdd && (
            <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => openDialog({ kind: 'add' })}>
              Add student
            </Button>
          )}
        </Box>
      </Box>
      <Suspense fallback={null}>
        <BulkActions
          selectedCount={allMatching ? found : tickedIds.length}
          allMatching={allMatching}
          found={found}
          selection={selection}
          onSelectAll={() => setAllMatching(true)}
          onClear={clearSelection}
          onDone={clearSelection}
          classes={classChoices}
          classId={classId}
          may={bulk}
          narrow={narrow}
        />
      </Suspense>
      {listError && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {errorMessage(listError)}
        </Alert>
      )}
      <Box sx={{ height: { xs: 520, md: 'max(440px, calc(100vh - 350px))' }, width: '100%' }}>
        <Suspense fallback={<GridPlaceholder />}>
          {gridWanted ? <StudentGrid
            rows={rows}
            loading={!loaded || (serverMode && studentPage.isFetching)}
            serverMode={serverMode}
            rowCount={found}
            paginationModel={paginationModel}
            onPaginationModelChange={setPaginationModel}
            sortModel={sortModel}
            onSortModelChange={setSortModel}
            filtered={filtered}
            narrow={narrow}
            actionsOf={actionsOf}
            actionCount={actionCount}
            selection={mayTick ? { model: allMatching ? { type: 'exclude', ids: new Set() } : ticked, onChange: onTick } : undefined}
          /> : <GridPlaceholder />}
        </Suspense>
      </Box>
      <Suspense fallback={null}>
        {opened.has('form') && (
          <PdfDialog
            url={formStudent ? registrationFormUrl(formStudent.id) : null}
            title={formStudent ? `Registration Form — ${listName(formStudent)} (${formStudent.id})` : ''}
            onClose={close}
          />
        )}
        {mayEdit && opened.has('edit') && <EditStudentDialog student={of('edit')} onClose={close} />}
        {opened.has('history') && <StudentHistoryDialog student={historyStudent ? { id: historyStudent.id, name: listName(historyStudent) || historyStudent.id } : null} onClose={close} />}
        {mayReset && opened.has('reset') && <ResetPasswordDialog student={of('reset')} onClose={close} />}
        {opened.has('documents') && <DocumentsDialog student={documentsStudent ? { id: documentsStudent.id, name: listName(documentsStudent) || documentsStudent.id } : null} onClose={close} />}
        {mayFamily && FamilyDialog && opened.has('family') && <FamilyDialog student={familyStudent ? { id: familyStudent.id, name: listName(familyStudent) || familyStudent.id } : null} onClose={close} />}
        {mayReview && ReviewDialog && opened.has('review') && <ReviewDialog student={reviewStudent ? { id: reviewStudent.id, name: listName(reviewStudent) || reviewStudent.id } : null} onClose={close} />}
        {mayAdd && opened.has('add') && <AddStudentDialog open={dialog?.kind === 'add'} onClose={close} onAdded={(student) => setSearch(student.id)} />}
      </Suspense>
      {enrolmentDialog}
    </Paper>
  );
}
