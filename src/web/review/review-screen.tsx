import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { listName } from '../../shared/admin.schemas.js';
import { DOCUMENT_SLOTS, type DocumentType } from '../../shared/documents.slots.js';
import { DOCUMENT_RETURN_REASONS, type DocumentReturnReason, type QueueItem } from '../../shared/review.schemas.js';
import { schoolDayOf } from '../../shared/dates.js';
import { PdfView } from '../components/pdf-view.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage, isApiError } from '../lib/api-client.js';
import { useFormClasses } from '../lib/form-classes.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { FamilyReach } from './family-reach.js';
import { RegistrationDecision } from './registration-decision.js';
import { useDocumentQueue, useReviewDocument } from './review.api.js';

/**
 * The office's document review (D56): the queue oldest first, filtered by class and
 * type, the document beside the student's details; A accepts, R returns (with a reason), N skips
 * to the next. Below, the student's registration: verify, return with a note and steps, reopen.
 *
 * A decision needs the document seen (docs/decisions.md D81): Accept and Return act only once
 * this document's preview has loaded (a condition, not a timer); a key held down is one press
 * (`event.repeat` is ignored); and a document takes one decision per view, while it is being
 * sent and after, so the queue moving on never hands a held key the next document.
 */
export function ReviewScreen() {
  usePageTitle('Document Review');
  const show = useSnackbar();
  const classes = useFormClasses();
  const [classId, setClassId] = useState('');
  const [fileType, setFileType] = useState<DocumentType | ''>('');
  const [skipped, setSkipped] = useState<string[]>([]);
  const [returning, setReturning] = useState(false);
  const [reason, setReason] = useState<DocumentReturnReason | ''>('');
  const [details, setDetails] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const queue = useDocumentQueue({ ...(classId ? { class_id: classId } : {}), ...(fileType ? { file_type: fileType } : {}) });
  const review = useReviewDocument();
  const item = queue.data?.items.find((entry) => !skipped.includes(entry.public_id));
  // The document whose preview is on the screen, and those decided in this view (one decision each).
  const [shownId, setShownId] = useState<string | null>(null);
  // The ref answers at once (two key presses before a render); the state draws the buttons.
  const decidedRef = useRef(new Set<string>());
  const [decided, setDecided] = useState<ReadonlySet<string>>(new Set());
  const markDecided = (publicId: string, isDecidedNow: boolean) => {
    if (isDecidedNow) decidedRef.current.add(publicId);
    else decidedRef.current.delete(publicId);
    setDecided(new Set(decidedRef.current));
  };
  const [lastReturned, setLastReturned] = useState<{ studentId: string; text: string } | null>(null);
  const isShown = item !== undefined && shownId === item.public_id;
  const isDecided = item !== undefined && decided.has(item.public_id);
  const mayDecide = isShown && !isDecided && !review.isPending;
  // The student last shown stays at hand for the registration decision once their documents are done.
  const [lastStudent, setLastStudent] = useState<QueueItem['student'] | null>(null);
  const shownStudent = item?.student;
  useEffect(() => {
    if (shownStudent) setLastStudent(shownStudent);
  }, [shownStudent]);

  const reset = () => {
    setReturning(false);
    setReason('');
    setDetails('');
    setReasonError(null);
  };
  /** Sends one decision on the document shown, at most once per document in this view. */
  const decide = (input: Parameters<typeof review.mutate>[0]['input'], onError: (message: string) => void, onSuccess?: () => void) => {
    if (!item || !mayDecide || decidedRef.current.has(item.public_id)) return;
    const publicId = item.public_id;
    markDecided(publicId, true);
    review.mutate(
      { publicId, input },
      {
        onSuccess: (answer) => (reset(), show(answer.message), onSuccess?.()),
        onError: (error) => {
          // Nothing was stored: the document may take a decision again, unless another one was taken (409).
          if (!isApiError(error, 'conflict')) markDecided(publicId, false);
          else void queue.refetch();
          onError(errorMessage(error));
        },
      },
    );
  };
  const accept = () => decide({ decision: 'accept' }, (message) => show(message, 'error'));
  const sendReturn = () => {
    if (!item) return;
    if (!reason) return setReasonError('Choose a reason.');
    const student = item.student;
    decide({ decision: 'return', reason, ...(details.trim() ? { details } : {}) }, setReasonError, () =>
      setLastReturned({ studentId: student.id, text: `${slotLabel(item.file_type)} of ${listName(student)} returned.` }),
    );
  };
  const next = () => {
    if (item) setSkipped((list) => [...list, item.public_id]);
    reset();
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.getAttribute('role') === 'combobox')) return;
      if (event.ctrlKey || event.metaKey || event.altKey || returning) return;
      const key = event.key.toLowerCase();
      if (!['a', 'r', 'n'].includes(key)) return;
      event.preventDefault();
      // A key held down is one press: its repeats decide nothing (D81).
      if (event.repeat) return;
      if (key === 'a') accept();
      else if (key === 'r') {
        if (mayDecide) setReturning(true);
      }
      else next();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const slotLabel = (type: string) => DOCUMENT_SLOTS.find((slot) => slot.type === type)?.label ?? type;

  return (
    <Stack spacing={2}>
      <Typography variant="h1" sx={{ fontSize: '1.5rem' }}>
        Document Review
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField select label="Class" value={classId} onChange={(event) => (setClassId(event.target.value), setSkipped([]))} sx={{ minWidth: 160 }}>
          <MenuItem value="">All classes</MenuItem>
          {(classes.data ?? []).map((formClass) => (
            <MenuItem key={formClass.id} value={formClass.id}>
              {formClass.id}
            </MenuItem>
          ))}
        </TextField>
        <TextField select label="Document type" value={fileType} onChange={(event) => (setFileType(event.target.value as DocumentType | ''), setSkipped([]))} sx={{ minWidth: 200 }}>
          <MenuItem value="">All types</MenuItem>
          {DOCUMENT_SLOTS.map((slot) => (
            <MenuItem key={slot.type} value={slot.type}>
              {slot.label}
            </MenuItem>
          ))}
        </TextField>
        <Typography sx={{ alignSelf: 'center' }} data-testid="queue-total">
          {queue.data ? `${queue.data.total} waiting` : ''}
        </Typography>
      </Stack>
      {queue.isError && <Alert severity="error">{errorMessage(queue.error)}</Alert>}
      {lastReturned && (
        <Stack spacing={1} data-testid="last-returned">
          <Typography variant="body2">{lastReturned.text}</Typography>
          <FamilyReach key={lastReturned.studentId} studentId={lastReturned.studentId} />
        </Stack>
      )}
      {queue.data && !item && <Alert severity="success">Nothing waiting for review here.</Alert>}
      {item && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 2fr) minmax(0, 1fr)' } }}>
          <Paper variant="outlined" sx={{ minHeight: { xs: 320, md: 560 }, overflow: 'hidden' }}>
            {item.mime.startsWith('image/') ? (
              <Box
                component="img"
                key={item.public_id}
                src={item.url}
                alt={`${slotLabel(item.file_type)} of ${listName(item.student)}`}
                onLoad={() => setShownId(item.public_id)}
                sx={{ width: '100%', height: '100%', objectFit: 'contain' }}
              />
            ) : (
              // The one way a PDF is shown (D45): the browser's viewer on wide screens, page images on a phone.
              <PdfView url={item.url} title={`${slotLabel(item.file_type)} of ${listName(item.student)}`} frameSx={{ height: 560 }} onShown={() => setShownId(item.public_id)} />
            )}
          </Paper>
          <Stack spacing={2}>
            <Paper variant="outlined" sx={{ p: 2 }} data-testid="review-student">
              <Typography variant="h2" sx={{ fontSize: '1.1rem' }}>
                {slotLabel(item.file_type)}
              </Typography>
              <Typography>{listName(item.student)}</Typography>
              <Typography variant="body2" color="text.secondary">
                ID {item.student.id} · Class {item.student.class_id ?? '—'} · Born {item.student.date_of_birth ?? '—'} · Sex {item.student.sex ?? '—'}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                Birth certificate pin {item.student.birth_certificate_no ?? '—'} · {item.file_name} · uploaded {schoolDayOf(item.uploaded_at)}
              </Typography>
            </Paper>
            {returning ? (
              <Stack spacing={1.5} component="form" onSubmit={(event) => (event.preventDefault(), sendReturn())}>
                <TextField
                  select
                  label="Reason"
                  value={reason}
                  onChange={(event) => (setReason(event.target.value as DocumentReturnReason), setReasonError(null))}
                  error={reasonError !== null}
                  helperText={reasonError ?? ' '}
                  autoFocus
                >
                  {DOCUMENT_RETURN_REASONS.map((entry) => (
                    <MenuItem key={entry.code} value={entry.code}>
                      {entry.label}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField label="Words for the family" value={details} onChange={(event) => setDetails(event.target.value)} multiline minRows={2} slotProps={{ htmlInput: { maxLength: 500 } }} />
                <FamilyReach studentId={item.student.id} showNotice={false} />
                <Stack direction="row" spacing={1}>
                  <Button type="submit" variant="contained" color="warning" disabled={!mayDecide}>
                    Return to family
                  </Button>
                  <Button onClick={reset}>Cancel</Button>
                </Stack>
              </Stack>
            ) : (
              <Stack spacing={0.5}>
                <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
                  <Button variant="contained" color="success" onClick={accept} disabled={!mayDecide} aria-keyshortcuts="A" aria-describedby="review-decision-help">
                    Accept (A)
                  </Button>
                  <Button variant="outlined" color="warning" onClick={() => setReturning(true)} disabled={!mayDecide} aria-keyshortcuts="R" aria-describedby="review-decision-help">
                    Return (R)
                  </Button>
                  <Button onClick={next} aria-keyshortcuts="N">
                    Next (N)
                  </Button>
                </Stack>
                <Typography id="review-decision-help" variant="body2" color="text.secondary" data-testid="review-decision-help">
                  {!isShown ? 'Accept and Return wait until the document is on the screen.' : isDecided ? 'Decision sent for this document.' : ' '}
                </Typography>
              </Stack>
            )}
            <RegistrationDecision studentId={item.student.id} name={listName(item.student)} />
          </Stack>
        </Box>
      )}
      {!item && lastStudent && <RegistrationDecision studentId={lastStudent.id} name={listName(lastStudent)} />}
    </Stack>
  );
}
