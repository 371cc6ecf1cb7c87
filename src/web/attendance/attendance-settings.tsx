import { useEffect, useState, type FormEvent } from 'react';
import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { AttendanceSettingsSchema, CreateSchoolHolidaySchema, type SchoolHoliday } from '../../shared/attendance.schemas.js';
import {
  useAddSchoolHoliday,
  useAttendanceSettings,
  useRemoveSchoolHoliday,
  useSchoolHolidays,
  useUpdateAttendanceSettings,
} from './attendance-admin.api.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { PHONE_TABLE_SX } from '../components/table-priority.js';
import { errorMessage } from '../lib/api-client.js';
import { fieldErrorsOf, type FieldErrors } from '../lib/form-errors.js';
import { usePageTitle } from '../lib/use-page-title.js';

const alertHelper = (message: string | undefined) => (message ? { role: 'alert' } : {});

/**
 * Attendance Settings: the bell time (arriving after it is late) and the school
 * holidays, which are not school days: possible attendance leaves them out at once. Removing a
 * holiday asks first and can be undone from the snackbar.
 */
export function AttendanceSettings() {
  usePageTitle('Attendance Settings');
  return (
    <Box sx={{ display: 'grid', gap: 2, minWidth: 0, gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <BellTimeForm />
      <SchoolHolidays />
    </Box>
  );
}

function BellTimeForm() {
  const settings = useAttendanceSettings();
  const update = useUpdateAttendanceSettings();
  const showSnackbar = useSnackbar();
  const [bellTime, setBellTime] = useState('');
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (settings.data) setBellTime(settings.data.bell_time);
  }, [settings.data]);

  const save = (event: FormEvent) => {
    event.preventDefault();
    const parsed = AttendanceSettingsSchema.safeParse({ bell_time: bellTime });
    if (!parsed.success) {
      setError(fieldErrorsOf(parsed.error).bell_time);
      return;
    }
    setError(undefined);
    update.mutate(parsed.data, { onSuccess: (saved) => showSnackbar(`Bell time set to ${saved.bell_time}`) });
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h1" sx={{ fontSize: '1.5rem' }}>
        Attendance Settings
      </Typography>
      <Typography variant="h2" sx={{ fontSize: '1.15rem', mt: 2 }}>
        Bell time
      </Typography>
      <Typography color="text.secondary">A student whose first scan of the day is after the bell time is late. A change applies to scans from then on.</Typography>
      <Box component="form" method="post" noValidate onSubmit={save} sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <TextField
          type="time"
          name="bell_time"
          label="Bell time"
          value={bellTime}
          onChange={(event) => setBellTime(event.target.value)}
          error={error !== undefined}
          helperText={error ?? 'HH:mm, 24-hour clock'}
          slotProps={{ inputLabel: { shrink: true }, formHelperText: alertHelper(error) }}
          sx={{ maxWidth: 200 }}
        />
        <Button type="submit" variant="contained" disabled={update.isPending || settings.isPending} sx={{ mt: { xs: 0, sm: 3 } }}>
          Save
        </Button>
      </Box>
      {(settings.isError || update.isError) && (
        <Alert severity="error" role="alert">
          {errorMessage(settings.error ?? update.error)}
        </Alert>
      )}
    </Paper>
  );
}

