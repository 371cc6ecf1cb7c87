import { useEffect, useRef } from 'react';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { ADMIN_MESSAGES, REGISTRATION_DATA_FILE_NAME, REGISTRATION_SPREADSHEET_URL } from '../../shared/students.schemas.js';
import { errorMessage } from '../lib/api-client.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { useDownloadFile } from '../lib/download-file.js';
import type { AdminScreenProps } from '../components/admin-menu-entry.js';

/**
 * Export Data (docs/requirements.md R11): choosing it in the menu downloads 'Registration Data.xlsx' behind the
 * blocking 'Downloading data...' dialog; the button here downloads it again.
 */
export default function ExportDataScreen({ selectedAt }: AdminScreenProps) {
  usePageTitle('Export Data');
  const download = useDownloadFile();
  // TanStack Query keeps `mutate` stable across renders, so the effect below runs on selectedAt only.
  const { mutate: downloadFile } = download;
  const start = () => downloadFile({ url: REGISTRATION_SPREADSHEET_URL, fileName: REGISTRATION_DATA_FILE_NAME });
  const started = useRef<number | null>(null);
  useEffect(() => {
    // A click on the menu item (not a reload of the page) starts the download once.
    if (selectedAt !== undefined && started.current !== selectedAt) {
      started.current = selectedAt;
      downloadFile({ url: REGISTRATION_SPREADSHEET_URL, fileName: REGISTRATION_DATA_FILE_NAME });
    }
  }, [selectedAt, downloadFile]);

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h1">Export Data</Typography>
      <Typography color="text.secondary" sx={{ mt: 1, maxWidth: '60ch' }}>
        Every student with every registration field, the registration progress and the date of the last change, as a
        spreadsheet with a filter on each column.
      </Typography>
      <Box sx={{ mt: 3 }}>
        <Button variant="contained" startIcon={<FileDownloadIcon aria-hidden />} onClick={start} disabled={download.isPending}>
          Download {REGISTRATION_DATA_FILE_NAME}
        </Button>
      </Box>
      {download.isError && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {errorMessage(download.error)}
        </Alert>
      )}
      {download.isSuccess && (
        <Alert severity="success" sx={{ mt: 2 }}>
          {REGISTRATION_DATA_FILE_NAME} downloaded.
        </Alert>
      )}
      <Dialog open={download.isPending} aria-labelledby="downloading-title" disableEscapeKeyDown>
        <DialogContent sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <CircularProgress size={28} aria-hidden />
          <Typography id="downloading-title" role="status">
            {ADMIN_MESSAGES.downloading}
          </Typography>
        </DialogContent>
      </Dialog>
    </Paper>
  );
}
