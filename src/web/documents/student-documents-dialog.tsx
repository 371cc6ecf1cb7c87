import { useState, type ComponentType } from 'react';
import ImageIcon from '@mui/icons-material/Image';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { DOCUMENT_SLOTS, formatBytes, type DocumentSlot, type DocumentType, type UploadedFile } from '../../shared/documents.schemas.js';
import { schoolDayOf } from '../../shared/dates.js';
import { PageSpinner } from '../components/page-spinner.js';
import { errorMessage } from '../lib/api-client.js';
import { DocumentPreviewDialog } from './document-preview-dialog.js';
import { useFiles } from './documents.api.js';

/** The student whose documents are shown: the list's row. */
export interface DocumentsOf {
  id: string;
  /** 'Campbell, Jordan', as the list writes it. */
  name: string;
}

/** A document's decision and its "Change decision", drawn by the review feature (app/ hands it in for the office). */
export type DocumentDecisionView = ComponentType<{ studentId: string; fileType: DocumentType }>;

/**
 * A student's uploaded documents, opened from the admin student list: every
 * slot of the Documents step with its file name, size and upload date, or "Not uploaded", and a
 * preview that opens the file in the same dialog the student's own Documents step uses. Reads
 * `GET /api/get-files/{id}`, which serves the student and administrators (access `self`). Full
 * screen on a phone.
 */
export function StudentDocumentsDialog({ student, onClose, decision }: { student: DocumentsOf | null; onClose: () => void; decision?: DocumentDecisionView | undefined }) {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const title = student ? `Documents — ${student.name} (${student.id})` : 'Documents';
  return (
    <Dialog open={student !== null} onClose={onClose} fullScreen={narrow} fullWidth maxWidth="sm" aria-labelledby="student-documents-title">
      <DialogTitle id="student-documents-title" sx={{ overflowWrap: 'anywhere' }}>
        {title}
      </DialogTitle>
      <DialogContent dividers sx={{ p: 0 }}>{student && <DocumentList studentId={student.id} decision={decision} />}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

function DocumentList({ studentId, decision }: { studentId: string; decision: DocumentDecisionView | undefined }) {
  const files = useFiles(studentId);
  const [preview, setPreview] = useState<{ file: UploadedFile; label: string } | null>(null);
  if (files.isPending) return <PageSpinner label="Loading the documents" />;
  if (files.isError) {
    return (
      <Alert severity="error" role="alert" sx={{ m: 2 }}>
        {errorMessage(files.error)}
      </Alert>
    );
  }
  return (
    <>
      <List aria-label="Documents" disablePadding>
        {DOCUMENT_SLOTS.map((slot, index) => (
          <DocumentRow
            key={slot.type}
            slot={slot}
            file={files.data.find((file) => file.type === slot.type)}
            divider={index < DOCUMENT_SLOTS.length - 1}
            onPreview={(file) => setPreview({ file, label: slot.label })}
            decision={decision ? { View: decision, studentId } : undefined}
          />
        ))}
      </List>
      <DocumentPreviewDialog file={preview?.file ?? null} label={preview?.label ?? ''} onClose={() => setPreview(null)} />
    </>
  );
}

interface DocumentRowProps {
  slot: DocumentSlot;
  file: UploadedFile | undefined;
  divider: boolean;
  onPreview: (file: UploadedFile) => void;
  decision: { View: DocumentDecisionView; studentId: string } | undefined;
}

function DocumentRow({ slot, file, divider, onPreview, decision }: DocumentRowProps) {
  const [thumbnailBroken, setThumbnailBroken] = useState(false);
  return (
    <ListItem divider={divider} sx={{ gap: 2, py: 1.5, alignItems: decision ? 'flex-start' : 'center' }} data-testid={`document-${slot.type}`}>
      {file ? (
        <ButtonBase
          onClick={() => onPreview(file)}
          aria-label={`View ${slot.label}: ${file.name}`}
          sx={{ borderRadius: 1, border: 1, borderColor: 'divider', width: 56, height: 68, flexShrink: 0, overflow: 'hidden', bgcolor: 'grey.50' }}
        >
          {file.thumbnail_url && !thumbnailBroken ? (
            // The small picture made on the server, never the photo itself (D74).
            <Box component="img" src={file.thumbnail_url} alt="" onError={() => setThumbnailBroken(true)} sx={{ width: '100%', height: '100%', objectFit: 'cover' }} />
          ) : file.mime === 'application/pdf' ? (
            <PictureAsPdfIcon color="error" sx={{ fontSize: 32 }} aria-hidden />
          ) : (
            <ImageIcon color="action" sx={{ fontSize: 32 }} aria-hidden />
          )}
        </ButtonBase>
      ) : (
        <Box sx={{ width: 56, height: 68, flexShrink: 0, borderRadius: 1, border: 1, borderStyle: 'dashed', borderColor: 'divider' }} aria-hidden />
      )}
      <Box sx={{ minWidth: 0, flexGrow: 1 }}>
        <Typography component="h3" sx={{ fontWeight: 600 }}>
          {slot.label}
        </Typography>
        {file ? (
          <>
            <Typography sx={{ overflowWrap: 'anywhere' }}>{file.name}</Typography>
            <Typography variant="body2" color="text.secondary">
              {formatBytes(file.size)} · uploaded {schoolDayOf(file.uploaded_at)}
            </Typography>
            {decision && <decision.View studentId={decision.studentId} fileType={slot.type} />}
          </>
        ) : (
          <>
            <Typography color="text.secondary">Not uploaded</Typography>
            {decision && <decision.View studentId={decision.studentId} fileType={slot.type} />}
          </>
        )}
      </Box>
    </ListItem>
  );
}
