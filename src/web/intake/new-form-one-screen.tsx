import { useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { DndContext, KeyboardSensor, PointerSensor, useDraggable, useDroppable, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import BalanceIcon from '@mui/icons-material/Balance';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { toDayFirstDate } from '../../shared/dates.js';
import { INTAKE_COLUMNS, type IntakeClass, type IntakeFinaliseRun, type IntakeStudent, type IntakeView } from '../../shared/intake.schemas.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { ApiError, errorMessage } from '../lib/api-client.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { useBalanceIntake, useClearIntake, useFinaliseIntake, useImportIntake, useIntake, useMoveIntakeStudent, useUndoFinalise } from './intake.api.js';

/** The droppable id of the column of children without a class yet. */
const NOT_ALLOCATED = 'not-allocated';
const SPREADSHEET_TYPES = '.xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const childName = (child: IntakeStudent) => [child.first_name, child.middle_name, child.last_name].filter(Boolean).join(' ');
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * New Form 1 (D61), for the office and administrators: import the SEA placement list,
 * allocate the children to the Form 1 classes (Balance, a drag between classes, or each child's
 * Class select, which works with a keyboard and on a phone), then Finalise, which makes them
 * students with their IDs. Before that the intake can be cleared and imported again; a finalise
 * can be undone the day it ran while none of its students was used (D79). A child whose sex does
 * not match a girls' or boys' primary school is flagged, not refused.
 */
export function NewFormOneScreen() {
  usePageTitle('New Form 1');
  const intake = useIntake();
  // The finalise belongs to the screen, not the allocation: its answer empties the intake, which
  // unmounts the allocation before a callback of its own could report the IDs.
  const finalise = useFinaliseIntake();
  const created = finalise.data;

  return (
    <Box sx={{ display: 'grid', gap: 2, minWidth: 0, gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography variant="h1">New Form 1</Typography>
        <Typography color="text.secondary" sx={{ mt: 1, maxWidth: '75ch' }}>
          Import the SEA placement list (XLSX or CSV, one child a row, with the columns {INTAKE_COLUMNS.join(', ')}; the middle name may be empty), allocate the
          children to the Form 1 classes, then finalise: each becomes a student with a student ID and signs in the first time with the SEA number and date of birth.
        </Typography>
        {created && (
          <Alert severity="success" role="status" sx={{ mt: 2 }} onClose={() => finalise.reset()}>
            {created.created.length === 0
              ? 'No students were created.'
              : `Created ${plural(created.created.length, 'student')}: ${created.created[0]!.id} to ${created.created.at(-1)!.id}.`}
          </Alert>
        )}
        {intake.isError && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {errorMessage(intake.error)}
          </Alert>
        )}
        {intake.data && (intake.data.students.length === 0 ? <ImportList onImported={() => finalise.reset()} /> : <Allocation view={intake.data} finalise={finalise} />)}
      </Paper>
      {intake.data && intake.data.finalises.length > 0 && <Finalises finalises={intake.data.finalises} onUndone={() => finalise.reset()} />}
    </Box>
  );
}

const createdWords = (run: IntakeFinaliseRun) =>
  `${plural(run.count, 'student')}${run.first_id ? `, ${run.first_id === run.last_id ? run.first_id : `${run.first_id} to ${run.last_id}`}` : ''}`;

/** The finalises, newest first: today's newest standing one can be undone, as the rollover's run can (D79). */
function Finalises({ finalises, onUndone }: { finalises: readonly IntakeFinaliseRun[]; onUndone: () => void }) {
  const undo = useUndoFinalise();
  const showSnackbar = useSnackbar();
  const [asking, setAsking] = useState<IntakeFinaliseRun | null>(null);
  const confirm = () => {
    if (!asking) return;
    undo.mutate(asking.id, {
      onSuccess: (answer) => {
        setAsking(null);
        onUndone();
        showSnackbar(answer.message);
      },
      onError: (cause) => {
        setAsking(null);
        showSnackbar(errorMessage(cause), 'error');
      },
    });
  };
  return (
    <Paper variant="outlined" component="section" aria-labelledby="intake-finalises" sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}>
      <Typography id="intake-finalises" variant="h2" sx={{ fontSize: '1.15rem', mb: 1 }}>
        Finalised
      </Typography>
      <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1 }}>
        {finalises.map((run) => (
          <Box component="li" key={run.id} sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography sx={{ flex: '1 1 240px', overflowWrap: 'anywhere' }}>
              On {toDayFirstDate(run.finalised_on)} from {run.file_name}: {createdWords(run)}
              {run.undone_at ? ' (undone)' : ''}
            </Typography>
            {run.can_undo && (
              <Button variant="outlined" color="warning" onClick={() => setAsking(run)} disabled={undo.isPending}>
                Undo
              </Button>
            )}
          </Box>
        ))}
      </Box>
      <ConfirmDialog open={asking !== null} title="Undo the finalise?" confirmLabel="Undo the finalise" onConfirm={confirm} onCancel={() => setAsking(null)} busy={undo.isPending}>
        {asking &&
          `The ${plural(asking.count, 'student')} it created (${createdWords(asking)}) are deleted and the children are back in the intake, in the same classes. It is refused if any of them has signed in or been changed since.`}
      </ConfirmDialog>
    </Paper>
  );
}

