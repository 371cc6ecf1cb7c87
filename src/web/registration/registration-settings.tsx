import { useEffect, useState } from 'react';
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
import { FORM_LEVELS, SaveRegistrationPeriodSchema, type RegistrationPeriod, type SaveRegistrationPeriodInput } from '../../shared/registration.schemas.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { HIDE_ON_PHONE_SX, PHONE_TABLE_SX } from '../components/table-priority.js';
import { errorMessage } from '../lib/api-client.js';
import { firstIssueMessage } from '../lib/form-errors.js';
import { useRegistrationPeriods, useRemoveRegistrationPeriod, useSaveRegistrationPeriod } from './registration.api.js';
import { ReRegistrationSettings } from './re-registration-settings.js';

const ALL = 'all';
const scopeLabel = (formLevel: number | null) => (formLevel === null ? 'All forms (default)' : `Form ${formLevel}`);

type WindowValues = Pick<RegistrationPeriod, 'open' | 'deadline'>;

function windowText(period: WindowValues): string {
  if (period.open !== 1) return 'Closed';
  if (period.deadline === null) return 'Open, no deadline';
  return schoolToday() > period.deadline ? `Deadline ${period.deadline} passed` : `Open until ${period.deadline}`;
}

/** What the form shows for a scope: its stored row, else (a form level) the default it follows, else closed as stored. */
function storedValuesFor(periods: readonly RegistrationPeriod[] | undefined, formLevel: number | null): WindowValues {
  const own = periods?.find((p) => p.form_level === formLevel);
  const followed = own ?? periods?.find((p) => p.form_level === null);
  return { open: followed?.open ?? 0, deadline: followed?.deadline ?? null };
}

type PendingChange =
  | { kind: 'save'; input: SaveRegistrationPeriodInput; previous: RegistrationPeriod | null }
  | { kind: 'remove'; period: RegistrationPeriod };

/**
 * Registration settings (admin): open or close registration and set its deadline, for every form
 * (the default) or one form level (its own window wins over the default). The server enforces it.
 * The form shows what is stored; a change to the default or a removal asks first, and every
 * change can be undone from the snackbar, which puts the previous values back through the same calls.
 */
export function RegistrationSettings() {
  const periods = useRegistrationPeriods();
  const save = useSaveRegistrationPeriod();
  const remove = useRemoveRegistrationPeriod();
  const snackbar = useSnackbar();
  const [scope, setScope] = useState<string>(ALL);
  const [open, setOpen] = useState(false);
  const [deadline, setDeadline] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<PendingChange | null>(null);

  const formLevel = scope === ALL ? null : Number(scope);
  // The stored values, whenever they arrive or change and whenever another scope is chosen.
  useEffect(() => {
    const stored = storedValuesFor(periods.data, formLevel);
    setOpen(stored.open === 1);
    setDeadline(stored.deadline ?? '');
  }, [periods.data, formLevel]);

  function pickScope(next: string) {
    setScope(next);
    setError(null);
  }

  /** Puts a scope back as it was before a change: its old row, or no row of its own. */
  function restore(formLevel: number | null, previous: RegistrationPeriod | null) {
    const done = { onSuccess: () => snackbar(`${scopeLabel(formLevel)}: previous registration settings restored.`), onError: (cause: Error) => setError(errorMessage(cause)) };
    if (previous) save.mutate({ form_level: formLevel, open: previous.open, deadline: previous.deadline }, done);
    else if (formLevel !== null) remove.mutate(formLevel, done);
    // No default was stored, which means closed for everyone: a closed default means the same.
    else save.mutate({ form_level: null, open: 0, deadline: null }, done);
  }

  async function apply(change: PendingChange) {
    setPending(null);
    setError(null);
    try {
      if (change.kind === 'save') {
        await save.mutateAsync(change.input);
        snackbar(`${scopeLabel(change.input.form_level)}: registration settings saved.`, 'success', {
          label: 'Undo',
          onClick: () => restore(change.input.form_level, change.previous),
        });
      } else {
        const { period } = change;
        await remove.mutateAsync(period.form_level!);
        snackbar(`${scopeLabel(period.form_level)} now follows the default.`, 'success', { label: 'Undo', onClick: () => restore(period.form_level, period) });
      }
    } catch (cause) {
      setError(errorMessage(cause));
    }
  }

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = SaveRegistrationPeriodSchema.safeParse({ form_level: formLevel, open: open ? 1 : 0, deadline: deadline === '' ? null : deadline });
    if (!parsed.success) {
      setError(firstIssueMessage(parsed.error));
      return;
    }
    const previous = periods.data?.find((p) => p.form_level === formLevel) ?? null;
    const change: PendingChange = { kind: 'save', input: parsed.data, previous };
    const unchanged = previous !== null && previous.open === parsed.data.open && previous.deadline === parsed.data.deadline;
    // The default decides for every form without a window of its own: ask before replacing it.
    if (formLevel === null && !unchanged) setPending(change);
    else void apply(change);
  }

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h1">Registration Settings</Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5 }}>
        Students can change their registration only while it is open and the deadline (inclusive, Trinidad time) has not passed.
      </Typography>

      <PeriodsTable periods={periods.data} onEdit={pickScope} onRemove={(period) => setPending({ kind: 'remove', period })} />

      <Box component="form" method="post" onSubmit={submit} noValidate sx={{ mt: 3, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, alignItems: 'center' }}>
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
      <ConfirmChangeDialog
        pending={pending}
        periods={periods.data}
        busy={save.isPending || remove.isPending}
        onConfirm={() => {
          if (pending) void apply(pending);
        }}
        onCancel={() => setPending(null)}
      />
      <ReRegistrationSettings />
    </Paper>
  );
}

