import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import DeleteIcon from '@mui/icons-material/Delete';
import FolderOpenIcon from '@mui/icons-material/FolderOpen';
import ImageIcon from '@mui/icons-material/Image';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import ReplayIcon from '@mui/icons-material/Replay';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useRef, useState, type ChangeEvent, type CSSProperties } from 'react';
import {
  acceptAttribute,
  acceptedKindsLabel,
  DOCUMENT_MESSAGES,
  formatBytes,
  takesPhotos,
  type DocumentSlot,
  type UploadedFile,
} from '../../shared/documents.schemas.js';
import { schoolDayOf } from '../../shared/dates.js';
import { ApiError } from '../lib/api-client.js';
import { useUnsentWork } from '../lib/unsent-work.js';
import { DocumentPreviewDialog } from './document-preview-dialog.js';
import { useDeleteDocument, useUploadDocument } from './documents.api.js';

interface Props {
  slot: DocumentSlot;
  required: boolean;
  file: UploadedFile | undefined;
  studentId: string;
  editable: boolean;
  /** After an upload or a removal (the record's progress flags change with it). */
  onStored: () => void;
}

/**
 * Whether sending the same file again may work: the connection dropped, or the server (or a proxy)
 * was busy or failing. A file the server refused (wrong kind, too large, unreadable) fails the
 * same way again: the slot's chooser is the way on.
 */
