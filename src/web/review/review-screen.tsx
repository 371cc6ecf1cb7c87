import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { listName } from '../../shared/students.schemas.js';
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
  const { decidedRef, decided, markDecided } = useDecidedDocuments();
  const [lastReturned, setLastReturned] = useState<{ studentId: string; text: string } | null>(null);
  const isShown = item !== undefined && shownId === item.public_id;
  const isDecided = item !== undefined && decided.has(item.public_id);
  const mayDecide = isShown && !isDecided && !review.isPending;
  // The student last shown stays at hand for the registration decision once their documents are done.
  const lastStudent = useLastStudent(item?.student);

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

  useDecisionKeys({ returning, mayDecide, accept, next, startReturning: () => setReturning(true) });

  return (
    <Stack spacing={2}>
      <Typography variant="h1" sx={{ fontSize: '1.5rem' }}>
        Document Review
      </Typography>
      <QueueFilters
        classId={classId}
        fileType={fileType}
        total={queue.data?.total}
        onClass={(value) => (setClassId(value), setSkipped([]))}
        onFileType={(value) => (setFileType(value), setSkipped([]))}
      />
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
          <DocumentPreview item={item} onShown={() => setShownId(item.public_id)} />
          <Stack spacing={2}>
            <ReviewStudent item={item} />
            {returning ? (
              <ReturnForm
                studentId={item.student.id}
                reason={reason}
                details={details}
                reasonError={reasonError}
                mayDecide={mayDecide}
                onReason={(value) => (setReason(value), setReasonError(null))}
                onDetails={setDetails}
                onSubmit={sendReturn}
                onCancel={reset}
              />
            ) : (
              <DecisionButtons
                mayDecide={mayDecide}
                isShown={isShown}
                isDecided={isDecided}
                onAccept={accept}
                onReturn={() => setReturning(true)}
                onNext={next}
              />
            )}
            <RegistrationDecision studentId={item.student.id} name={listName(item.student)} />
          </Stack>
        </Box>
      )}
      {!item && lastStudent && <RegistrationDecision studentId={lastStudent.id} name={listName(lastStudent)} />}
    </Stack>
  );
}

/** The documents decided in this view, so each takes one decision (D81). */
function useDecidedDocuments() {
  // The ref answers at once (two key presses before a render); the state draws the buttons.
  const decidedRef = useRef(new Set<string>());
  const [decided, setDecided] = useState<ReadonlySet<string>>(new Set());
  const markDecided = (publicId: string, isDecidedNow: boolean) => {
    if (isDecidedNow) decidedRef.current.add(publicId);
    else decidedRef.current.delete(publicId);
    setDecided(new Set(decidedRef.current));
  };
  return { decidedRef, decided, markDecided };
}

/** The student last shown; it stays once the queue has no document of theirs left. */
function useLastStudent(shownStudent: QueueItem['student'] | undefined) {
  const [lastStudent, setLastStudent] = useState<QueueItem['student'] | null>(null);
  useEffect(() => {
    if (shownStudent) setLastStudent(shownStudent);
  }, [shownStudent]);
  return lastStudent;
}

/** A document type's label, as the slots name it (the type itself when unknown). */
function slotLabel(type: string) {
  return DOCUMENT_SLOTS.find((slot) => slot.type === type)?.label ?? type;
}

/**
 * A, R and N on the page decide, start a return and skip; never while typing in a field or with
 * a modifier held, and not while the return form is open.
 */
function useDecisionKeys({
  returning,
  mayDecide,
  accept,
  next,
  startReturning,
}: {
  returning: boolean;
  mayDecide: boolean;
  accept: () => void;
  next: () => void;
  startReturning: () => void;
}) {
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
        if (mayDecide) startReturning();
      }
      else next();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
}

