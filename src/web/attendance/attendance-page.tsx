import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useSearchParams } from 'react-router';
import type { AcademicTerm, StudentAttendance } from '../../shared/attendance.schemas.js';
import { attendanceFigures, type ExcusedParts } from '../../shared/attendance.stats.js';
import { formClassName } from '../../shared/form-class.js';
import { TERM_NAMES, academicYearLabel, type TermNumber } from '../../shared/school.constants.js';
import { BackToStudents } from '../components/back-to-students.js';
import { ChooseStudent } from '../components/choose-student.js';
import { NoChildLinked } from '../components/no-child-linked.js';
import { PageSpinner } from '../components/page-spinner.js';
import { errorMessage } from '../lib/api-client.js';
import { studentShownTo, useSession } from '../lib/session.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { AttendanceCharts } from './attendance-charts.js';
import { AttendanceReport } from './attendance-report-dialog.js';
import { AttendanceTable } from './attendance-table.js';
import { AttendanceTotals } from './attendance-totals.js';
import { useStudentAttendance, type TermChoice } from './attendance.api.js';

const TITLE = 'Student Attendance Records';

function termLabel(term: Pick<AcademicTerm, 'year' | 'term'>): string {
  return `Term ${term.term} ${TERM_NAMES[term.term as TermNumber] ?? ''} ${academicYearLabel(term.year)}`.replace(/\s+/g, ' ');
}

/**
 * /attendance (docs/requirements.md R10): the student's name, term, ID and class; the
 * attendance and punctuality doughnuts; the records table; 'Generate Report'. A student sees
 * their own; an administrator names a student with ?student=ID (the student list's Attendance
 * action), sees the student's name in the tab's title and has a way back to the list (D46).
 */
export function AttendancePage() {
  const user = useSession().data?.user ?? null;
  const [params, setParams] = useSearchParams();
  const isStaff = user?.role === 'staff';
  const studentId = studentShownTo(user, params);
  const [term, setTerm] = useState<TermChoice | null>(null);
  const attendance = useStudentAttendance(studentId, term);
  const shown = attendance.data?.student;
  usePageTitle(isStaff && shown ? `${TITLE} — ${studentName(shown)} (${shown.id})` : TITLE);

  if (isStaff && !studentId) {
    return <ChooseStudent title={TITLE} purpose="Whose attendance to show" submitLabel="Show attendance" onChoose={(id) => setParams({ student: id })} />;
  }
  if (user?.role === 'guardian' && !studentId) return <NoChildLinked title={TITLE} />;
  if (attendance.isPending) return <PageSpinner label="Loading attendance" />;
  if (attendance.isError) {
    return (
      <>
        {isStaff && <BackToStudents />}
        <Typography variant="h1">{TITLE}</Typography>
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {errorMessage(attendance.error)}
        </Alert>
      </>
    );
  }
  return <AttendanceView data={attendance.data} studentId={studentId!} onTerm={setTerm} showBack={isStaff} />;
}

/** The answer's excused days by date, as the shared counting and the daily table read them. */
function excusedByDay(days: StudentAttendance['excused_days']): Map<string, ExcusedParts> {
  return new Map(days.map(({ date, am, pm, late }) => [date, { am, pm, late }] as const));
}

function studentName(student: StudentAttendance['student']): string {
  return [student.first_name, student.last_name].filter(Boolean).join(' ') || student.id;
}

interface AttendanceViewProps {
  data: StudentAttendance;
  studentId: string;
  onTerm: (term: TermChoice) => void;
  /** An administrator's way back to the student list. */
  showBack: boolean;
}

function AttendanceView({ data, studentId, onTerm, showBack }: AttendanceViewProps) {
  // The shared counting over the term's school days and records, as the report PDF counts them (D76),
  // with what accepted absence notes excuse (D93).
  const excused = useMemo(() => excusedByDay(data.excused_days), [data.excused_days]);
  const figures = attendanceFigures(data.school_days, data.attendance_records, data.recorded, excused);
  const name = studentName(data.student);
  const currentTerm = data.year !== null && data.term !== null ? { year: data.year, term: Number(data.term) } : null;
  const selectValue = currentTerm ? `${currentTerm.year}-${currentTerm.term}` : '';

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {showBack && <BackToStudents />}
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography variant="h1">{TITLE}</Typography>
        <Box
          component="dl"
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: 'auto 1fr', sm: 'repeat(4, auto 1fr)' },
            columnGap: 1.5,
            rowGap: 0.5,
            my: 2,
            '& dt': { color: 'text.secondary' },
            '& dd': { m: 0, fontWeight: 600 },
          }}
        >
          <dt>Name</dt>
          <dd>{name}</dd>
          <dt>Student ID</dt>
          <dd>{data.student.id}</dd>
          <dt>Class</dt>
          <dd>{formClassName(data.class_id, data.form_level) ?? 'Not recorded'}</dd>
          <dt>Term</dt>
          <dd>{currentTerm ? termLabel(currentTerm) : 'No term yet'}</dd>
        </Box>
        {data.counted_until && data.recorded && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            School days from {data.start_date} to {data.counted_until}.
          </Typography>
        )}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          {data.terms.length > 1 && (
            <TextField
              select
              name="term"
              label="Term"
              value={selectValue}
              onChange={(event) => {
                const [year, term] = event.target.value.split('-').map(Number) as [number, number];
                onTerm({ year, term });
              }}
              size="small"
              margin="none"
              sx={{ minWidth: 240, width: 'auto' }}
            >
              {data.terms.map((term) => (
                <MenuItem key={`${term.year}-${term.term}`} value={`${term.year}-${term.term}`}>
                  {termLabel(term)}
                </MenuItem>
              ))}
            </TextField>
          )}
          <AttendanceReport studentId={studentId} defaultStart={data.start_date} defaultEnd={data.counted_until} />
          {!showBack && (
            // The family's (or the student's) way to explain an absence (D93); the page says whether they may send.
            <Button component={RouterLink} to={`/absence-notes?${new URLSearchParams({ student: studentId }).toString()}`} variant="outlined">
              Explain an absence
            </Button>
          )}
        </Box>
      </Paper>
      {data.recorded ? (
        <>
          <AttendanceCharts figures={figures} />
          <AttendanceTotals figures={figures} />
          <AttendanceTable schoolDays={data.school_days} records={data.attendance_records} excused={excused} />
        </>
      ) : (
        // Zeros here would read as a term of absences: the school kept no register (D41).
        <Alert severity="info" role="status">
          No attendance was recorded for this term.
        </Alert>
      )}
    </Box>
  );
}
