import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { academicYearLabel, TERM_NAMES } from '../../shared/school.constants.js';
import { RolloverPlanInputSchema, type RolloverPlanInput, type RolloverPreview, type RolloverRun, type RolloverState } from '../../shared/rollover.schemas.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { PHONE_TABLE_SX } from '../components/table-priority.js';
import { ApiError, errorMessage } from '../lib/api-client.js';
import { firstFieldMessages, type FieldErrors } from '../lib/form-errors.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { usePreviewRollover, useRolloverState, useRunRollover, useUndoRollover } from './rollover.api.js';

/** The mapping select's value for "the class leaves the school". */
const LEAVES = '__leaves__';
const students = (n: number) => (n === 1 ? '1 student' : `${n} students`);

/**
 * New School Year (D60), for administrators: each class's move (editable, 3A → 4A by
 * default; Form 5 leaves), the new year's terms and registration deadline; Preview shows the
 * counts per class the run will produce, and Run does exactly that in one go. A run can be undone
 * the same day.
 */
export function NewSchoolYearScreen() {
  usePageTitle('New School Year');
  const state = useRolloverState();
  return (
    <Box sx={{ display: 'grid', gap: 2, minWidth: 0, gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}>
        <Typography variant="h1" sx={{ fontSize: '1.5rem' }}>
          New School Year
        </Typography>
        {state.isError ? (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {errorMessage(state.error)}
          </Alert>
        ) : state.data ? (
          <PlanForm key={`${state.data.from_year}-${state.data.runs.length}`} state={state.data} />
        ) : (
          <Typography sx={{ mt: 2 }}>Loading the school's classes…</Typography>
        )}
      </Paper>
      {state.data && state.data.runs.length > 0 && <Runs runs={state.data.runs} />}
    </Box>
  );
}

function PlanForm({ state }: { state: RolloverState }) {
  const [plan, setPlan] = useState<RolloverPlanInput>(state.plan);
  const [preview, setPreview] = useState<RolloverPreview | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const previewCall = usePreviewRollover();
  const run = useRunRollover();
  const showSnackbar = useSnackbar();
  const levelOf = new Map(state.classes.map((c) => [c.class_id, c.form_level]));
  const countOf = new Map(state.classes.map((c) => [c.class_id, c.students]));
  const fromLabel = academicYearLabel(state.from_year);
  const toLabel = academicYearLabel(state.to_year);

  // Any edit makes the preview stale: the run is offered only for the plan just previewed.
  const edit = (next: RolloverPlanInput) => {
    setPlan(next);
    setPreview(null);
  };

  const refused = (cause: unknown) => {
    setErrors(cause instanceof ApiError ? firstFieldMessages(cause.errors) : {});
    // The message says what went wrong; the field messages stand under their fields.
    setProblem(cause instanceof ApiError ? cause.message : errorMessage(cause));
  };
  const checked = (): RolloverPlanInput | null => {
    const parsed = RolloverPlanInputSchema.safeParse(plan);
    if (parsed.success) return parsed.data;
    const found: FieldErrors = {};
    for (const issue of parsed.error.issues) found[issue.path.join('.')] ??= issue.message;
    setErrors(found);
    setProblem('Check the highlighted fields.');
    return null;
  };
  const doPreview = () => {
    const input = checked();
    if (!input) return;
    previewCall.mutate(input, {
      onSuccess: (answer) => {
        setErrors({});
        setProblem(null);
        setPreview(answer);
      },
      onError: refused,
    });
  };
  const doRun = () => {
    const input = checked();
    if (!input) return;
    run.mutate(input, {
      onSuccess: (answer) => {
        setAsking(false);
        showSnackbar(answer.message);
      },
      onError: (cause) => {
        setAsking(false);
        refused(cause);
      },
    });
  };
  const afterOf = new Map(preview?.classes.map((c) => [c.class_id, c.after]) ?? []);

  return (
    <Box sx={{ display: 'grid', gap: 2, mt: 1 }}>
      <Typography color="text.secondary">
        Moves every class of {fromLabel} up a form, lets Form 5 (and Form 6) leave as former students (kept, read-only, out of the lists), creates the terms of {toLabel}, opens
        registration again and clears the office's verified and returned decisions. Preview first; a run can be undone the same day.
      </Typography>

      <Box component="section" aria-labelledby="rollover-classes">
        <Typography id="rollover-classes" variant="h2" sx={{ fontSize: '1.15rem', mb: 1 }}>
          Classes
        </Typography>
        <TableContainer>
          <Table size="small" aria-label="Where each class goes" sx={PHONE_TABLE_SX}>
            <TableHead>
              <TableRow>
                <TableCell>Class</TableCell>
                <TableCell align="right">Now</TableCell>
                <TableCell>Moves to</TableCell>
                <TableCell align="right">After</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {plan.mapping.map((move, index) => {
                const level = levelOf.get(move.from) ?? 0;
                const choices = state.classes.filter((c) => c.form_level === level + 1);
                const error = errors[`mapping.${index}.to`] ?? errors[`mapping.${index}.from`];
                return (
                  <TableRow key={move.from} data-class={move.from}>
                    <TableCell component="th" scope="row">
                      {move.from}
                    </TableCell>
                    <TableCell align="right">{countOf.get(move.from) ?? 0}</TableCell>
                    <TableCell sx={{ minWidth: 130 }}>
                      <TextField
                        select
                        size="small"
                        fullWidth
                        label={`${move.from} moves to`}
                        value={move.to ?? LEAVES}
                        onChange={(event) => {
                          const to = event.target.value === LEAVES ? null : event.target.value;
                          edit({ ...plan, mapping: plan.mapping.map((m, i) => (i === index ? { ...m, to } : m)) });
                        }}
                        error={error !== undefined}
                        helperText={error}
                        slotProps={{ formHelperText: error ? { role: 'alert' } : {} }}
                      >
                        {choices.map((c) => (
                          <MenuItem key={c.class_id} value={c.class_id}>
                            {c.class_id}
                          </MenuItem>
                        ))}
                        <MenuItem value={LEAVES}>Leaves the school</MenuItem>
                      </TextField>
                    </TableCell>
                    <TableCell align="right" aria-label={`${move.from} after the rollover`}>
                      {preview ? afterOf.get(move.from) ?? 0 : '–'}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      </Box>

      <Box component="section" aria-labelledby="rollover-terms" sx={{ display: 'grid', gap: 1.5 }}>
        <Typography id="rollover-terms" variant="h2" sx={{ fontSize: '1.15rem' }}>
          Terms of {toLabel}
        </Typography>
        {plan.terms.map((term, index) => (
          <Box key={term.term} sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '160px 1fr 1fr' }, alignItems: 'start' }}>
            <Typography sx={{ pt: { sm: 1 } }}>
              Term {term.term} {TERM_NAMES[term.term]}
            </Typography>
            {(['start_date', 'end_date'] as const).map((field) => {
              const error = errors[`terms.${index}.${field}`];
              return (
                <TextField
                  key={field}
                  type="date"
                  size="small"
                  label={`Term ${term.term} ${field === 'start_date' ? 'starts' : 'ends'}`}
                  value={term[field]}
                  onChange={(event) => edit({ ...plan, terms: plan.terms.map((t, i) => (i === index ? { ...t, [field]: event.target.value } : t)) })}
                  error={error !== undefined}
                  helperText={error}
                  slotProps={{ inputLabel: { shrink: true }, formHelperText: error ? { role: 'alert' } : {} }}
                />
              );
            })}
          </Box>
        ))}
        <TextField
          type="date"
          size="small"
          label="Registration deadline (optional)"
          value={plan.registration_deadline ?? ''}
          onChange={(event) => edit({ ...plan, registration_deadline: event.target.value === '' ? null : event.target.value })}
          error={errors.registration_deadline !== undefined}
          helperText={errors.registration_deadline ?? 'Every registration window opens again with this deadline; empty: no deadline'}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ maxWidth: 360 }}
        />
      </Box>

      {problem && (
        <Alert severity="error" role="alert">
          {problem}
          {errors.mapping && ` ${errors.mapping}`}
        </Alert>
      )}

      {preview && <PreviewSummary preview={preview} />}

      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button variant="outlined" onClick={doPreview} disabled={previewCall.isPending}>
          Preview
        </Button>
        <Button variant="contained" color="warning" onClick={() => setAsking(true)} disabled={!preview || run.isPending}>
          Run the rollover
        </Button>
      </Box>

      <ConfirmDialog open={asking} title={`Move the school to ${toLabel}?`} confirmLabel="Run the rollover" onConfirm={doRun} onCancel={() => setAsking(false)} busy={run.isPending}>
        {preview && `${students(preview.moving)} move up and ${students(preview.leaving)} leave. You can undo it today only.`}
      </ConfirmDialog>
    </Box>
  );
}

