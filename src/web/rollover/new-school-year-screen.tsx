import { useRef, useState } from 'react';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { isIsoDate, toDayFirstDate } from '../../shared/dates.js';
import { academicYearLabel } from '../../shared/school.constants.js';
import {
  RolloverPlanInputSchema,
  retainedTarget,
  type RolloverPlanInput,
  type RolloverPreview,
  type RolloverRun,
  type RolloverState,
  type RolloverStudent,
} from '../../shared/rollover.schemas.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { ApiError, errorMessage } from '../lib/api-client.js';
import { firstFieldMessages, type FieldErrors } from '../lib/form-errors.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { DAY_FIRST_DATE_MESSAGE } from './day-first-date-field.js';
import { ClassMoves, TermDates } from './rollover-plan-fields.js';
import { usePreviewRollover, useRolloverState, useRunRollover, useUndoRollover } from './rollover.api.js';

const students = (n: number) => (n === 1 ? '1 student' : `${n} students`);

/**
 * New School Year (D60, D79), for administrators: each class's move (editable, 3A → 4A by
 * default; Form 5 leaves), the new year's terms (dd/MM/yyyy) and registration deadline; Preview
 * shows the counts per class the run will produce and each class's students, ticked to go with
 * their class (unticked: retained), and Run does exactly that in one go. A run can be undone the
 * same day; the next rollover waits until the new year has begun, and the screen says when.
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
        ) : state.data?.not_before_reason ? (
          <Alert severity="info" role="status" sx={{ mt: 2 }}>
            {state.data.not_before_reason}
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

/** The plan's date fields: what a date the field could not read is told, in the school's format. */
const isDatePath = (path: string) => /^terms\.\d\.(start|end)_date$|^registration_deadline$/.test(path);

function PlanForm({ state }: { state: RolloverState }) {
  const [plan, setPlan] = useState<RolloverPlanInput>(state.plan);
  // The preview answers one plan; Run is offered only while that plan is the one on the screen.
  const [preview, setPreview] = useState<{ plan: RolloverPlanInput; answer: RolloverPreview } | null>(null);
  const latest = useRef<RolloverPlanInput>(state.plan);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const previewCall = usePreviewRollover();
  const run = useRunRollover();
  const showSnackbar = useSnackbar();
  const fromLabel = academicYearLabel(state.from_year);
  const toLabel = academicYearLabel(state.to_year);
  const current = preview !== null && preview.plan === plan ? preview.answer : null;

  // An edit of the mapping or the dates makes the preview stale: it is hidden until asked again.
  const edit = (next: RolloverPlanInput) => {
    latest.current = next;
    setPlan(next);
    setPreview(null);
  };

  const refused = (cause: unknown) => {
    setErrors(cause instanceof ApiError ? firstFieldMessages(cause.errors) : {});
    // The message says what went wrong; the field messages stand under their fields.
    setProblem(cause instanceof ApiError ? cause.message : errorMessage(cause));
  };
  const checked = (input: RolloverPlanInput): RolloverPlanInput | null => {
    const parsed = RolloverPlanInputSchema.safeParse(input);
    if (parsed.success) return parsed.data;
    const found: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const path = issue.path.join('.');
      const typed = issue.path.reduce<unknown>((at, key) => (at as Record<PropertyKey, unknown> | undefined)?.[key], input);
      found[path] ??= isDatePath(path) && typeof typed === 'string' && !isIsoDate(typed) ? DAY_FIRST_DATE_MESSAGE : issue.message;
    }
    setErrors(found);
    setProblem('Check the highlighted fields.');
    return null;
  };
  const askPreview = (next: RolloverPlanInput) => {
    const input = checked(next);
    if (!input) return;
    previewCall.mutate(input, {
      onSuccess: (answer) => {
        // A tick changed meanwhile asks again: only the answer to the newest plan is shown.
        if (latest.current !== next) return;
        setErrors({});
        setProblem(null);
        setPreview({ plan: next, answer });
      },
      onError: (cause) => {
        if (latest.current === next) refused(cause);
      },
    });
  };
  // A student's tick changes who is retained: the counts are asked for again at once, the list stays open.
  const toggleRetained = (id: string) => {
    const retained = plan.retained.includes(id) ? plan.retained.filter((other) => other !== id) : [...plan.retained, id];
    const next = { ...plan, retained };
    latest.current = next;
    setPlan(next);
    askPreview(next);
  };
  const doRun = () => {
    const input = checked(plan);
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
  const shownPreview = preview?.answer ?? null;

  return (
    <Box sx={{ display: 'grid', gap: 2, mt: 1 }}>
      <Typography color="text.secondary">
        Moves every class of {fromLabel} up a form, lets Form 5 (and Form 6) leave as former students (kept, read-only, out of the lists), creates the terms of {toLabel}, opens
        registration again and clears the office's verified and returned decisions. Preview first: it lists each class's students, and a student unticked stays in their form
        (a leaver stays on). A run can be undone the same day.
      </Typography>

      <ClassMoves state={state} plan={plan} errors={errors} current={current} onEdit={edit} />

      <TermDates toLabel={toLabel} plan={plan} errors={errors} onEdit={edit} />

      {problem && (
        <Alert severity="error" role="alert">
          {problem}
          {errors.mapping && ` ${errors.mapping}`}
        </Alert>
      )}

      {shownPreview && <PreviewSummary preview={shownPreview} state={state} plan={plan} onToggle={toggleRetained} />}

      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button variant="outlined" onClick={() => askPreview(plan)} disabled={previewCall.isPending}>
          Preview
        </Button>
        <Button variant="contained" color="warning" onClick={() => setAsking(true)} disabled={!current || previewCall.isPending || run.isPending}>
          Run the rollover
        </Button>
      </Box>

      <ConfirmDialog open={asking} title={`Move the school to ${toLabel}?`} confirmLabel="Run the rollover" onConfirm={doRun} onCancel={() => setAsking(false)} busy={run.isPending}>
        {current && `${students(current.moving)} move up, ${students(current.leaving)} leave and ${students(current.retained)} stay in their form or stay on. You can undo it today only.`}
      </ConfirmDialog>
    </Box>
  );
}

