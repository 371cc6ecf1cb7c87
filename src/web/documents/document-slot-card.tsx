import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import DeleteIcon from '@mui/icons-material/Delete';
import FolderOpenIcon from '@mui/icons-material/FolderOpen';
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
import { useId, useRef, useState, type ChangeEvent } from 'react';
import {
  acceptAttribute,
  acceptedKindsLabel,
  DOCUMENT_MESSAGES,
  formatBytes,
  type DocumentSlot,
  type UploadedFile,
} from '../../shared/documents.schemas.js';
import { ApiError } from '../lib/api-client.js';
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

/** The detail under 'Could not upload the file!': what the server said, minus the repeated words. */
function uploadDetail(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const detail = error.displayMessage.replace(DOCUMENT_MESSAGES.uploadFailed, '').trim();
  return detail === '' ? null : detail;
}

/**
 * One document slot (SPEC §4): empty → uploading with a progress bar → uploaded (file name, a
 * preview that opens the file, Remove, Resubmit). Messages are the spec's words (SPEC §5, §8).
 * Resubmit is one step: the file chosen uploads at once. Remove asks first (D42).
 */
export function DocumentSlotCard({ slot, required, file, studentId, editable, onStored }: Props) {
  const inputRef = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const replaceRef = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<File | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [progress, setProgress] = useState(0);
  const [message, setMessage] = useState<{ title: string; detail: string | null } | null>(null);
  const [previewOpen, setPreviewOpen] = useState(false);
  const upload = useUploadDocument(studentId, onStored);
  const remove = useDeleteDocument(studentId, onStored);

  const uploading = upload.isPending;
  // A document the office returned keeps its file until replaced, and its slot is ready for a new one.
  const returned = file?.review_state === 'returned';
  const showChooser = editable && (file === undefined || returned);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    setChosen(event.target.files?.[0] ?? null);
    setMessage(null);
  };

  const resetChooser = () => {
    setChosen(null);
    if (inputRef.current) inputRef.current.value = '';
  };

  const uploadFile = (chosenFile: File) => {
    setMessage(null);
    setProgress(0);
    upload.mutate(
      { fileType: slot.type, file: chosenFile, onProgress: setProgress },
      {
        onSuccess: resetChooser,
        onError: (error) => setMessage({ title: DOCUMENT_MESSAGES.uploadFailed, detail: uploadDetail(error) }),
      },
    );
  };

  const startUpload = () => {
    if (!chosen) {
      setMessage({ title: DOCUMENT_MESSAGES.selectFile, detail: null });
      return;
    }
    uploadFile(chosen);
  };

  /** Resubmit: the file chosen replaces the stored one straight away. */
  const chooseReplacement = (event: ChangeEvent<HTMLInputElement>) => {
    const replacement = event.target.files?.[0];
    event.target.value = '';
    if (replacement) uploadFile(replacement);
  };

  const startRemove = () => {
    setConfirmRemove(false);
    if (!file) return;
    setMessage(null);
    remove.mutate(file, { onError: () => setMessage({ title: DOCUMENT_MESSAGES.deleteFailed, detail: null }) });
  };

  const done = file !== undefined && !returned;
  const isImage = file !== undefined && file.mime.startsWith('image/');

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
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mt: 2 }}>
            <ButtonBase
              onClick={() => setPreviewOpen(true)}
              aria-label={`View ${slot.label}: ${file.name}`}
              sx={{ borderRadius: 1, border: 1, borderColor: 'divider', width: 72, height: 88, flexShrink: 0, overflow: 'hidden', bgcolor: 'grey.50' }}
            >
              {isImage ? (
                <Box component="img" src={file.url} alt="" sx={{ width: '100%', height: '100%', objectFit: 'cover' }} />
              ) : (
                <PictureAsPdfIcon color="error" sx={{ fontSize: 40 }} aria-hidden />
              )}
            </ButtonBase>
            <Box sx={{ minWidth: 0 }}>
              <Typography sx={{ overflowWrap: 'anywhere', fontWeight: 500 }} data-testid="file-name">
                {file.name}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {formatBytes(file.size)} · uploaded {file.uploaded_at.slice(0, 10)}
              </Typography>
            </Box>
          </Stack>
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

        {showChooser && (
          <Box sx={{ mt: 2 }}>
            <input
              ref={inputRef}
              type="file"
              name={`file-${slot.type}`}
              accept={acceptAttribute(slot)}
              onChange={choose}
              aria-label={`Choose a file for ${slot.label}`}
              tabIndex={-1}
              style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' }}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { xs: 'stretch', sm: 'center' } }}>
              <Button variant="outlined" startIcon={<FolderOpenIcon />} onClick={() => inputRef.current?.click()} disabled={uploading}>
                Choose file
              </Button>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere', flexGrow: 1 }} data-testid="chosen-file">
                {chosen ? `${chosen.name} (${formatBytes(chosen.size)})` : 'No file chosen'}
              </Typography>
            </Stack>
          </Box>
        )}

        {uploading && (
          <Box sx={{ mt: 2 }}>
            <LinearProgress
              variant="determinate"
              value={Math.round(progress * 100)}
              aria-label={`Uploading ${slot.label}`}
            />
            <Typography variant="caption" color="text.secondary">
              Uploading… {Math.round(progress * 100)}%
            </Typography>
          </Box>
        )}

        {message && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {message.detail ? <AlertTitle>{message.title}</AlertTitle> : message.title}
            {message.detail}
          </Alert>
        )}
      </CardContent>

      {editable && (
        <CardActions sx={{ flexWrap: 'wrap', gap: 1, px: 2, pb: 2 }}>
          {showChooser && (
            <Button variant="contained" startIcon={<CloudUploadIcon />} onClick={startUpload} disabled={uploading}>
              Upload
            </Button>
          )}
          {file && (
            <>
              <input
                ref={replaceRef}
                type="file"
                name={`replace-${slot.type}`}
                accept={acceptAttribute(slot)}
                onChange={chooseReplacement}
                aria-label={`Choose a new file for ${slot.label}`}
                tabIndex={-1}
                style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' }}
              />
              <Button startIcon={<ReplayIcon />} onClick={() => replaceRef.current?.click()} disabled={remove.isPending || uploading}>
                Resubmit
              </Button>
              <Button color="error" startIcon={<DeleteIcon />} onClick={() => setConfirmRemove(true)} disabled={remove.isPending || uploading}>
                Remove
              </Button>
            </>
          )}
        </CardActions>
      )}

      <Dialog open={confirmRemove && file !== undefined} onClose={() => setConfirmRemove(false)} aria-labelledby={`${headingId}-remove`}>
        <DialogTitle id={`${headingId}-remove`}>Remove {slot.label}?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {file?.name} will be deleted from the student’s documents. Upload it again if you need it back.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmRemove(false)} autoFocus>
            Cancel
          </Button>
          <Button color="error" variant="contained" onClick={startRemove}>
            Remove
          </Button>
        </DialogActions>
      </Dialog>
      <DocumentPreviewDialog file={previewOpen && file ? file : null} label={slot.label} onClose={() => setPreviewOpen(false)} />
    </Card>
  );
}