/** The dry run's counts: per class who goes where, and what else changes. */
function PreviewSummary({ preview }: { preview: RolloverPreview }) {
  const moves = preview.classes.filter((c) => c.students > 0);
  return (
    <Box component="section" aria-labelledby="rollover-preview" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: { xs: 1.5, sm: 2 } }}>
      <Typography id="rollover-preview" variant="h2" sx={{ fontSize: '1.15rem' }}>
        Preview: {academicYearLabel(preview.from_year)} → {academicYearLabel(preview.to_year)}
      </Typography>
      <Typography sx={{ my: 1 }}>
        {students(preview.moving)} move up; {students(preview.leaving)} leave and are kept as former students; {preview.terms.length} terms are created;{' '}
        {preview.periods === 1 ? '1 registration window opens' : `${preview.periods} registration windows open`}
        {preview.registration_deadline ? ` until ${preview.registration_deadline}` : ' with no deadline'}; {preview.reviews_cleared} office decisions are cleared.
      </Typography>
      <Box component="ul" aria-label="Who goes where" sx={{ m: 0, pl: 2.5, columns: { xs: 1, sm: 2, md: 3 }, columnGap: 4 }}>
        {moves.map((c) => (
          <li key={c.class_id} data-preview-class={c.class_id}>
            {c.class_id}: {students(c.students)} → {c.to ?? 'leave'}
          </li>
        ))}
      </Box>
    </Box>
  );
}