function isWorthRetrying(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

/** The detail under 'Could not upload the file!': what the server said, minus the repeated words. */
function uploadDetail(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const detail = error.displayMessage.replace(DOCUMENT_MESSAGES.uploadFailed, '').trim();
  return detail === '' ? null : detail;
}

/** A file input kept in the page for its button to open, out of sight and out of the tab order. */
const HIDDEN_INPUT: CSSProperties = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' };

/** Where an upload is: the photo being made smaller, or the bytes on their way (0..1). */
type Sending = { phase: 'preparing' } | { phase: 'sending'; fraction: number };

/**
 * One document slot (docs/requirements.md R7): empty → uploading with a progress bar → uploaded (file name, a
 * thumbnail that opens the file, Remove, Resubmit). The file chosen uploads at once, a photo made
 * smaller first; a failure says why, and where sending again may work (a dropped connection, a
 * busy server) offers Try again with the same file (D74). One upload at a
 * time per slot: a second choice while one is on its way is ignored. On a touch screen a slot that
 * takes photos offers "Take a photo" (the camera straight away) beside "Choose a file" (the
 * phone's own chooser: photos, files, often the camera too). Remove asks first (D42).
 */
export function DocumentSlotCard({ slot, required, file, studentId, editable, onStored }: Props) {
  const replaceRef = useRef<HTMLInputElement>(null);
  const headingId = useId();
  // The step is rendered on the server (D99), which cannot know the screen: the first render
  // (and the hydration) is the mouse's, and a touch screen's follows at once.
  const touch = useMediaQuery('(pointer: coarse)');
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [previewOpen, setPreviewOpen] = useState(false);
  const { sending, uploading, failed, setFailed, message, setMessage, thumbnailBroken, setThumbnailBroken, send, onChosen } = useSlotUpload(slot, studentId, onStored);
  const remove = useDeleteDocument(studentId, onStored);

  // A document the office returned keeps its file until replaced, and its slot is ready for a new one.
  const returned = file?.review_state === 'returned';
  const showChooser = editable && (file === undefined || returned);
  const offerCamera = touch && takesPhotos(slot);

  const startRemove = () => {
    setConfirmRemove(false);
    if (!file) return;
    setMessage(null);
    setFailed(null);
    remove.mutate(file, { onError: () => setMessage({ title: DOCUMENT_MESSAGES.deleteFailed, detail: null }) });
  };

  const done = file !== undefined && !returned;

  return (
    <Card variant="outlined" component="section" aria-labelledby={headingId} data-testid={`slot-${slot.type}`} sx={{ display: 'flex', flexDirection: 'column' }}>
      <CardContent sx={{ pb: 1, flexGrow: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
          {done ? (
            <CheckCircleIcon color="success" titleAccess="uploaded" fontSize="small" />
          ) : (
            <RadioButtonUncheckedIcon color="disabled" titleAccess="not uploaded" fontSize="small" />
          )}
          <Typography variant="h2" id={headingId} sx={{ fontSize: '1.05rem', flexGrow: 1 }}>
            {slot.label}
          </Typography>
          <Chip size="small" label={required ? 'Required' : 'Optional'} color={required ? 'primary' : 'default'} variant="outlined" />
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {slot.hint} {acceptedKindsLabel(slot)} only.
        </Typography>

        {file && (
          <UploadedFileSummary
            file={file}
            label={slot.label}
            thumbnailBroken={thumbnailBroken}
            onThumbnailBroken={() => setThumbnailBroken(true)}
            onOpen={() => setPreviewOpen(true)}
          />
        )}

        {file && returned && (
          <Alert severity="warning" sx={{ mt: 2 }} data-testid="document-returned">
            <AlertTitle>Returned by the school office</AlertTitle>
            {file.review_reason ?? 'Please upload this document again.'}
          </Alert>
        )}
        {file?.review_state === 'accepted' && (
          <Chip size="small" color="success" label="Accepted by the school office" sx={{ mt: 1 }} data-testid="document-accepted" />
        )}

        {showChooser && <FileChooser slot={slot} offerCamera={offerCamera} uploading={uploading} onChosen={onChosen} />}

        {sending && <UploadProgress label={slot.label} sending={sending} />}

        {message && (
          <Alert
            severity="error"
            role="alert"
            sx={{ mt: 2 }}
            action={
              failed && editable ? (
                <Button color="inherit" size="small" startIcon={<ReplayIcon />} onClick={() => send(failed)} disabled={uploading} sx={{ whiteSpace: 'nowrap' }}>
                  Try again
                </Button>
              ) : undefined
            }
          >
            {message.detail ? <AlertTitle>{message.title}</AlertTitle> : message.title}
            {message.detail}
          </Alert>
        )}
      </CardContent>

      {editable && file && (
        <CardActions sx={{ flexWrap: 'wrap', gap: 1, px: 2, pb: 2 }}>
          <input
            ref={replaceRef}
            type="file"
            name={`replace-${slot.type}`}
            accept={acceptAttribute(slot)}
            onChange={onChosen}
            aria-label={`Choose a new file for ${slot.label}`}
            tabIndex={-1}
            style={HIDDEN_INPUT}
          />
          <Button startIcon={<ReplayIcon />} onClick={() => replaceRef.current?.click()} disabled={remove.isPending || uploading}>
            Resubmit
          </Button>
          <Button color="error" startIcon={<DeleteIcon />} onClick={() => setConfirmRemove(true)} disabled={remove.isPending || uploading}>
            Remove
          </Button>
        </CardActions>
      )}

      <RemoveDialog
        open={confirmRemove && file !== undefined}
        id={`${headingId}-remove`}
        label={slot.label}
        fileName={file?.name}
        onCancel={() => setConfirmRemove(false)}
        onRemove={startRemove}
      />
      <DocumentPreviewDialog file={previewOpen && file ? file : null} label={slot.label} onClose={() => setPreviewOpen(false)} />
    </Card>
  );
}

/** A slot's upload: the file chosen goes up at once, its progress, and what went wrong. */
function useSlotUpload(slot: DocumentSlot, studentId: string, onStored: () => void) {
  const [sending, setSending] = useState<Sending | null>(null);
  const [failed, setFailed] = useState<File | null>(null);
  const [message, setMessage] = useState<{ title: string; detail: string | null } | null>(null);
  const [thumbnailBroken, setThumbnailBroken] = useState(false);
  // Set at once, before React draws the disabled buttons: a double click or a second choice in the same moment finds it.
  const inFlight = useRef(false);
  const upload = useUploadDocument(studentId, onStored);

  const uploading = sending !== null;
  // Leaving the page while a file is on its way asks first (D73's leave warning).
  useUnsentWork(uploading);

  const send = (chosen: File) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setMessage(null);
    setFailed(null);
    setSending({ phase: 'preparing' });
    upload.mutate(
      {
        fileType: slot.type,
        file: chosen,
        onPreparing: () => setSending({ phase: 'preparing' }),
        onProgress: (fraction) => setSending({ phase: 'sending', fraction }),
      },
      {
        onSuccess: () => setThumbnailBroken(false),
        onError: (error) => {
          setFailed(isWorthRetrying(error) ? chosen : null);
          setMessage({ title: DOCUMENT_MESSAGES.uploadFailed, detail: uploadDetail(error) });
        },
        onSettled: () => {
          inFlight.current = false;
          setSending(null);
        },
      },
    );
  };

  /** A file chosen (from the files, the camera, or Resubmit) goes up straight away. */
  const onChosen = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    // Emptied, so choosing the same file again (after a failure) is a change too.
    event.target.value = '';
    if (chosen) send(chosen);
  };
  return { sending, uploading, failed, setFailed, message, setMessage, thumbnailBroken, setThumbnailBroken, send, onChosen };
}

/** The file in the slot: its thumbnail (which opens it), its name, size and day. */
function UploadedFileSummary({
  file,
  label,
  thumbnailBroken,
  onThumbnailBroken,
  onOpen,
}: {
  file: UploadedFile;
  label: string;
  thumbnailBroken: boolean;
  onThumbnailBroken: () => void;
  onOpen: () => void;
}) {
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mt: 2 }}>
      <ButtonBase
        onClick={onOpen}
        aria-label={`View ${label}: ${file.name}`}
        sx={{ borderRadius: 1, border: 1, borderColor: 'divider', width: 72, height: 88, flexShrink: 0, overflow: 'hidden', bgcolor: 'grey.50' }}
      >
        {file.thumbnail_url && !thumbnailBroken ? (
          // The small picture made on the server, never the photo itself (D74).
          <Box
            component="img"
            src={file.thumbnail_url}
            alt=""
            onError={onThumbnailBroken}
            sx={{ width: '100%', height: '100%', objectFit: 'cover' }}
            data-testid="thumbnail"
          />
        ) : file.mime === 'application/pdf' ? (
          <PictureAsPdfIcon color="error" sx={{ fontSize: 40 }} aria-hidden />
        ) : (
          <ImageIcon color="action" sx={{ fontSize: 40 }} aria-hidden />
        )}
      </ButtonBase>
      <Box sx={{ minWidth: 0 }}>
        <Typography sx={{ overflowWrap: 'anywhere', fontWeight: 500 }} data-testid="file-name">
          {file.name}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {formatBytes(file.size)} · uploaded {schoolDayOf(file.uploaded_at)}
        </Typography>
      </Box>
    </Stack>
  );
}