/** Every message of a refused request: the message, then each 'row N: Column' with its messages. */
function Refusal({ error }: { error: unknown }) {
  const rows = error instanceof ApiError && error.errors ? Object.entries(error.errors) : [];
  return (
    <Alert severity="error" role="alert" sx={{ mt: 2 }}>
      {error instanceof ApiError ? error.message : errorMessage(error)}
      {rows.length > 0 && (
        <Box component="ul" sx={{ m: 0, mt: 1, pl: 2.5 }}>
          {rows.map(([where, messages]) => (
            <li key={where}>
              {where}: {messages.join(' ')}
            </li>
          ))}
        </Box>
      )}
    </Alert>
  );
}

function ImportList({ onImported }: { onImported: () => void }) {
  const upload = useImportIntake();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    setFile(event.target.files?.[0] ?? null);
    upload.reset();
  };
  return (
    <>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', mt: 2 }}>
        <Button component="label" variant="outlined" startIcon={<UploadFileIcon aria-hidden />}>
          Choose file
          <input ref={input} hidden type="file" name="file" accept={SPREADSHEET_TYPES} onChange={choose} aria-label="SEA placement list (XLSX or CSV)" />
        </Button>
        <Typography sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>{file ? file.name : 'No file chosen'}</Typography>
        <Button variant="contained" disabled={!file || upload.isPending} onClick={() => file && upload.mutate(file, { onSuccess: onImported })}>
          Import list
        </Button>
      </Box>
      {upload.isError && <Refusal error={upload.error} />}
    </>
  );
}

function Allocation({ view, finalise }: { view: IntakeView; finalise: ReturnType<typeof useFinaliseIntake> }) {
  const balance = useBalanceIntake();
  const move = useMoveIntakeStudent();
  const clear = useClearIntake();
  const [confirm, setConfirm] = useState<'clear' | 'finalise' | null>(null);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor));
  const failed = [balance, move, clear, finalise].find((request) => request.isError);
  const busy = [balance, move, clear, finalise].some((request) => request.isPending);

  const moveTo = (child: IntakeStudent, classId: string | null) => {
    if (child.class_id !== classId) move.mutate({ id: child.id, classId });
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const child = view.students.find((s) => s.id === active.id);
    if (!child || !over) return;
    moveTo(child, over.id === NOT_ALLOCATED ? null : String(over.id));
  };
  const classIds = view.classes.map((c) => c.id);
  const unallocated = view.students.filter((s) => s.class_id === null || !classIds.includes(s.class_id));

  return (
    <>
      <Typography sx={{ mt: 2 }}>
        {plural(view.students.length, 'child', 'children')} from {view.fileName}
        {view.unallocated > 0 ? `; ${view.unallocated} not in a class yet.` : ', every one in a class.'}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mt: 2 }}>
        <Button variant="contained" startIcon={<BalanceIcon aria-hidden />} disabled={busy || classIds.length === 0} onClick={() => balance.mutate(undefined)}>
          Balance
        </Button>
        <Button variant="contained" color="secondary" disabled={busy || view.unallocated > 0} onClick={() => setConfirm('finalise')}>
          Finalise
        </Button>
        <Button color="error" disabled={busy} onClick={() => setConfirm('clear')}>
          Clear intake
        </Button>
      </Box>
      {classIds.length === 0 && (
        <Alert severity="warning" sx={{ mt: 2 }}>
          The school has no Form 1 classes to allocate to.
        </Alert>
      )}
      <SexSchoolWarnings students={view.students} />
      {failed && <Refusal error={failed.error} />}

      <DndContext sensors={sensors} onDragEnd={onDragEnd}>
        <Box sx={{ display: 'grid', gap: 2, mt: 2, gridTemplateColumns: { xs: '1fr', md: `repeat(${Math.min(4, classIds.length + (unallocated.length > 0 ? 1 : 0)) || 1}, minmax(0, 1fr))` } }}>
          {unallocated.length > 0 && (
            <ClassColumn dropId={NOT_ALLOCATED} title="Not in a class" summary={plural(unallocated.length, 'child', 'children')} students={unallocated} classIds={classIds} onMove={moveTo} disabled={busy} />
          )}
          {view.classes.map((formClass) => (
            <ClassColumn
              key={formClass.id}
              dropId={formClass.id}
              title={formClass.id}
              summary={<ClassCounts formClass={formClass} />}
              students={view.students.filter((s) => s.class_id === formClass.id)}
              classIds={classIds}
              onMove={moveTo}
              disabled={busy}
            />
          ))}
        </Box>
      </DndContext>

      <ConfirmDialog
        open={confirm === 'finalise'}
        title="Finalise the new Form 1?"
        confirmLabel={`Create ${plural(view.students.length, 'student')}`}
        busy={finalise.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() => finalise.mutate(undefined, { onSettled: () => setConfirm(null) })}
      >
        Each child becomes a student in the class shown, with the next student ID of the year. You can undo it today only, while none of the new students has signed in or been
        changed.
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'clear'}
        title="Clear the intake?"
        confirmLabel="Clear intake"
        busy={clear.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() => clear.mutate(undefined, { onSettled: () => setConfirm(null) })}
      >
        The imported list and its allocation are removed; no student is changed. Import the list again to start over.
      </ConfirmDialog>
    </>
  );
}

