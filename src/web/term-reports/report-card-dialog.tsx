import CloseIcon from '@mui/icons-material/Close';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { reportCardUrl } from '../../shared/term-reports.schemas.js';

export interface OpenReportCard {
  studentId: string;
  year: number;
  term: number | string;
  title: string;
}

/**
 * The report card in a full-screen dialog with Close (SPEC §2 Term Report screen). Phone browsers
 * often cannot show a PDF inside a page, so the bar also offers the card as a download, which the
 * phone opens in its own PDF viewer.
 */
export function ReportCardDialog({ card, onClose }: { card: OpenReportCard | null; onClose: () => void }) {
  const url = card ? reportCardUrl(card.studentId, card.year, card.term) : null;
  const downloadUrl = card ? reportCardUrl(card.studentId, card.year, card.term, true) : undefined;
  return (
    <Dialog fullScreen open={card !== null} onClose={onClose} aria-labelledby="report-card-title">
      <AppBar position="relative" elevation={0}>
        <Toolbar sx={{ gap: 1 }}>
          <Typography id="report-card-title" component="h2" variant="h6" noWrap sx={{ flexGrow: 1, minWidth: 0, fontSize: { xs: '1rem', sm: '1.25rem' } }}>
            <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
              End of Term Report ·{' '}
            </Box>
            {card?.title}
          </Typography>
          <Button color="inherit" href={downloadUrl ?? ''} startIcon={<FileDownloadIcon aria-hidden />} sx={{ display: { xs: 'none', sm: 'inline-flex' } }}>
            Download
          </Button>
          <IconButton color="inherit" href={downloadUrl ?? ''} aria-label="Download the report card" sx={{ display: { xs: 'inline-flex', sm: 'none' } }}>
            <FileDownloadIcon />
          </IconButton>
          <Button color="inherit" startIcon={<CloseIcon aria-hidden />} onClick={onClose}>
            Close
          </Button>
        </Toolbar>
      </AppBar>
      {url !== null && <Box component="iframe" src={url} title={card?.title ?? 'Report card'} sx={{ border: 0, width: '100%', flexGrow: 1, bgcolor: 'grey.100' }} />}
    </Dialog>
  );
}
