import { useDeferredValue, useMemo, useState } from 'react';
import EditIcon from '@mui/icons-material/Edit';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
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
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { DataGrid, GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { useNavigate } from 'react-router';
import {
  ADMIN_MESSAGES,
  REGISTRATION_STATES,
  REGISTRATION_STATE_LABELS,
  callListUrl,
  listName,
  matchesStudentFilter,
  registrationFormUrl,
  type AdminStudent,
  type RegistrationState,
  type StudentListFilter,
} from '../../shared/admin.schemas.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage } from '../lib/api-client.js';
import { useFormClasses } from '../lib/form-classes.js';
import { useDownloadFile, useStudents } from './admin.api.js';
import { AddStudentDialog } from './add-student-dialog.js';
import { EditStudentDialog } from './edit-student-dialog.js';
import { PdfDialog } from '../components/pdf-view.js';
import { ResetPasswordDialog } from './reset-password-dialog.js';

type Dialog = { kind: 'form' | 'edit' | 'reset'; student: AdminStudent } | { kind: 'add' } | null;

/**
 * The dashboard's student list (SPEC §2): ID, Name ('Last, First'), Class, Date of Birth, Birth
 * Certificate Pin and Actions, newest change first; one search box over ID, names, pin, class
 * and date of birth, and filters by class and registration stage (not started, in progress,
 * complete); 'Total Number of Students: N'. Export call list downloads the rows shown with the
 * parents' phones and e-mails. The grid draws only the rows in view, so 2,000 students are
 * as quick as 20. Actions: the registration form, edit, reset password, and the student's term
 * reports (the term reports screen, which lets an administrator open unposted cards too). Add
 * student opens the Add Student form.
 */
export default function StudentList() {
  const students = useStudents();
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [classId, setClassId] = useState('');
  const [registration, setRegistration] = useState<RegistrationState | ''>('');
  const classes = useFormClasses();
  const download = useDownloadFile();
  const snackbar = useSnackbar();
  const filter: StudentListFilter = {
    ...(deferredSearch.trim() !== '' ? { search: deferredSearch.trim() } : {}),
    ...(classId !== '' ? { class_id: classId } : {}),
    ...(registration !== '' ? { registration } : {}),
  };
  const filtered = Object.keys(filter).length > 0;
  const [dialog, setDialog] = useState<Dialog>(null);
  const navigate = useNavigate();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));

  const rows = useMemo(
    () =>
      (students.data ?? []).filter((student) =>
        matchesStudentFilter(student, { search: deferredSearch, ...(classId ? { class_id: classId } : {}), ...(registration ? { registration } : {}) }),
      ),
    [students.data, deferredSearch, classId, registration],
  );

  // The call list holds exactly the rows the filters show, with the parents' phones and e-mails.
  const exportCallList = () =>
    download.mutate(
      { url: callListUrl(filter), fileName: 'Call List.xlsx' },
      { onError: (cause) => snackbar(errorMessage(cause), 'error') },
    );

  // On a phone the four actions fold into one menu so the row fits the screen.
  const columns = useMemo<GridColDef<AdminStudent>[]>(
    () => [
      { field: 'id', headerName: 'ID', width: narrow ? 92 : 110 },
      { field: 'name', headerName: 'Name', flex: 1, minWidth: narrow ? 110 : 160, valueGetter: (_value, row) => listName(row) },
      { field: 'class_id', headerName: 'Class', width: narrow ? 64 : 80 },
      { field: 'date_of_birth', headerName: 'Date of Birth', width: 120 },
      { field: 'birth_certificate_no', headerName: 'Birth Certificate Pin', width: 170 },
      {
        field: 'actions',
        type: 'actions',
        headerName: 'Actions',
        width: narrow ? 70 : 170,
        getActions: ({ row }) => [
          <GridActionsCellItem key="form" icon={<PictureAsPdfIcon />} label="View registration form" showInMenu={narrow} onClick={() => setDialog({ kind: 'form', student: row })} />,
          <GridActionsCellItem key="edit" icon={<EditIcon />} label="Edit" showInMenu={narrow} onClick={() => setDialog({ kind: 'edit', student: row })} />,
          <GridActionsCellItem key="reset" icon={<LockResetIcon />} label="Reset password" showInMenu={narrow} onClick={() => setDialog({ kind: 'reset', student: row })} />,
          <GridActionsCellItem key="terms" icon={<SummarizeIcon />} label="Term reports" showInMenu={narrow} onClick={() => void navigate(`/term-reports?student=${encodeURIComponent(row.id)}`)} />,
        ],
      },
    ],
    [narrow, navigate],
  );

  const total = students.data?.length ?? 0;
  const close = () => setDialog(null);
  const of = (kind: 'form' | 'edit' | 'reset') => (dialog && dialog.kind === kind && 'student' in dialog ? dialog.student : null);
  const formStudent = of('form');

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
        <TextField select label="Class" value={classId} onChange={(event) => setClassId(event.target.value)} size="small" fullWidth>
          <MenuItem value="">All classes</MenuItem>
          {(classes.data ?? []).map((formClass) => (
            <MenuItem key={formClass.id} value={formClass.id}>
              {formClass.id}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label="Registration"
          value={registration}
          onChange={(event) => setRegistration(event.target.value as RegistrationState | '')}
          size="small"
          fullWidth
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
        <Typography role="status" aria-live="polite" sx={{ fontWeight: 500 }}>
          {ADMIN_MESSAGES.totalStudents(total)}
          {filtered && students.data && ` · ${rows.length} found`}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', ml: { sm: 'auto' } }}>
          <Button variant="outlined" startIcon={<FileDownloadIcon />} onClick={exportCallList} disabled={download.isPending || rows.length === 0}>
            Export call list
          </Button>
          <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setDialog({ kind: 'add' })}>
            Add student
          </Button>
        </Box>
      </Box>
      {students.isError && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {errorMessage(students.error)}
        </Alert>
      )}
      <Box sx={{ height: { xs: 520, md: 'max(440px, calc(100vh - 350px))' }, width: '100%' }}>
        <DataGrid
          aria-label="Students"
          rows={rows}
          columns={columns}
          loading={students.isPending}
          density="compact"
          disableRowSelectionOnClick
          disableColumnMenu={narrow}
          columnVisibilityModel={narrow ? { date_of_birth: false, birth_certificate_no: false } : {}}
          initialState={{ pagination: { paginationModel: { pageSize: 25, page: 0 } } }}
          pageSizeOptions={[25, 50, 100]}
          localeText={{ noRowsLabel: filtered ? 'No student matches the search.' : 'No students yet.' }}
        />
      </Box>
      <PdfDialog
        url={formStudent ? registrationFormUrl(formStudent.id) : null}
        title={formStudent ? `Registration Form — ${listName(formStudent)} (${formStudent.id})` : ''}
        onClose={close}
      />
      <EditStudentDialog student={of('edit')} onClose={close} />
      <ResetPasswordDialog student={of('reset')} onClose={close} />
      <AddStudentDialog open={dialog?.kind === 'add'} onClose={close} onAdded={(student) => setSearch(student.id)} />
    </Paper>
  );
}
