import { useEffect, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { NoticeSettingsSchema } from '../../shared/notices.schemas.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { PHONE_TABLE_SX } from '../components/table-priority.js';
import { errorMessage } from '../lib/api-client.js';
import { fieldErrorsOf, type FieldErrors } from '../lib/form-errors.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { useNoticeSettings, useReminderPreview, useSendReminders, useUpdateNoticeSettings } from './notices.api.js';

const helperRole = (message: string | undefined) => (message ? { role: 'alert' } : {});

/**
 * Family Messages (D57), for the office and administrators: the daily attendance digest
 * (on or off, and when), how many days before the registration deadline reminders may go, and the
 * reminders themselves: who they would reach, then Send.
 */
export function FamilyMessagesScreen() {
  usePageTitle('Family Messages');
  return (
    <Box sx={{ display: 'grid', gap: 2, minWidth: 0, gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <SettingsForm />
      <Reminders />
    </Box>
  );
}

function SettingsForm() {
  const settings = useNoticeSettings();
  const update = useUpdateNoticeSettings();
  const showSnackbar = useSnackbar();
  const [enabled, setEnabled] = useState(true);
  const [time, setTime] = useState('');
  const [days, setDays] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  useEffect(() => {
    if (!settings.data) return;
    setEnabled(settings.data.digest_enabled);
    setTime(settings.data.digest_time);
    setDays(String(settings.data.reminder_days));
  }, [settings.data]);

  const save = (event: FormEvent) => {
    event.preventDefault();
    const parsed = NoticeSettingsSchema.safeParse({ digest_enabled: enabled, digest_time: time, reminder_days: days.trim() === '' ? Number.NaN : Number(days) });
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error));
      return;
    }
    setErrors({});
    update.mutate(parsed.data, {
      onSuccess: (saved) => showSnackbar(saved.digest_enabled ? `Attendance digest at ${saved.digest_time}; reminders ${saved.reminder_days} days ahead` : 'Attendance digest turned off'),
      onError: (cause) => showSnackbar(errorMessage(cause), 'error'),
    });
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h1" sx={{ fontSize: '1.5rem' }}>
        Family Messages
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Every message also appears on the family's Notices page. Families may turn off the digest and the reminders themselves.
      </Typography>
      <Box component="form" method="post" noValidate onSubmit={save} sx={{ display: 'grid', gap: 2, maxWidth: 480 }}>
        <FormControlLabel control={<Switch checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />} label="Send the daily attendance digest" />
        <TextField
          type="time"
          name="digest_time"
          label="Digest time"
          value={time}
          onChange={(event) => setTime(event.target.value)}
          error={errors.digest_time !== undefined}
          helperText={errors.digest_time ?? "The school's time; lists that day's absences and lates"}
          slotProps={{ inputLabel: { shrink: true }, formHelperText: helperRole(errors.digest_time) }}
        />
        <TextField
          type="number"
          name="reminder_days"
          label="Days before the registration deadline"
          value={days}
          onChange={(event) => setDays(event.target.value)}
          error={errors.reminder_days !== undefined}
          helperText={errors.reminder_days ?? 'Reminders may be sent from this many days before a deadline (1–60)'}
          slotProps={{ htmlInput: { min: 1, max: 60 }, formHelperText: helperRole(errors.reminder_days) }}
        />
        <Box>
          <Button type="submit" variant="contained" disabled={update.isPending || settings.isPending}>
            Save
          </Button>
        </Box>
      </Box>
      {settings.isError && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {errorMessage(settings.error)}
        </Alert>
      )}
    </Paper>
  );
}

function Reminders() {
  const preview = useReminderPreview();
  const send = useSendReminders();
  const showSnackbar = useSnackbar();
  const [asking, setAsking] = useState(false);
  const recipients = preview.data?.recipients ?? [];
  const confirm = () =>
    send.mutate(undefined, {
      onSuccess: (answer) => {
        setAsking(false);
        showSnackbar(answer.sent === 1 ? 'Reminder sent to 1 family' : `Reminders sent to ${answer.sent} families`);
      },
      onError: (cause) => {
        setAsking(false);
        showSnackbar(errorMessage(cause), 'error');
      },
    });
  return (
    <Paper variant="outlined" component="section" aria-labelledby="reminders-heading" sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}>
      <Typography id="reminders-heading" variant="h2" sx={{ fontSize: '1.25rem' }}>
        Registration deadline reminders
      </Typography>
      {preview.isError ? (
        <Alert severity="error" role="alert">
          {errorMessage(preview.error)}
        </Alert>
      ) : preview.data ? (
        <>
          <Typography sx={{ my: 1 }}>
            {recipients.length === 0 ? 'No family would be reminded now' : `${recipients.length === 1 ? '1 family' : `${recipients.length} families`} would be reminded now`} (records not
            submitted, deadline within {preview.data.reminder_days} days).
            {preview.data.skipped > 0 && ` ${preview.data.skipped} left out (reminded in the last 7 days, or turned reminders off).`}
            {preview.data.unreachable_students > 0 && ` ${preview.data.unreachable_students} unfinished records have no family account and no verified parent e-mail.`}
          </Typography>
          {recipients.length > 0 && (
            <TableContainer sx={{ maxHeight: 420 }}>
              <Table size="small" stickyHeader aria-label="Families to be reminded" sx={PHONE_TABLE_SX}>
                <TableHead>
                  <TableRow>
                    <TableCell>To</TableCell>
                    <TableCell>Children</TableCell>
                    <TableCell>Deadline</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {recipients.map((recipient) => (
                    <TableRow key={recipient.email}>
                      <TableCell sx={{ overflowWrap: 'anywhere' }}>
                        {recipient.name ? `${recipient.name} · ` : ''}
                        {recipient.email}
                        {recipient.account ? '' : ' (verified e-mail)'}
                      </TableCell>
                      <TableCell>{recipient.students.map((student) => student.name).join(', ')}</TableCell>
                      <TableCell>{[...new Set(recipient.students.map((student) => student.deadline))].join(', ')}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
          <Button variant="contained" sx={{ mt: 2 }} disabled={recipients.length === 0 || send.isPending} onClick={() => setAsking(true)}>
            Send reminders
          </Button>
        </>
      ) : (
        <Typography>Loading who would be reminded…</Typography>
      )}
      <ConfirmDialog open={asking} title="Send the reminders?" confirmLabel="Send" onConfirm={confirm} onCancel={() => setAsking(false)} busy={send.isPending}>
        {recipients.length === 1 ? '1 family' : `${recipients.length} families`} will receive one e-mail each. A family is reminded at most once a week.
      </ConfirmDialog>
    </Paper>
  );
}
