import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router';
import {
  ABSENCE_NOTE_STATE_LABELS,
  ABSENCE_PART_LABELS,
  absenceReasonLabel,
  type AbsenceNote,
} from '../../shared/absence-notes.schemas.js';
import { isIsoDate } from '../../shared/dates.js';
import { ChooseStudent } from '../components/choose-student.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { NoChildLinked } from '../components/no-child-linked.js';
import { PageSpinner } from '../components/page-spinner.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage } from '../lib/api-client.js';
import { studentShownTo, useSession } from '../lib/session.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { AbsenceNoteForm } from './absence-note-form.js';
import { noteDays, STATE_COLORS } from './absence-note-words.js';
import { useAbsenceNotes, useWithdrawAbsenceNote } from './absence-notes.api.js';

const TITLE = 'Absence Notes';

/**
 * /absence-notes (docs/decisions.md D93): the child's notes with their state and the school's
 * answer, Withdraw while one waits, and "Explain an absence" when the answer's `can_send` says
 * this person may send one. The child is the one the header's switcher chose, or `?student=`
 * (the decision's mail); `?date=yyyy-MM-dd` (the digest's link) opens the form on that day.
 */
export function AbsenceNotesPage() {
  const user = useSession().data?.user ?? null;
  const [params, setParams] = useSearchParams();
  const studentId = studentShownTo(user, params);
  const date = params.get('date');
  const notes = useAbsenceNotes(studentId);
  usePageTitle(TITLE);

  if (user?.role === 'staff' && !studentId) {
    return <ChooseStudent title={TITLE} purpose="Whose absence notes to show" submitLabel="Show notes" onChoose={(id) => setParams({ student: id })} />;
  }
  if (user?.role === 'guardian' && !studentId) return <NoChildLinked title={TITLE} />;
  if (notes.isPending) return <PageSpinner label="Loading absence notes" />;
  if (notes.isError) {
    return (
      <>
        <Typography variant="h1">{TITLE}</Typography>
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {errorMessage(notes.error)}
        </Alert>
      </>
    );
  }
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Typography variant="h1">{TITLE}</Typography>
      {notes.data.can_send && (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          {/* A new child or a new day (another link) starts the form afresh. */}
          <AbsenceNoteForm key={`${studentId}-${date}`} studentId={studentId!} initialDate={date && isIsoDate(date) ? date : null} />
        </Paper>
      )}
      <AbsenceNoteList notes={notes.data.notes} canWithdraw={notes.data.can_send} />
    </Box>
  );
}

function AbsenceNoteList({ notes, canWithdraw }: { notes: AbsenceNote[]; canWithdraw: boolean }) {
  const show = useSnackbar();
  const withdraw = useWithdrawAbsenceNote();
  const [asked, setAsked] = useState<AbsenceNote | null>(null);

  const confirm = () => {
    if (!asked || withdraw.isPending) return;
    withdraw.mutate(asked.id, {
      onSuccess: (answer) => show(answer.message),
      onError: (error) => show(errorMessage(error), 'error'),
      onSettled: () => setAsked(null),
    });
  };

  return (
    <Box component="section" aria-labelledby="absence-note-list-title" sx={{ display: 'grid', gap: 1.5 }}>
      <Typography variant="h2" id="absence-note-list-title">
        Notes sent
      </Typography>
      {notes.length === 0 && (
        <Typography color="text.secondary" role="status">
          No absence notes yet.
        </Typography>
      )}
      {notes.map((note) => (
        <Paper key={note.id} variant="outlined" component="article" sx={{ p: 2, display: 'grid', gap: 0.5 }} data-testid="absence-note">
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', justifyContent: 'space-between' }}>
            <Typography sx={{ fontWeight: 600 }}>
              {noteDays(note)} · {ABSENCE_PART_LABELS[note.part]}
            </Typography>
            <Chip size="small" color={STATE_COLORS[note.state]} label={ABSENCE_NOTE_STATE_LABELS[note.state]} />
          </Box>
          <Typography variant="body2">
            {absenceReasonLabel(note.reason)}
            {note.text ? `: ${note.text}` : ''}
          </Typography>
          {note.attachment && (
            <Link href={note.attachment.url} target="_blank" rel="noopener" variant="body2">
              {note.attachment.file_name}
            </Link>
          )}
          {note.sent_by && (
            <Typography variant="caption" color="text.secondary">
              Sent by {note.sent_by} on {note.created_at.slice(0, 10)}
            </Typography>
          )}
          {note.decision && (
            <Alert severity={note.state === 'accepted' ? 'success' : 'warning'} sx={{ mt: 0.5 }}>
              The school&apos;s answer: {note.decision.text}
            </Alert>
          )}
          {note.state === 'waiting' && canWithdraw && (
            <Box>
              <Button size="small" onClick={() => setAsked(note)}>
                Withdraw
              </Button>
            </Box>
          )}
        </Paper>
      ))}
      <ConfirmDialog open={asked !== null} title="Withdraw this note?" confirmLabel="Withdraw" onConfirm={confirm} onCancel={() => setAsked(null)} busy={withdraw.isPending}>
        {asked ? `The note for ${noteDays(asked)} will no longer wait for the school.` : ''}
      </ConfirmDialog>
    </Box>
  );
}