/** Where a class's retained student goes, in words: "stays in 3A", "stays on in 6A", "repeats in 5A". */
function retainedWords(from: { class_id: string; form_level: number }, leaves: boolean, classes: RolloverState['classes']): string {
  const to = retainedTarget(from, leaves, classes);
  if (!leaves) return `stays in ${to}`;
  return to === from.class_id ? `repeats in ${to}` : `stays on in ${to}`;
}

interface PreviewSummaryProps {
  preview: RolloverPreview;
  state: RolloverState;
  plan: RolloverPlanInput;
  onToggle: (studentId: string) => void;
}

/**
 * The dry run's counts: per class who goes where, and what else changes; each class's students
 * in a list that opens (one column on a phone), ticked to go with their class.
 */
function PreviewSummary({ preview, state, plan, onToggle }: PreviewSummaryProps) {
  const moves = preview.classes.filter((c) => c.students > 0);
  const byClass = new Map<string, RolloverStudent[]>();
  for (const s of state.students) byClass.set(s.class_id, [...(byClass.get(s.class_id) ?? []), s]);
  const retained = new Set(plan.retained);
  return (
    <Box component="section" aria-labelledby="rollover-preview" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: { xs: 1.5, sm: 2 }, minWidth: 0 }}>
      <Typography id="rollover-preview" variant="h2" sx={{ fontSize: '1.15rem' }}>
        Preview: {academicYearLabel(preview.from_year)} → {academicYearLabel(preview.to_year)}
      </Typography>
      <Typography sx={{ my: 1 }} data-testid="rollover-counts">
        {students(preview.moving)} move up; {students(preview.leaving)} leave and are kept as former students; {students(preview.retained)} stay in their form or stay on;{' '}
        {preview.terms.length} terms are created; {preview.periods === 1 ? '1 registration window opens' : `${preview.periods} registration windows open`}
        {preview.registration_deadline ? ` until ${toDayFirstDate(preview.registration_deadline)}` : ' with no deadline'}; {preview.reviews_cleared} office decisions are cleared.
      </Typography>
      <Box component="ul" aria-label="Who goes where" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' }, alignItems: 'start' }}>
        {moves.map((c) => {
          const leaves = c.to === null;
          return (
            <li key={c.class_id} data-preview-class={c.class_id}>
              <Accordion disableGutters variant="outlined" slotProps={{ transition: { unmountOnExit: true } }}>
                <AccordionSummary expandIcon={<ExpandMoreIcon aria-hidden />}>
                  <Typography component="span" sx={{ overflowWrap: 'anywhere' }}>
                    <span>
                      {c.class_id}: {students(c.students)} → {c.to ?? 'leave'}
                    </span>
                    {c.retained > 0 && <span>{` (${c.retained} retained)`}</span>}
                  </Typography>
                </AccordionSummary>
                <AccordionDetails sx={{ pt: 0 }}>
                  <Box component="ul" aria-label={`Students of ${c.class_id}`} sx={{ m: 0, p: 0, listStyle: 'none' }}>
                    {(byClass.get(c.class_id) ?? []).map((student) => {
                      const goes = !retained.has(student.id);
                      return (
                        <li key={student.id}>
                          <FormControlLabel
                            sx={{ mr: 0, alignItems: 'flex-start', '& .MuiCheckbox-root': { pt: 0.5 } }}
                            control={
                              <Checkbox
                                size="small"
                                checked={goes}
                                onChange={() => onToggle(student.id)}
                                slotProps={{ input: { 'aria-label': `${student.name} (${student.id}) ${leaves ? 'leaves' : 'moves up'}` } }}
                              />
                            }
                            label={
                              <Box component="span" sx={{ display: 'block', pt: 0.5, overflowWrap: 'anywhere' }}>
                                {student.name} ({student.id}){' '}
                                <Typography component="span" variant="body2" color={goes ? 'text.secondary' : 'warning.main'}>
                                  {goes ? (leaves ? 'leaves' : `moves up to ${c.to}`) : retainedWords(c, leaves, state.classes)}
                                </Typography>
                              </Box>
                            }
                          />
                        </li>
                      );
                    })}
                  </Box>
                </AccordionDetails>
              </Accordion>
            </li>
          );
        })}
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
              {academicYearLabel(r.from_year)} → {academicYearLabel(r.to_year)} on {toDayFirstDate(r.run_on)}: {students(r.summary.moving)} moved up, {students(r.summary.leaving)} left
              {r.summary.retained > 0 ? `, ${students(r.summary.retained)} retained` : ''}
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
