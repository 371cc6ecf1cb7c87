import FileDownloadIcon from '@mui/icons-material/FileDownload';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { IMPORT_TEMPLATE_FILE_NAME, IMPORT_TEMPLATE_URL, type StudentImportResult, type StudentImportRow } from '../../shared/students.schemas.js';
import { findField } from '../../shared/registration.fields.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { useImportStudents } from './students.api.js';
import { ImportFileControls, useCheckThenImport } from '../components/spreadsheet-import.js';
import { HIDE_ON_PHONE_SX, PHONE_TABLE_SX } from '../components/table-priority.js';

const ACTION_LABELS: Record<StudentImportRow['action'], string> = {
  create: 'New student',
  update: 'Update',
  unchanged: 'No change',
  error: 'Problem',
};

/** Rows shown in the preview besides every row with a problem. */
const PREVIEW_ROWS = 200;

/** 'Import', 'Import 1 student', 'Import 12 students'. */
const importLabel = (count: number) => (count === 0 ? 'Import' : `Import ${count} student${count === 1 ? '' : 's'}`);

const fieldLabel = (name: string) => (name === 'id' ? 'Student ID' : (findField(name)?.label ?? name));

/**
 * Import Students (docs/requirements.md R11): download the template, choose an XLSX or CSV, check it
 * (a dry run shows what every row would do and every problem), then import — all rows or none —
 * and see how many students were created, updated or left unchanged.
 */
export default function ImportStudentsScreen() {
  usePageTitle('Import Students');
  const upload = useImportStudents();
  const importer = useCheckThenImport<StudentImportResult>(
    (file, dryRun, onSuccess) => upload.mutate({ file, dryRun }, { onSuccess }),
    upload.reset,
  );
  const { preview, done } = importer;

  const canImport = preview !== null && preview.summary.errors === 0 && preview.summary.created + preview.summary.updated > 0;

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h1">Import Students</Typography>
      <Typography color="text.secondary" sx={{ mt: 1, maxWidth: '70ch' }}>
        One student a row, with a Student ID. An ID the school has updates that student; a new ID creates the student,
        who then signs in the first time with the birth certificate pin or SEA number and the date of birth. Empty cells
        leave stored values as they are. Nothing is imported while any row has a problem.
      </Typography>

      <ImportFileControls
        importer={importer}
        fileLabel="Student file (XLSX or CSV)"
        templates={
          <Button href={IMPORT_TEMPLATE_URL} download={IMPORT_TEMPLATE_FILE_NAME} startIcon={<FileDownloadIcon aria-hidden />}>
            Download template
          </Button>
        }
        importLabel={importLabel(canImport && preview ? preview.summary.created + preview.summary.updated : 0)}
        canImport={canImport}
        request={upload}
        doneMessage={done && `Import complete: ${done.summary.created} created, ${done.summary.updated} updated, ${done.summary.unchanged} unchanged.`}
      />
      {preview && <ImportPreview result={preview} />}
    </Paper>
  );
}

function ImportPreview({ result }: { result: StudentImportResult }) {
  const { summary } = result;
  const problems = result.rows.filter((row) => row.action === 'error');
  const others = result.rows.filter((row) => row.action !== 'error');
  const shown = [...problems, ...others.slice(0, PREVIEW_ROWS)].sort((a, b) => a.row - b.row);
  return (
    <Box sx={{ mt: 3 }} aria-label="Import preview" component="section">
      <Typography variant="h2">Preview of {result.fileName}</Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, my: 1.5 }} role="status">
        <Chip label={`${summary.created} to create`} color={summary.created ? 'primary' : 'default'} />
        <Chip label={`${summary.updated} to update`} color={summary.updated ? 'primary' : 'default'} />
        <Chip label={`${summary.unchanged} unchanged`} />
        <Chip label={`${summary.errors} with problems`} color={summary.errors ? 'error' : 'default'} />
      </Box>
      {summary.errors > 0 && (
        <Alert severity="warning" sx={{ mb: 1.5 }}>
          Correct the rows with problems in the file and check it again; nothing is imported until every row is right.
        </Alert>
      )}
      {result.ignoredColumns.length > 0 && (
        <Alert severity="info" sx={{ mb: 1.5 }}>
          Columns not read: {result.ignoredColumns.join(', ')}.
        </Alert>
      )}
      <TableContainer sx={{ maxHeight: '60vh', border: 1, borderColor: 'divider', borderRadius: 1 }}>
        {/* On a phone the row number and Student ID name the row; the name column is left out (D46). */}
        <Table size="small" stickyHeader aria-label="Rows of the file" sx={PHONE_TABLE_SX}>
          <TableHead>
            <TableRow>
              <TableCell>Row</TableCell>
              <TableCell>Student ID</TableCell>
              <TableCell sx={HIDE_ON_PHONE_SX}>Name</TableCell>
              <TableCell>Action</TableCell>
              <TableCell>Problems or changes</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((row) => (
              <TableRow key={row.row} sx={row.action === 'error' ? { bgcolor: '#fdecea' } : undefined}>
                <TableCell>{row.row}</TableCell>
                <TableCell>{row.id ?? '—'}</TableCell>
                <TableCell sx={HIDE_ON_PHONE_SX}>{row.name || '—'}</TableCell>
                <TableCell>
                  <Typography variant="body2" color={row.action === 'error' ? 'error' : undefined} sx={{ fontWeight: 500 }}>
                    {ACTION_LABELS[row.action]}
                  </Typography>
                </TableCell>
                <TableCell>
                  {row.action === 'error' ? (
                    <Box component="ul" sx={{ m: 0, pl: 2 }}>
                      {Object.entries(row.errors).flatMap(([field, messages]) =>
                        messages.map((message) => (
                          <li key={`${field}-${message}`}>
                            {fieldLabel(field)}: {message}
                          </li>
                        )),
                      )}
                    </Box>
                  ) : (
                    row.changes.map(fieldLabel).join(', ') || '—'
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {others.length > PREVIEW_ROWS && (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {others.length - PREVIEW_ROWS} more rows without problems are not listed.
        </Typography>
      )}
    </Box>
  );
}
