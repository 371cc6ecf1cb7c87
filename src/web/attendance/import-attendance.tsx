import { useRef, useState } from 'react';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ImportResult } from '../../shared/attendance.schemas.js';
import { useImportAttendance } from './attendance-admin.api.js';
import { errorMessage, isApiError } from '../lib/api-client.js';
import { usePageTitle } from '../lib/use-page-title.js';

/** Row errors shown at most; the count says how many more there are. */
const SHOWN_ERRORS = 200;

/**
 * Import Attendance: a day's or a term's gate scans from a CSV or XLSX file with the
 * columns student_id (or card_serial), date (yyyy-MM-dd) and time (HH:mm or HH:mm:ss). 'Check
 * File' previews without storing; 'Import' stores all or nothing. Scans already stored are
 * skipped, so importing the same file twice changes nothing.
 */
export function ImportAttendance() {
  usePageTitle('Import Attendance');
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = useImportAttendance();

  const run = (dryRun: boolean) => {
    if (!file) {
      setError('Please select a file!');
      return;
    }
    setError(null);
    upload.mutate(
      { file, dryRun },
      {
        onSuccess: setResult,
        onError: (failure) => {
          setResult(null);
          if (isApiError(failure) && failure.errors && !dryRun) {
            setError(`${failure.message} Check the file for the rows listed: ${Object.keys(failure.errors).slice(0, 5).join(', ')}…`);
          } else setError(errorMessage(failure));
        },
      },
    );
  };

  const checkedClean = result?.dry_run === true && result.errors.length === 0;

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}>
      <Typography variant="h1" sx={{ fontSize: '1.5rem' }}>
        Import Attendance
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        A CSV or XLSX file with a header row and the columns <code>student_id</code> (or <code>card_serial</code>),{' '}
        <code>date</code> (yyyy-MM-dd) and <code>time</code> (HH:mm or HH:mm:ss), one scan a row. The first scan of a day is
        the time in and the last the time out. Scans already stored are skipped.
      </Typography>

      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mt: 2 }}>
        <input
          ref={input}
          id="attendance-import-file"
          name="file"
          type="file"
          accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          hidden
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setResult(null);
            setError(null);
          }}
        />
        <Button variant="outlined" startIcon={<UploadFileIcon aria-hidden />} onClick={() => input.current?.click()}>
          Choose File
        </Button>
        <Typography component="span" aria-live="polite">
          {file ? file.name : 'No file chosen'}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', gap: 2, mt: 2, flexWrap: 'wrap' }}>
        <Button variant="outlined" disabled={!file || upload.isPending} onClick={() => run(true)}>
          Check File
        </Button>
        <Button variant="contained" disabled={!checkedClean || upload.isPending} onClick={() => run(false)}>
          Import
        </Button>
      </Box>

      {error && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}
      {result && <ImportSummary result={result} />}
    </Paper>
  );
}

function ImportSummary({ result }: { result: ImportResult }) {
  const range = result.first_date ? (result.first_date === result.last_date ? result.first_date : `${result.first_date} to ${result.last_date}`) : '—';
  return (
    <Box sx={{ mt: 2 }}>
      {result.result ? (
        <Alert severity="success" role="status">
          Imported: {result.result.stored} new scans, {result.result.duplicates} already stored, {result.result.records_updated} student days
          updated.
        </Alert>
      ) : result.errors.length === 0 ? (
        <Alert severity="info" role="status">
          {result.rows} {result.rows === 1 ? 'scan' : 'scans'} of {result.students} {result.students === 1 ? 'student' : 'students'} ({range}) ready to import.
        </Alert>
      ) : (
        <Alert severity="warning" role="alert">
          {result.errors.length} {result.errors.length === 1 ? 'problem' : 'problems'} found in {result.rows} {result.rows === 1 ? 'row' : 'rows'}.
          Correct the file and check it again; nothing is imported while a row has a problem.
        </Alert>
      )}
      {result.errors.length > 0 && (
        <TableContainer sx={{ mt: 2, maxHeight: '50vh' }}>
          <Table size="small" stickyHeader aria-label="Problems in the file">
            <TableHead>
              <TableRow>
                <TableCell>Row</TableCell>
                <TableCell>Column</TableCell>
                <TableCell>Problem</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {result.errors.slice(0, SHOWN_ERRORS).map((error) => (
                <TableRow key={`${error.row}-${error.field}`}>
                  <TableCell>{error.row}</TableCell>
                  <TableCell>{error.field}</TableCell>
                  <TableCell>{error.message}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {result.errors.length > SHOWN_ERRORS && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              …and {result.errors.length - SHOWN_ERRORS} more.
            </Typography>
          )}
        </TableContainer>
      )}
    </Box>
  );
}