/** The queue's filters, by class and by document type, and how many documents wait. */
function QueueFilters({
  classId,
  fileType,
  total,
  onClass,
  onFileType,
}: {
  classId: string;
  fileType: DocumentType | '';
  total: number | undefined;
  onClass: (classId: string) => void;
  onFileType: (fileType: DocumentType | '') => void;
}) {
  const classes = useFormClasses();
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      <TextField select label="Class" value={classId} onChange={(event) => onClass(event.target.value)} sx={{ minWidth: 160 }}>
        <MenuItem value="">All classes</MenuItem>
        {(classes.data ?? []).map((formClass) => (
          <MenuItem key={formClass.id} value={formClass.id}>
            {formClass.id}
          </MenuItem>
        ))}
      </TextField>
      <TextField select label="Document type" value={fileType} onChange={(event) => onFileType(event.target.value as DocumentType | '')} sx={{ minWidth: 200 }}>
        <MenuItem value="">All types</MenuItem>
        {DOCUMENT_SLOTS.map((slot) => (
          <MenuItem key={slot.type} value={slot.type}>
            {slot.label}
          </MenuItem>
        ))}
      </TextField>
      <Typography sx={{ alignSelf: 'center' }} data-testid="queue-total">
        {total !== undefined ? `${total} waiting` : ''}
      </Typography>
    </Stack>
  );
}

/** The document itself; `onShown` fires once its preview has loaded (D81). */
function DocumentPreview({ item, onShown }: { item: QueueItem; onShown: () => void }) {
  return (
    <Paper variant="outlined" sx={{ minHeight: { xs: 320, md: 560 }, overflow: 'hidden' }}>
      {item.mime.startsWith('image/') ? (
        <Box
          component="img"
          key={item.public_id}
          src={item.url}
          alt={`${slotLabel(item.file_type)} of ${listName(item.student)}`}
          onLoad={onShown}
          sx={{ width: '100%', height: '100%', objectFit: 'contain' }}
        />
      ) : (
        // The one way a PDF is shown (D45): the browser's viewer on wide screens, page images on a phone.
        <PdfView url={item.url} title={`${slotLabel(item.file_type)} of ${listName(item.student)}`} frameSx={{ height: 560 }} onShown={onShown} />
      )}
    </Paper>
  );
}

/** Beside the document: what it is and the student's details to check it against. */
function ReviewStudent({ item }: { item: QueueItem }) {
  return (
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
  );
}

/** Returning a document: a reason, words for the family, and how the family will be reached. */
function ReturnForm({
  studentId,
  reason,
  details,
  reasonError,
  mayDecide,
  onReason,
  onDetails,
  onSubmit,
  onCancel,
}: {
  studentId: string;
  reason: DocumentReturnReason | '';
  details: string;
  reasonError: string | null;
  mayDecide: boolean;
  onReason: (reason: DocumentReturnReason) => void;
  onDetails: (details: string) => void;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  return (
    <Stack spacing={1.5} component="form" method="post" onSubmit={(event) => (event.preventDefault(), onSubmit())}>
      <TextField
        select
        label="Reason"
        value={reason}
        onChange={(event) => onReason(event.target.value as DocumentReturnReason)}
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
      <TextField label="Words for the family" value={details} onChange={(event) => onDetails(event.target.value)} multiline minRows={2} slotProps={{ htmlInput: { maxLength: 500 } }} />
      <FamilyReach studentId={studentId} showNotice={false} />
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" color="warning" disabled={!mayDecide}>
          Return to family
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </Stack>
    </Stack>
  );
}

/** Accept, Return and Next with their keys, and why Accept and Return wait when they do. */
function DecisionButtons({
  mayDecide,
  isShown,
  isDecided,
  onAccept,
  onReturn,
  onNext,
}: {
  mayDecide: boolean;
  isShown: boolean;
  isDecided: boolean;
  onAccept: () => void;
  onReturn: () => void;
  onNext: () => void;
}) {
  return (
    <Stack spacing={0.5}>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button variant="contained" color="success" onClick={onAccept} disabled={!mayDecide} aria-keyshortcuts="A" aria-describedby="review-decision-help">
          Accept (A)
        </Button>
        <Button variant="outlined" color="warning" onClick={onReturn} disabled={!mayDecide} aria-keyshortcuts="R" aria-describedby="review-decision-help">
          Return (R)
        </Button>
        <Button onClick={onNext} aria-keyshortcuts="N">
          Next (N)
        </Button>
      </Stack>
      <Typography id="review-decision-help" variant="body2" color="text.secondary" data-testid="review-decision-help">
        {!isShown ? 'Accept and Return wait until the document is on the screen.' : isDecided ? 'Decision sent for this document.' : ' '}
      </Typography>
    </Stack>
  );
}
