import { useEffect, useState } from 'react';
import { ATTENDANCE_WORDS } from '../../shared/attendance.stats.js';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableFooter from '@mui/material/TableFooter';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { listName } from '../../shared/students.schemas.js';
import { checkReportRange, classAttendanceUrl, type ClassAttendance as ClassAttendanceData } from '../../shared/attendance.schemas.js';
import { schoolToday } from '../../shared/dates.js';
import { formClassName } from '../../shared/form-class.js';
import { DownloadPdfButton } from '../components/pdf-view.js';
import { errorMessage } from '../lib/api-client.js';
import { useFormClasses } from '../lib/form-classes.js';
import { useSession } from '../lib/session.js';
import { classChoicesFor, firstClassOf } from '../lib/staff-access.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { useClassAttendance } from './attendance-admin.api.js';
import { RangeDateField } from '../components/range-date-field.js';

interface Range {
  from: string;
  to: string;
}

/** Columns a phone leaves out (the ID goes under the name); the rest fit 360 px. */
const WIDE_ONLY = { display: { xs: 'none', sm: 'table-cell' } } as const;
/**
 * The excused columns (D93), shown where the ten columns fit (beside the admin menu from lg); on
 * narrower screens the excused count goes under the absent and late figures instead.
 */
const FULL_ONLY = { display: { xs: 'none', lg: 'table-cell' } } as const;
const UNDER_UNTIL_FULL = { display: { xs: 'block', lg: 'none' }, whiteSpace: 'normal' } as const;
/** Closer from lg, where the excused columns make ten: they fit beside the admin menu in the page's 1200 px. */
const NUMBER = { textAlign: 'right', whiteSpace: 'nowrap', px: { xs: 0.75, sm: 2, lg: 1 } } as const;
/** A number column's heading: 'Sessions present' wraps on a phone, so every column stays on the screen. */
const NUMBER_HEADING = { ...NUMBER, whiteSpace: 'normal' } as const;

/**
 * Reports ▸ Class Attendance: a class's attendance for a date range — each
 * student's sessions present, absent and late and the percentage — on screen, and the same as a
 * PDF and a spreadsheet. Choosing a class shows the current term so far; the dates change it.
 * A form teacher chooses among their own classes and opens on the first.
 */
export function ClassAttendance() {
  usePageTitle('Class Attendance');
  const today = schoolToday();
  const user = useSession().data?.user;
  const formClasses = useFormClasses();
  const [classId, setClassId] = useState(() => firstClassOf(user));
  const choices: { id: string; form_level: number | null }[] = classChoicesFor(user, formClasses.data ?? []);
  // The class it opens on is a choice even before the list of classes has come.
  if (classId !== '' && !choices.some((formClass) => formClass.id === classId)) choices.unshift({ id: classId, form_level: null });
  const [start, setStart] = useState<string | null>(null);
  const [end, setEnd] = useState<string | null>(null);
  // The last good range asked for; none yet: the current term so far.
  const [applied, setApplied] = useState<Range | null>(null);
  const query = classId ? { class_id: classId, ...(applied ?? {}) } : null;
  const answer = useClassAttendance(query);

  // The first answer names the term's dates: show them in the fields.
  useEffect(() => {
    if (answer.data && start === null && end === null) {
      setStart(answer.data.from);
      setEnd(answer.data.to);
    }
  }, [answer.data, start, end]);

  const problems = start !== null || end !== null ? checkReportRange(start, end, today) : {};
  const change = (nextStart: string | null, nextEnd: string | null) => {
    setStart(nextStart);
    setEnd(nextEnd);
    if (nextStart && nextEnd && Object.keys(checkReportRange(nextStart, nextEnd, today)).length === 0) setApplied({ from: nextStart, to: nextEnd });
  };
  const data = answer.data;

  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, minWidth: 0 }}>
      <Typography variant="h1">Class Attendance</Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 2, maxWidth: '70ch' }}>
        Each student&apos;s attendance in a class for a range of dates: sessions present and absent, days late, how many of those an accepted absence note
        excuses, and the percentages. Choosing a class shows this term so far.
      </Typography>
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 220px))' }, alignItems: 'start', mb: 1 }}>
        <TextField select label="Class" value={classId} onChange={(event) => setClassId(event.target.value)} size="small" required>
          {choices.map((formClass) => (
            <MenuItem key={formClass.id} value={formClass.id}>
              {formClassName(formClass.id, formClass.form_level)}
            </MenuItem>
          ))}
        </TextField>
        <RangeDateField name="from" label="Start date" value={start} onChange={(value) => change(value, end)} today={today} problem={problems.startDate} margin="none" />
        <RangeDateField name="to" label="End date" value={end} onChange={(value) => change(start, value)} today={today} problem={problems.endDate} margin="none" />
      </Box>
      {answer.isFetching && <LinearProgress aria-label="Loading the class's attendance" sx={{ mb: 1 }} />}
      {answer.isError && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {errorMessage(answer.error)}
        </Alert>
      )}
      {!classId && <Typography color="text.secondary">Choose a class to see its attendance.</Typography>}
      {classId && data && <ClassAttendanceTable data={data} />}
    </Paper>
  );
}

/**
 * A figure with its excused part under it where the excused columns are not shown ('6', '4 excused');
 * the part may wrap, so on a phone it widens its column no more than the word 'excused'.
 */
function WithExcused({ value, excused }: { value: number; excused: number }) {
  return (
    <>
      {value}
      {excused > 0 && (
        <Typography component="span" variant="caption" color="text.secondary" sx={UNDER_UNTIL_FULL}>
          {excused} {ATTENDANCE_WORDS.excused.toLowerCase()}
        </Typography>
      )}
    </>
  );
}