function SchoolHolidays() {
  const holidays = useSchoolHolidays();
  const add = useAddSchoolHoliday();
  const remove = useRemoveSchoolHoliday();
  const showSnackbar = useSnackbar();
  const [removing, setRemoving] = useState<SchoolHoliday | null>(null);

  // Undo adds the same date and name back through the same call as the form.
  const undoRemove = (holiday: SchoolHoliday) =>
    add.mutate({ date: holiday.date, name: holiday.name }, { onSuccess: () => showSnackbar(`${holiday.date} ${holiday.name} restored`) });
  const confirmRemove = () => {
    const holiday = removing;
    setRemoving(null);
    if (!holiday) return;
    remove.mutate(holiday.id, {
      onSuccess: () => showSnackbar(`${holiday.date} ${holiday.name} removed`, 'success', { label: 'Undo', onClick: () => undoRemove(holiday) }),
    });
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h2" sx={{ fontSize: '1.15rem' }}>
        School holidays
      </Typography>
      <Typography color="text.secondary">Days the school is closed. Weekends are never school days and need not be listed.</Typography>
      <AddHolidayForm add={add} />
      {(add.isError || remove.isError || holidays.isError) && (
        <Alert severity="error" role="alert">
          {errorMessage(add.error ?? remove.error ?? holidays.error)}
        </Alert>
      )}
      <HolidaysTable holidays={holidays.data} removeDisabled={remove.isPending} onRemove={setRemoving} />
      <ConfirmDialog
        open={removing !== null}
        title="Remove this holiday?"
        confirmLabel="Remove"
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(null)}
      >
        {removing && `${removing.date} ${removing.name} becomes a school day again: attendance counts it as possible from now on.`}
      </ConfirmDialog>
    </Paper>
  );
}

/**
 * The date and name of a new holiday, checked with the server's own schema. It sends through
 * the list's `add`, which Undo also uses, so both share one pending state and one error.
 */
function AddHolidayForm({ add }: { add: ReturnType<typeof useAddSchoolHoliday> }) {
  const showSnackbar = useSnackbar();
  const [date, setDate] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = CreateSchoolHolidaySchema.safeParse({ date, name });
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error));
      return;
    }
    setErrors({});
    add.mutate(parsed.data, {
      onSuccess: (holiday) => {
        setDate('');
        setName('');
        showSnackbar(`${holiday.date} ${holiday.name} added`);
      },
    });
  };

  return (
    <Box component="form" method="post" noValidate onSubmit={submit} sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap' }}>
      {/* Text, not the browser's date input, which shows the computer's own order (docs/requirements.md R17: yyyy-MM-dd). */}
      <TextField
        name="holiday_date"
        label="Date"
        placeholder="yyyy-MM-dd"
        value={date}
        onChange={(event) => setDate(event.target.value)}
        error={errors.date !== undefined}
        helperText={errors.date ?? 'yyyy-MM-dd'}
        slotProps={{ inputLabel: { shrink: true }, formHelperText: alertHelper(errors.date) }}
        sx={{ maxWidth: 200 }}
      />
      <TextField
        name="holiday_name"
        label="Name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={errors.name !== undefined}
        helperText={errors.name ?? 'For example: Divali'}
        slotProps={{ htmlInput: { maxLength: 100 }, formHelperText: alertHelper(errors.name) }}
        sx={{ maxWidth: 320 }}
      />
      <Button type="submit" variant="contained" disabled={add.isPending} sx={{ mt: { xs: 0, sm: 3 } }}>
        Add Holiday
      </Button>
    </Box>
  );
}

interface HolidaysTableProps {
  holidays: SchoolHoliday[] | undefined;
  removeDisabled: boolean;
  onRemove: (holiday: SchoolHoliday) => void;
}

function HolidaysTable({ holidays, removeDisabled, onRemove }: HolidaysTableProps) {
  return (
    <TableContainer sx={{ mt: 2, maxHeight: '50vh' }}>
      <Table size="small" stickyHeader aria-label="School holidays" sx={PHONE_TABLE_SX}>
        <TableHead>
          <TableRow>
            <TableCell>Date</TableCell>
            <TableCell>Name</TableCell>
            <TableCell align="right">Remove</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {(holidays ?? []).map((holiday) => (
            <TableRow key={holiday.id}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{holiday.date}</TableCell>
              <TableCell>{holiday.name}</TableCell>
              <TableCell align="right">
                <IconButton
                  aria-label={`Remove ${holiday.date} ${holiday.name}`}
                  disabled={removeDisabled}
                  onClick={() => onRemove(holiday)}
                >
                  <DeleteIcon />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
          {holidays?.length === 0 && (
            <TableRow>
              <TableCell colSpan={3} align="center" sx={{ color: 'text.secondary', py: 3 }}>
                No school holidays listed.
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
