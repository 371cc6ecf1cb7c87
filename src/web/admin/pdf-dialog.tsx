import CloseIcon from '@mui/icons-material/Close';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';

interface PdfDialogProps {
  /** The PDF's URL; null keeps the dialog closed. */
  url: string | null;
  title: string;
  onClose: () => void;
}

/**
 * A full-screen dialog with an embedded PDF and a Close button (SPEC §2: the registration form
 * from the student list, a report card from the student's term reports).
 */
export function PdfDialog({ url, title, onClose }: PdfDialogProps) {
  return (
    <Dialog fullScreen open={url !== null} onClose={onClose} aria-labelledby="pdf-dialog-title">
      <AppBar position="relative" elevation={0}>
        <Toolbar sx={{ gap: 1 }}>
          <Typography id="pdf-dialog-title" component="h2" variant="h6" noWrap sx={{ flexGrow: 1, minWidth: 0 }}>
            {title}
          </Typography>
          <Button color="inherit" startIcon={<CloseIcon aria-hidden />} onClick={onClose}>
            Close
          </Button>
        </Toolbar>
      </AppBar>
      {url !== null && (
        <Box component="iframe" src={url} title={title} sx={{ border: 0, width: '100%', flexGrow: 1, bgcolor: 'grey.100' }} />
      )}
    </Dialog>
  );
}
