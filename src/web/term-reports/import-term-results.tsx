import { Fragment, useState } from 'react';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { TERM_NAMES, academicYearLabel, type TermNumber } from '../../shared/school.constants.js';
import { describeGradeKey } from '../../shared/term-reports.grading.js';
import { TERM_RESULTS_MAX_ROWS, termResultsTemplateUrl, type ImportReport } from '../../shared/term-reports.schemas.js';
import { countOf } from '../../shared/plural.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { MarkSheetDownload } from './mark-sheet-download.js';
import { useGradingSettings, useImportTermResults } from './term-reports.api.js';
import { ImportFileControls, useCheckThenImport } from '../components/spreadsheet-import.js';
import { HIDE_ON_PHONE_SX, PHONE_TABLE_SX } from '../components/table-priority.js';

/** Rows shown in the preview besides every row with a problem. */
const PREVIEW_ROWS = 200;
const PROBLEM_BG = 'rgba(211, 47, 47, 0.06)';

/** The academic year running now: a year starts in September (docs/requirements.md R17: named by its first year). */
function currentAcademicYear(now = new Date()): number {
  return now.getMonth() >= 7 ? now.getFullYear() : now.getFullYear() - 1;
}

/**
 * Import Term Results: choose the year and term, download the template, choose an XLSX
 * or CSV, check it (a dry run shows every row's total, grade and problems), then import — all rows
 * or none. Totals use the form level's coursework/exam weights and grades the school's key.
 */