function Runs({ runs }: { runs: readonly RolloverRun[] }) {
  const undo = useUndoRollover();
  const showSnackbar = useSnackbar();
  const [asking, setAsking] = useState<RolloverRun | null>(null);
  const confirm = () => {
    if (!asking) return;
    undo.mutate(asking.id, {
      onSuccess: (answer) => {
        setAsking(null);
        showSnackbar(answer.message);
      },
      onError: (cause) => {
        setAsking(null);
        showSnackbar(errorMessage(cause), 'error');
      },
    });
  };
  return (
    <Paper variant="outlined" component="section" aria-labelledby="rollover-runs" sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}>
      <Typography id="rollover-runs" variant="h2" sx={{ fontSize: '1.15rem', mb: 1 }}>
        Rollovers
      </Typography>
      <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1 }}>
        {runs.map((r) => (
          <Box component="li" key={r.id} sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography sx={{ flex: '1 1 240px' }}>
              {academicYearLabel(r.from_year)} → {academicYearLabel(r.to_year)} on {r.run_on}: {students(r.summary.moving)} moved up, {students(r.summary.leaving)} left
              {r.undone_at ? ' (undone)' : ''}
            </Typography>
            {r.can_undo && (
              <Button variant="outlined" color="warning" onClick={() => setAsking(r)} disabled={undo.isPending}>
                Undo
              </Button>
            )}
          </Box>
        ))}
      </Box>
      <ConfirmDialog open={asking !== null} title="Undo the rollover?" confirmLabel="Undo the rollover" onConfirm={confirm} onCancel={() => setAsking(null)} busy={undo.isPending}>
        {asking && `Every student goes back to their class of ${academicYearLabel(asking.from_year)}, the leavers are on the roll again, the new terms are removed, and the registration windows and the office's decisions are as they were.`}
      </ConfirmDialog>
    </Paper>
  );
}
