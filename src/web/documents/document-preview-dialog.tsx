import CloseIcon from '@mui/icons-material/Close';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { UploadedFile } from '../../shared/documents.schemas.js';
import { DownloadPdfButton, PdfView } from '../components/pdf-view.js';

/**
 * An uploaded file opened in a dialog (docs/requirements.md R7: the preview opens the file): the
 * picture itself (with "Open file"), or the PDF (with Download PDF) in a frame, as page images on a
 * phone (D45). Full screen on phones.
 */
export function DocumentPreviewDialog({ file, label, onClose }: { file: UploadedFile | null; label: string; onClose: () => void }) {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const title = file ? `${label}: ${file.name}` : label;
  return (
    <Dialog open={file !== null} onClose={onClose} fullScreen={narrow} fullWidth maxWidth="md" aria-labelledby="document-preview-title">
      <DialogTitle id="document-preview-title" sx={{ pr: 6, overflowWrap: 'anywhere' }}>
        {title}
        <IconButton aria-label="Close" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers sx={{ p: 0, display: 'flex', justifyContent: 'center', bgcolor: 'grey.100' }}>
        {file &&
          (file.mime === 'application/pdf' ? (
            <PdfView url={file.url} title={title} frameSx={{ height: '75vh', minHeight: 320 }} />
          ) : (
            <Box component="img" src={file.url} alt={title} sx={{ maxWidth: '100%', maxHeight: narrow ? '100%' : '75vh', objectFit: 'contain' }} />
          ))}
      </DialogContent>
      <DialogActions>
        {file &&
          (file.mime === 'application/pdf' ? (
            <DownloadPdfButton url={file.url} />
          ) : (
            <Button href={file.url} target="_blank" rel="noopener" startIcon={<OpenInNewIcon />}>
              Open file
            </Button>
          ))}
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
