import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { academicYearLabel } from '../../shared/school.constants.js';
import { OpenReRegistrationSchema } from '../../shared/re-registration.schemas.js';
import { schoolDayOf } from '../../shared/dates.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { HIDE_ON_PHONE_SX, PHONE_TABLE_SX } from '../components/table-priority.js';
import { errorMessage } from '../lib/api-client.js';
import { firstIssueMessage } from '../lib/form-errors.js';
import { useCloseReRegistration, useOpenReRegistration, useReRegistrations } from './re-registration.api.js';

type Pending = { kind: 'open'; year: number } | { kind: 'close'; year: number };

/**
 * Re-registration (D62), under Registration Settings: the administrator opens a year's
 * re-registration without the year rollover (which opens it itself), sees how many returning
 * students have confirmed every step, and can close a year opened by mistake.
 */
export function ReRegistrationSettings() {
  const list = useReRegistrations();
  const open = useOpenReRegistration();
  const close = useCloseReRegistration();
  const show = useSnackbar();
  const [yearText, setYearText] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [error, setError] = useState<string | null>(null);
  const year = yearText ?? (list.data ? String(list.data.suggested_year) : '');

  function ask(event: React.FormEvent) {
    event.preventDefault();
    const parsed = OpenReRegistrationSchema.safeParse({ year });
    if (!parsed.success) return setError(firstIssueMessage(parsed.error));
    setError(null);
    setPending({ kind: 'open', year: parsed.data.year });
  }

  function apply(change: Pending) {
    const mutation = change.kind === 'open' ? open : close;
    mutation.mutate(change.year, {
      onSuccess: (answer) => (setPending(null), show(answer.message)),
      onError: (failure) => (setPending(null), setError(errorMessage(failure))),
    });
  }

  return (
    <Box component="section" aria-labelledby="re-registration-title" sx={{ mt: 4 }}>
      <Typography variant="h2" id="re-registration-title">
        Re-registration
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5 }}>
        At the start of a school year every returning student (each student in a class) is asked to confirm each step of their record: “Nothing changed”, or a
        correction. Families can confirm only while registration is open above. The office sees what changed under Review registration.
      </Typography>
      <Box component="form" method="post" onSubmit={ask} noValidate sx={{ mt: 2, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        <TextField
          label="Academic year starting"
          value={year}
          onChange={(event) => setYearText(event.target.value)}
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 4 } }}
          helperText={/^\d{4}$/.test(year) ? academicYearLabel(Number(year)) : 'e.g. 2026'}
          margin="none"
          sx={{ width: 200 }}
        />
        <Button type="submit" variant="contained" disabled={open.isPending}>
          Open re-registration
        </Button>
      </Box>
      {error && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}
      {(list.data?.years.length ?? 0) > 0 && (
        <TableContainer sx={{ mt: 2 }}>
          <Table size="small" aria-label="Re-registrations" sx={PHONE_TABLE_SX}>
            <TableHead>
              <TableRow>
                <TableCell>Year</TableCell>
                <TableCell sx={HIDE_ON_PHONE_SX}>Opened</TableCell>
                <TableCell>Confirmed</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.data?.years.map((row) => (
                <TableRow key={row.year} data-testid={`re-registration-year-${row.year}`}>
                  <TableCell>{academicYearLabel(row.year)}</TableCell>
                  <TableCell sx={HIDE_ON_PHONE_SX}>{schoolDayOf(row.opened_at)}</TableCell>
                  <TableCell>
                    {row.confirmed} of {row.students} students
                  </TableCell>
                  <TableCell align="right">
                    <Button size="small" color="error" onClick={() => setPending({ kind: 'close', year: row.year })} aria-label={`Close re-registration ${academicYearLabel(row.year)}`}>
                      Close
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <ConfirmDialog
        open={pending !== null}
        title={pending ? `${pending.kind === 'open' ? 'Open' : 'Close'} re-registration for ${academicYearLabel(pending.year)}?` : ''}
        confirmLabel={pending?.kind === 'close' ? 'Close re-registration' : 'Open re-registration'}
        onConfirm={() => {
          if (pending) apply(pending);
        }}
        onCancel={() => setPending(null)}
        busy={open.isPending || close.isPending}
      >
        {pending?.kind === 'open'
          ? 'Every student now in a class is asked to confirm each step of their record. Verified registrations stay verified (read-only to the family until reopened).'
          : 'The confirmations families made for this year are removed (the audit log keeps them), and nothing is asked any more.'}
      </ConfirmDialog>
    </Box>
  );
}