export function ImportTermResults() {
  usePageTitle('Import Term Results');
  const thisYear = currentAcademicYear();
  const [year, setYear] = useState(thisYear);
  const [term, setTerm] = useState<TermNumber>(1);
  const upload = useImportTermResults();
  const grading = useGradingSettings();
  const importer = useCheckThenImport<ImportReport>(
    (file, dryRun, onSuccess) => upload.mutate({ file, year, term, dryRun }, { onSuccess }),
    () => upload.reset(),
  );
  const { preview, done } = importer;
  const reset = importer.clearResults;
  const canImport = preview !== null && preview.error_count === 0 && preview.file_errors.length === 0 && preview.rows.length > 0;

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h1">Import Term Results</Typography>
      <Typography color="text.secondary" sx={{ mt: 1, maxWidth: '70ch' }}>
        One row per student and subject: Student ID, Subject, Coursework and Exam marks (0–100), the subject teacher’s comment,
        and once per student the form teacher’s and principal’s remarks. A row for a subject already imported replaces it.
        Nothing is imported while any row has a problem; students see the results only when the term is posted.
      </Typography>

      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 3 }}>
        <TextField
          select
          name="year"
          label="Academic Year"
          size="small"
          value={year}
          onChange={(event) => {
            setYear(Number(event.target.value));
            reset();
          }}
          fullWidth={false}
          sx={{ width: { xs: '100%', sm: 240 } }}
        >
          {[thisYear - 2, thisYear - 1, thisYear, thisYear + 1].map((y) => (
            <MenuItem key={y} value={y}>
              {academicYearLabel(y)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          name="term"
          label="Term"
          size="small"
          value={term}
          onChange={(event) => {
            setTerm(Number(event.target.value) as TermNumber);
            reset();
          }}
          fullWidth={false}
          sx={{ width: { xs: '100%', sm: 240 } }}
        >
          {([1, 2, 3] as const).map((t) => (
            <MenuItem key={t} value={t}>
              Term {t} {TERM_NAMES[t]}
            </MenuItem>
          ))}
        </TextField>
      </Box>

      <MarkSheetDownload />

      <ImportFileControls
        importer={importer}
        fileLabel="Results file (XLSX or CSV)"
        templates={
          <>
            <Button href={termResultsTemplateUrl({ format: 'xlsx' })} startIcon={<FileDownloadIcon aria-hidden />}>
              Download template
            </Button>
            <Button href={termResultsTemplateUrl({ format: 'csv' })} startIcon={<FileDownloadIcon aria-hidden />}>
              CSV template
            </Button>
          </>
        }
        importLabel={canImport ? `Import ${countOf(preview.rows.length, 'result')}` : 'Import results'}
        canImport={canImport}
        request={upload}
        doneMessage={
          done && (
            <>
              Imported {countOf(done.rows.length, 'result')} for {countOf(done.summary.students, 'student')} in {countOf(done.summary.classes, 'class', 'classes')} into {done.year} Term{' '}
              {done.term}. Post the term from Post Term Reports when it is ready for students.
            </>
          )
        }
      />
      {preview && <ImportPreview report={preview} />}

      {grading.data && (
        <Box component="section" aria-label="Grading" sx={{ mt: 3 }}>
          <Typography variant="h2">Grading</Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
            {describeGradeKey(grading.data.grade_key).map((band) => (
              <Chip key={band.grade} variant="outlined" label={`${band.grade} ${band.range}`} />
            ))}
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            Weights (coursework / exam):{' '}
            {grading.data.weights.map((w) => `Form ${w.form_level} ${Math.round(w.coursework_weight * 100)}/${Math.round(w.exam_weight * 100)}`).join(', ')}.
            At most {TERM_RESULTS_MAX_ROWS.toLocaleString('en-US')} rows and 5 MiB per file.
          </Typography>
        </Box>
      )}
    </Paper>
  );
}

function ImportPreview({ report }: { report: ImportReport }) {
  const problems = report.rows.filter((row) => row.errors.length > 0);
  const others = report.rows.filter((row) => row.errors.length === 0);
  const shown = [...problems, ...others.slice(0, PREVIEW_ROWS)].sort((a, b) => a.row - b.row);
  const { summary } = report;
  return (
    <Box component="section" aria-label="Import preview" sx={{ mt: 3 }}>
      <Typography variant="h2">
        Preview for {report.year} Term {report.term}
      </Typography>
      {report.file_errors.length > 0 ? (
        <Alert severity="error" role="alert" sx={{ mt: 1.5 }}>
          {report.file_errors.join(' ')}
        </Alert>
      ) : (
        <>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, my: 1.5 }} role="status">
            <Chip label={countOf(summary.rows, 'row')} />
            <Chip label={countOf(summary.students, 'student')} />
            <Chip label={countOf(summary.subjects, 'subject')} />
            <Chip label={countOf(summary.classes, 'class', 'classes')} />
            <Chip label={`${report.error_count} with problems`} color={report.error_count ? 'error' : 'success'} />
          </Box>
          {report.error_count > 0 && (
            <Alert severity="warning" sx={{ mb: 1.5 }}>
              Correct the rows with problems in the file and check it again; nothing is imported until every row is right.
            </Alert>
          )}
          <TableContainer sx={{ maxHeight: '60vh', border: 1, borderColor: 'divider', borderRadius: 1 }}>
            {/* On a phone: row, student, subject, grade and each row's problems; the marks need a wider screen (D46). */}
            <Table size="small" stickyHeader aria-label="Rows of the file" sx={PHONE_TABLE_SX}>
              <TableHead>
                <TableRow>
                  <TableCell>Row</TableCell>
                  <TableCell>Student ID</TableCell>
                  <TableCell sx={HIDE_ON_PHONE_SX}>Name</TableCell>
                  <TableCell>Subject</TableCell>
                  <TableCell sx={HIDE_ON_PHONE_SX}>Class</TableCell>
                  <TableCell sx={HIDE_ON_PHONE_SX} align="right">Coursework</TableCell>
                  <TableCell sx={HIDE_ON_PHONE_SX} align="right">Exam</TableCell>
                  <TableCell sx={HIDE_ON_PHONE_SX} align="right">Total</TableCell>
                  <TableCell>Grade</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {shown.map((row) => {
                  const bad = row.errors.length > 0;
                  const cells = { borderBottom: bad ? 0 : undefined };
                  return (
                    <Fragment key={row.row}>
                      <TableRow sx={bad ? { bgcolor: PROBLEM_BG } : undefined}>
                        <TableCell sx={cells}>{row.row}</TableCell>
                        <TableCell sx={cells}>{row.student_id}</TableCell>
                        <TableCell sx={{ ...cells, ...HIDE_ON_PHONE_SX }}>{row.student_name ?? ''}</TableCell>
                        <TableCell sx={cells}>{row.subject}</TableCell>
                        <TableCell sx={{ ...cells, ...HIDE_ON_PHONE_SX }}>{row.class_id ?? ''}</TableCell>
                        <TableCell sx={{ ...cells, ...HIDE_ON_PHONE_SX }} align="right">{row.coursework ?? ''}</TableCell>
                        <TableCell sx={{ ...cells, ...HIDE_ON_PHONE_SX }} align="right">{row.exam ?? ''}</TableCell>
                        <TableCell sx={{ ...cells, ...HIDE_ON_PHONE_SX }} align="right">{row.total ?? ''}</TableCell>
                        <TableCell sx={cells}>{row.grade ?? ''}</TableCell>
                      </TableRow>
                      {bad && (
                        <TableRow sx={{ bgcolor: PROBLEM_BG }}>
                          <TableCell colSpan={9} sx={{ color: 'error.main', pt: 0 }}>
                            <Box component="ul" sx={{ m: 0, pl: 2.5 }} aria-label={`Problems in row ${row.row}`}>
                              {row.errors.map((error) => (
                                <li key={error}>{error}</li>
                              ))}
                            </Box>
                          </TableCell>
                        </TableRow>
                      )}
                    </Fragment>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
          {shown.length < report.rows.length && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              Showing every row with a problem and the first {PREVIEW_ROWS} others of {report.rows.length}.
            </Typography>
          )}
        </>
      )}
    </Box>
  );
}