/** The stored windows, the default and each form level's own, with Edit and Use default. */
function PeriodsTable({
  periods,
  onEdit,
  onRemove,
}: {
  periods: RegistrationPeriod[] | undefined;
  onEdit: (scope: string) => void;
  onRemove: (period: RegistrationPeriod) => void;
}) {
  return (
    <TableContainer sx={{ mt: 2 }}>
      <Table size="small" aria-label="Registration windows" sx={PHONE_TABLE_SX}>
        <TableHead>
          <TableRow>
            <TableCell>Applies to</TableCell>
            {/* On a phone the status says both. */}
            <TableCell sx={HIDE_ON_PHONE_SX}>Open</TableCell>
            <TableCell sx={HIDE_ON_PHONE_SX}>Deadline</TableCell>
            <TableCell>Status</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {(periods ?? []).map((period) => (
            <TableRow key={period.form_level ?? ALL}>
              <TableCell>{scopeLabel(period.form_level)}</TableCell>
              <TableCell sx={HIDE_ON_PHONE_SX}>{period.open === 1 ? 'Yes' : 'No'}</TableCell>
              <TableCell sx={HIDE_ON_PHONE_SX}>{period.deadline ?? '—'}</TableCell>
              <TableCell>{windowText(period)}</TableCell>
              <TableCell align="right">
                <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end' }}>
                  <Button size="small" onClick={() => onEdit(period.form_level === null ? ALL : String(period.form_level))}>
                    Edit
                  </Button>
                  {period.form_level !== null && (
                    <Button
                      size="small"
                      color="error"
                      aria-label={`${scopeLabel(period.form_level)}: use the default`}
                      onClick={() => onRemove(period)}
                    >
                      Use default
                    </Button>
                  )}
                </Box>
              </TableCell>
            </TableRow>
          ))}
          {periods?.length === 0 && (
            <TableRow>
              <TableCell colSpan={5}>No window is set: registration is closed for everyone.</TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** Asks before a change to the default or a removal, saying what is there now and what comes after. */
function ConfirmChangeDialog({
  pending,
  periods,
  busy,
  onConfirm,
  onCancel,
}: {
  pending: PendingChange | null;
  periods: RegistrationPeriod[] | undefined;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      open={pending !== null}
      title={pending?.kind === 'remove' ? `${scopeLabel(pending.period.form_level)}: use the default?` : 'Change the default registration window?'}
      confirmLabel={pending?.kind === 'remove' ? 'Use default' : 'Change default'}
      onConfirm={onConfirm}
      onCancel={onCancel}
      busy={busy}
    >
      {pending?.kind === 'save' && (
        <>
          Every form without a window of its own follows the default.
          <br />
          Now: {pending.previous ? windowText(pending.previous) : 'Closed (nothing stored)'}.
          <br />
          After: {windowText(pending.input)}.
        </>
      )}
      {pending?.kind === 'remove' && (
        <>
          Its own window ({windowText(pending.period)}) is removed and it follows the default (
          {windowText(storedValuesFor(periods, null))}).
        </>
      )}
    </ConfirmDialog>
  );
}
