import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
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
import { schoolToday } from '../../shared/dates.js';
import { FORM_LEVELS, SaveRegistrationPeriodSchema, type RegistrationPeriod } from '../../shared/registration.schemas.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage } from '../lib/api-client.js';
import { firstIssueMessage } from '../lib/form-errors.js';
import { useRegistrationPeriods, useRemoveRegistrationPeriod, useSaveRegistrationPeriod } from './registration.api.js';

const ALL = 'all';
const scopeLabel = (formLevel: number | null) => (formLevel === null ? 'All forms (default)' : `Form ${formLevel}`);

function windowText(period: RegistrationPeriod): string {
  if (period.open !== 1) return 'Closed';
  if (period.deadline === null) return 'Open, no deadline';
  return schoolToday() > period.deadline ? `Deadline ${period.deadline} passed` : `Open until ${period.deadline}`;
}

/**
 * Registration settings (admin): open or close registration and set its deadline, for every form
 * (the default) or one form level (its own window wins over the default). The server enforces it.
 */
export function RegistrationSettings() {
  const periods = useRegistrationPeriods();
  const save = useSaveRegistrationPeriod();
  const remove = useRemoveRegistrationPeriod();
  const snackbar = useSnackbar();
  const [scope, setScope] = useState<string>(ALL);
  const [open, setOpen] = useState(true);
  const [deadline, setDeadline] = useState('');
  const [error, setError] = useState<string | null>(null);

  const formLevel = scope === ALL ? null : Number(scope);
  function pickScope(next: string) {
    setScope(next);
    const level = next === ALL ? null : Number(next);
    const current = periods.data?.find((p) => p.form_level === level);
    setOpen(current ? current.open === 1 : true);
    setDeadline(current?.deadline ?? '');
    setError(null);
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = SaveRegistrationPeriodSchema.safeParse({ form_level: formLevel, open: open ? 1 : 0, deadline: deadline === '' ? null : deadline });
    if (!parsed.success) {
      setError(firstIssueMessage(parsed.error));
      return;
    }
    setError(null);
    try {
      await save.mutateAsync(parsed.data);
      snackbar(`${scopeLabel(formLevel)}: registration settings saved.`);
    } catch (cause) {
      setError(errorMessage(cause));
    }
  }

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h1">Registration Settings</Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5 }}>
        Students can change their registration only while it is open and the deadline (inclusive, Trinidad time) has not passed.
      </Typography>

      <TableContainer sx={{ mt: 2 }}>
        <Table size="small" aria-label="Registration windows">
          <TableHead>
            <TableRow>
              <TableCell>Applies to</TableCell>
              <TableCell>Open</TableCell>
              <TableCell>Deadline</TableCell>
              <TableCell>Status</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(periods.data ?? []).map((period) => (
              <TableRow key={period.form_level ?? ALL}>
                <TableCell>{scopeLabel(period.form_level)}</TableCell>
                <TableCell>{period.open === 1 ? 'Yes' : 'No'}</TableCell>
                <TableCell>{period.deadline ?? '—'}</TableCell>
                <TableCell>{windowText(period)}</TableCell>
                <TableCell align="right">
                  <Button size="small" onClick={() => pickScope(period.form_level === null ? ALL : String(period.form_level))}>
                    Edit
                  </Button>
                  {period.form_level !== null && (
                    <Button
                      size="small"
                      color="error"
                      onClick={() =>
                        remove.mutate(period.form_level!, {
                          onSuccess: () => snackbar(`${scopeLabel(period.form_level)} now follows the default.`),
                          onError: (cause) => setError(errorMessage(cause)),
                        })
                      }
                    >
                      Use default
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
            {periods.data?.length === 0 && (
              <TableRow>
                <TableCell colSpan={5}>No window is set: registration is closed for everyone.</TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>

      <Box component="form" onSubmit={(event) => void submit(event)} noValidate sx={{ mt: 3, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, alignItems: 'center' }}>
        <TextField select label="Applies to" value={scope} onChange={(event) => pickScope(event.target.value)} margin="none">
          <MenuItem value={ALL}>{scopeLabel(null)}</MenuItem>
          {FORM_LEVELS.map((level) => (
            <MenuItem key={level} value={String(level)}>
              {scopeLabel(level)}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel control={<Switch checked={open} onChange={(event) => setOpen(event.target.checked)} />} label="Registration open" />
        <TextField
          label="Deadline"
          type="date"
          value={deadline}
          onChange={(event) => setDeadline(event.target.value)}
          helperText="Last day students can make changes; leave empty for no deadline."
          margin="none"
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Box>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            Save settings
          </Button>
        </Box>
        {error && (
          <Alert severity="error" role="alert" sx={{ gridColumn: '1 / -1' }}>
            {error}
          </Alert>
        )}
      </Box>
    </Paper>
  );
}