function ClassAttendanceTable({ data }: { data: ClassAttendanceData }) {
  const range = { class_id: data.class_id, from: data.from, to: data.to };
  return (
    <Box component="section" aria-labelledby="class-attendance-heading">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 1, mb: 1.5 }}>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography id="class-attendance-heading" component="h2" variant="h3">
            {data.class_name} · {data.from} to {data.to}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {data.form_teacher ? `Form Teacher: ${data.form_teacher} · ` : ''}
            {data.school_days} school days · {data.possible} sessions each (AM and PM)
          </Typography>
        </Box>
        <DownloadPdfButton url={classAttendanceUrl(range, 'pdf')} />
        <Button component="a" href={classAttendanceUrl(range, 'xlsx')} download startIcon={<FileDownloadIcon aria-hidden />}>
          Download spreadsheet
        </Button>
      </Box>
      {!data.recorded ? (
        <Alert severity="info">No attendance was recorded for this range, so no one is counted as present or absent.</Alert>
      ) : data.students.length === 0 ? (
        <Alert severity="info">No students in this class.</Alert>
      ) : (
        <TableContainer>
          <Table size="small" aria-labelledby="class-attendance-heading">
            <TableHead>
              <TableRow>
                <TableCell sx={WIDE_ONLY}>Student ID</TableCell>
                <TableCell sx={{ px: { xs: 0.75, sm: 2 } }}>Name</TableCell>
                <TableCell sx={NUMBER_HEADING}>{ATTENDANCE_WORDS.sessionsPresent}</TableCell>
                <TableCell sx={NUMBER_HEADING}>{ATTENDANCE_WORDS.sessionsAbsent}</TableCell>
                <TableCell sx={{ ...NUMBER_HEADING, ...FULL_ONLY }}>{ATTENDANCE_WORDS.sessionsAbsentExcused}</TableCell>
                <TableCell sx={{ ...NUMBER_HEADING, ...FULL_ONLY }}>{ATTENDANCE_WORDS.sessionsAbsentUnexcused}</TableCell>
                <TableCell sx={NUMBER_HEADING}>{ATTENDANCE_WORDS.daysLate}</TableCell>
                <TableCell sx={{ ...NUMBER_HEADING, ...FULL_ONLY }}>{ATTENDANCE_WORDS.daysLateExcused}</TableCell>
                <TableCell sx={NUMBER_HEADING}>{ATTENDANCE_WORDS.attendance}</TableCell>
                <TableCell sx={{ ...NUMBER_HEADING, ...WIDE_ONLY }}>{ATTENDANCE_WORDS.punctuality}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.students.map((row) => (
                <TableRow key={row.id} hover>
                  <TableCell sx={WIDE_ONLY}>{row.id}</TableCell>
                  <TableCell component="th" scope="row" sx={{ px: { xs: 0.75, sm: 2 }, overflowWrap: 'anywhere' }}>
                    {listName(row) || row.id}
                    <Typography component="span" variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
                      {row.id}
                    </Typography>
                  </TableCell>
                  <TableCell sx={NUMBER}>{row.present}</TableCell>
                  {/* Red while some absence is unexcused: the ones to follow up. */}
                  <TableCell sx={{ ...NUMBER, color: row.absent_unexcused > 0 ? 'error.main' : undefined }}>
                    <WithExcused value={row.absent} excused={row.absent_excused} />
                  </TableCell>
                  <TableCell sx={{ ...NUMBER, ...FULL_ONLY }}>{row.absent_excused}</TableCell>
                  <TableCell sx={{ ...NUMBER, ...FULL_ONLY, color: row.absent_unexcused > 0 ? 'error.main' : undefined }}>{row.absent_unexcused}</TableCell>
                  <TableCell sx={NUMBER}>
                    <WithExcused value={row.lates} excused={row.lates_excused} />
                  </TableCell>
                  <TableCell sx={{ ...NUMBER, ...FULL_ONLY }}>{row.lates_excused}</TableCell>
                  <TableCell sx={NUMBER}>{row.attendance_percent}%</TableCell>
                  <TableCell sx={{ ...NUMBER, ...WIDE_ONLY }}>{row.punctuality_percent}%</TableCell>
                </TableRow>
              ))}
            </TableBody>
            <TableFooter>
              <TableRow>
                <TableCell sx={WIDE_ONLY} />
                <TableCell component="th" scope="row" sx={{ px: { xs: 0.75, sm: 2 }, fontWeight: 600 }}>
                  Class total ({data.students.length})
                </TableCell>
                <TableCell sx={{ ...NUMBER, fontWeight: 600 }}>{data.totals.present}</TableCell>
                <TableCell sx={{ ...NUMBER, fontWeight: 600 }}>
                  <WithExcused value={data.totals.absent} excused={data.totals.absent_excused} />
                </TableCell>
                <TableCell sx={{ ...NUMBER, ...FULL_ONLY, fontWeight: 600 }}>{data.totals.absent_excused}</TableCell>
                <TableCell sx={{ ...NUMBER, ...FULL_ONLY, fontWeight: 600 }}>{data.totals.absent_unexcused}</TableCell>
                <TableCell sx={{ ...NUMBER, fontWeight: 600 }}>
                  <WithExcused value={data.totals.lates} excused={data.totals.lates_excused} />
                </TableCell>
                <TableCell sx={{ ...NUMBER, ...FULL_ONLY, fontWeight: 600 }}>{data.totals.lates_excused}</TableCell>
                <TableCell sx={{ ...NUMBER, fontWeight: 600 }}>{data.totals.attendance_percent}%</TableCell>
                <TableCell sx={WIDE_ONLY} />
              </TableRow>
            </TableFooter>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