/** The children whose sex does not match a girls' or boys' primary school: a warning, not a refusal (D79). */
function SexSchoolWarnings({ students }: { students: readonly IntakeStudent[] }) {
  const warned = students.filter((child) => child.warning !== null);
  if (warned.length === 0) return null;
  return (
    <Alert severity="warning" sx={{ mt: 2 }} aria-label="Check these children">
      {warned.length === 1 ? '1 child’s sex does not match' : `${warned.length} children’s sex does not match`} a girls’ or boys’ primary school. Check the list before you
      finalise:
      <Box component="ul" sx={{ m: 0, mt: 1, pl: 2.5 }}>
        {warned.map((child) => (
          <li key={child.id}>
            row {child.row}, {childName(child)}: {child.warning}
          </li>
        ))}
      </Box>
    </Alert>
  );
}

function ClassCounts({ formClass }: { formClass: IntakeClass }) {
  const { intake, existing, bySchool } = formClass;
  return (
    <>
      <span data-testid={`counts-${formClass.id}`}>
        New: {intake.total} ({intake.female} F, {intake.male} M)
      </span>
      <br />
      Already in the class: {existing.total} ({existing.female} F, {existing.male} M)
      {bySchool.length > 0 && (
        <>
          <br />
          {bySchool.map((s) => `${s.school} ${s.count}`).join(' · ')}
        </>
      )}
    </>
  );
}

interface ClassColumnProps {
  dropId: string;
  title: string;
  summary: ReactNode;
  students: IntakeStudent[];
  classIds: string[];
  onMove: (child: IntakeStudent, classId: string | null) => void;
  disabled: boolean;
}

function ClassColumn({ dropId, title, summary, students, classIds, onMove, disabled }: ClassColumnProps) {
  const { setNodeRef, isOver } = useDroppable({ id: dropId });
  return (
    <Paper
      ref={setNodeRef}
      variant="outlined"
      component="section"
      aria-label={title === 'Not in a class' ? title : `Class ${title}`}
      data-class={dropId}
      sx={{ p: 1.5, minWidth: 0, minHeight: 120, bgcolor: isOver ? 'action.hover' : undefined }}
    >
      <Typography variant="h2" sx={{ fontSize: '1.1rem' }}>
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {summary}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
        {students.map((child) => (
          <ChildCard key={child.id} child={child} classIds={classIds} onMove={onMove} disabled={disabled} />
        ))}
      </Box>
    </Paper>
  );
}

function ChildCard({ child, classIds, onMove, disabled }: { child: IntakeStudent; classIds: string[]; onMove: ClassColumnProps['onMove']; disabled: boolean }) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id: child.id, disabled });
  const name = childName(child);
  return (
    <Box
      component="li"
      ref={setNodeRef}
      data-sea={child.sea_no}
      sx={{
        display: 'flex',
        gap: 1,
        alignItems: 'flex-start',
        p: 1,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        bgcolor: 'background.paper',
        position: 'relative',
        zIndex: isDragging ? 2 : undefined,
        boxShadow: isDragging ? 4 : undefined,
        transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
      }}
    >
      <Box
        component="button"
        type="button"
        aria-label={`Drag ${name} to another class`}
        {...attributes}
        {...listeners}
        sx={{ border: 0, bgcolor: 'transparent', p: 0.5, cursor: 'grab', touchAction: 'none', color: 'text.secondary', display: 'flex' }}
      >
        <DragIndicatorIcon fontSize="small" aria-hidden />
      </Box>
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>{name}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {child.sea_no} · {child.sex} · {child.primary_school}
        </Typography>
        {child.warning && (
          <Typography variant="body2" color="warning.dark" sx={{ overflowWrap: 'anywhere' }}>
            {child.warning}
          </Typography>
        )}
        <TextField
          select
          size="small"
          label={`Class for ${name}`}
          value={child.class_id ?? ''}
          disabled={disabled}
          onChange={(event) => onMove(child, event.target.value === '' ? null : event.target.value)}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          sx={{ mt: 1, minWidth: 120 }}
        >
          <option value="">Not in a class</option>
          {classIds.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </TextField>
      </Box>
    </Box>
  );
}