/** The hidden file inputs and the buttons that open them: Take a photo (on a touch screen, for photos) and Choose a file. */
function FileChooser({
  slot,
  offerCamera,
  uploading,
  onChosen,
}: {
  slot: DocumentSlot;
  offerCamera: boolean;
  uploading: boolean;
  onChosen: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  const fileRef = useRef<HTMLInputElement>(null);
  const cameraRef = useRef<HTMLInputElement>(null);
  return (
    <Box sx={{ mt: 2 }}>
      <input
        ref={fileRef}
        type="file"
        name={`file-${slot.type}`}
        accept={acceptAttribute(slot)}
        onChange={onChosen}
        aria-label={`Choose a file for ${slot.label}`}
        tabIndex={-1}
        style={HIDDEN_INPUT}
      />
      {offerCamera && (
        <input
          ref={cameraRef}
          type="file"
          name={`camera-${slot.type}`}
          accept="image/*"
          capture="environment"
          onChange={onChosen}
          aria-label={`Take a photo of the ${slot.label}`}
          tabIndex={-1}
          style={HIDDEN_INPUT}
        />
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { xs: 'stretch', sm: 'center' } }}>
        {offerCamera && (
          <Button variant="contained" startIcon={<PhotoCameraIcon />} onClick={() => cameraRef.current?.click()} disabled={uploading}>
            Take a photo
          </Button>
        )}
        <Button variant={offerCamera ? 'outlined' : 'contained'} startIcon={<FolderOpenIcon />} onClick={() => fileRef.current?.click()} disabled={uploading}>
          Choose a file
        </Button>
      </Stack>
    </Box>
  );
}

/** The upload's bar and words: preparing the photo, then the share sent. */
function UploadProgress({ label, sending }: { label: string; sending: Sending }) {
  const percent = sending?.phase === 'sending' ? Math.round(sending.fraction * 100) : 0;
  return (
    <Box sx={{ mt: 2 }} data-testid="upload-progress">
      {sending.phase === 'preparing' ? (
        <LinearProgress aria-label={`Uploading ${label}`} />
      ) : (
        <LinearProgress variant="determinate" value={percent} aria-label={`Uploading ${label}`} />
      )}
      <Typography variant="caption" color="text.secondary" role="status">
        {sending.phase === 'preparing' ? 'Preparing the file…' : `Uploading… ${percent}%`}
      </Typography>
    </Box>
  );
}

/** Remove asks first (D42). */
function RemoveDialog({
  open,
  id,
  label,
  fileName,
  onCancel,
  onRemove,
}: {
  open: boolean;
  id: string;
  label: string;
  fileName: string | undefined;
  onCancel: () => void;
  onRemove: () => void;
}) {
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={id}>
      <DialogTitle id={id}>Remove {label}?</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {fileName} will be deleted from the student’s documents. Upload it again if you need it back.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} autoFocus>
          Cancel
        </Button>
        <Button color="error" variant="contained" onClick={onRemove}>
          Remove
        </Button>
      </DialogActions>
    </Dialog>
  );
}
