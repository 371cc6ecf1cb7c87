import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { ArcElement, Chart as ChartJS, Tooltip, type ChartOptions } from 'chart.js';
import { Doughnut } from 'react-chartjs-2';
import { ATTENDANCE_WORDS, type AttendanceFigures } from '../../shared/attendance.stats.js';

// Only what a doughnut needs: this module (and Chart.js) loads with the attendance screen only.
ChartJS.register(ArcElement, Tooltip);

const OPTIONS: ChartOptions<'doughnut'> = {
  cutout: '80%', // docs/requirements.md R10
  responsive: true,
  maintainAspectRatio: false,
  animation: { duration: 400 },
  plugins: { legend: { display: false }, tooltip: { enabled: true } },
};

interface LegendEntry {
  label: string;
  value: number;
  /** The unit said after the value ('days'), none for sessions named in the label. */
  unit?: string;
  color: string;
}

interface AttendanceDoughnutProps {
  /** The chart's heading. */
  title: string;
  percent: number;
  /** What the percentage is of, under it in the middle ('of sessions', 'of days on time'). */
  caption: string;
  segments: LegendEntry[];
  /** A line under the legend that says more of one segment ('Late (excused): 1 day'). */
  note?: string;
  /** The sentence a screen reader reads instead of the picture. */
  description: string;
  testId: string;
}

/** One doughnut with its percentage in the middle and its 'Label: n' legend below. */
function AttendanceDoughnut({ title, percent, caption, segments, note, description, testId }: AttendanceDoughnutProps) {
  const empty = segments.every((segment) => segment.value === 0);
  const data = {
    labels: segments.map((s) => s.label),
    datasets: [
      {
        // Nothing to count: the last segment's colour draws the whole ring.
        data: empty ? segments.map((_, index) => (index === segments.length - 1 ? 1 : 0)) : segments.map((s) => s.value),
        backgroundColor: segments.map((s) => s.color),
        borderWidth: 0,
      },
    ],
  };
  return (
    <Paper variant="outlined" sx={{ p: 2, height: '100%' }} data-testid={testId}>
      <Typography variant="h2" component="h2" sx={{ fontSize: '1.1rem', mb: 1 }}>
        {title}
      </Typography>
      <Box sx={{ position: 'relative', height: 200, maxWidth: 240, mx: 'auto' }}>
        <Doughnut
          data={data}
          options={OPTIONS}
          role="img"
          aria-label={description}
          fallbackContent={<p>{description}</p>}
        />
        <Box
          aria-hidden
          sx={{
            position: 'absolute',
            inset: 0,
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            justifyContent: 'center',
            pointerEvents: 'none',
          }}
        >
          <Typography component="span" sx={{ fontSize: '2rem', fontWeight: 700, lineHeight: 1 }}>
            {percent}%
          </Typography>
          <Typography component="span" variant="body2" color="text.secondary">
            {caption}
          </Typography>
        </Box>
      </Box>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1.5, display: 'flex', justifyContent: 'center', gap: 3, flexWrap: 'wrap' }}>
        {segments.map((segment) => (
          <Box component="li" key={segment.label} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Box aria-hidden sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: segment.color }} />
            <Typography component="span">
              {segment.label}: {segment.value}
              {segment.unit ? ` ${segment.unit}` : ''}
            </Typography>
          </Box>
        ))}
      </Box>
      {note && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, textAlign: 'center' }}>
          {note}
        </Typography>
      )}
    </Paper>
  );
}

const days = (n: number) => (n === 1 ? 'day' : 'days');

/**
 * The attendance (sessions present, absent excused, absent unexcused) and punctuality (days on time
 * vs late, and how many late days are excused) doughnuts, each in its own unit and saying which
 * (D76; excused from accepted absence notes, D93; the words are src/shared/attendance.stats.ts).
 */
export function AttendanceCharts({ figures }: { figures: AttendanceFigures }) {
  const theme = useTheme();
  // Absent in greys: the excused part lighter, the unexcused part, the one to act on, darker.
  const lightGrey = '#c4ccd6';
  const darkGrey = '#6b7785';
  const w = ATTENDANCE_WORDS;
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
      <AttendanceDoughnut
        title={`${w.attendance} (sessions, two a day)`}
        percent={figures.attendancePercent}
        caption="of sessions"
        testId="attendance-chart"
        segments={[
          { label: w.sessionsPresent, value: figures.sessionsPresent, color: theme.palette.success.main },
          { label: w.sessionsAbsentExcused, value: figures.sessionsAbsentExcused, color: lightGrey },
          { label: w.sessionsAbsentUnexcused, value: figures.sessionsAbsentUnexcused, color: darkGrey },
        ]}
        description={`${w.attendance} ${figures.attendancePercent}%: ${figures.sessionsPresent} of ${figures.possibleSessions} sessions present, ${figures.sessionsAbsent} absent (${figures.sessionsAbsentExcused} excused, ${figures.sessionsAbsentUnexcused} unexcused).`}
      />
      <AttendanceDoughnut
        title={`${w.punctuality} (days at school)`}
        percent={figures.punctualityPercent}
        caption="of days on time"
        testId="punctuality-chart"
        segments={[
          { label: w.onTime, value: figures.daysOnTime, unit: days(figures.daysOnTime), color: theme.palette.primary.main },
          { label: w.late, value: figures.daysLate, unit: days(figures.daysLate), color: theme.palette.error.main },
        ]}
        note={`${w.lateExcused}: ${figures.daysLateExcused} ${days(figures.daysLateExcused)}`}
        description={`${w.punctuality} ${figures.punctualityPercent}%: on time ${figures.daysOnTime} and late ${figures.daysLate} (${figures.daysLateExcused} excused) of ${figures.daysAtSchool} days at school.`}
      />
    </Box>
  );
}
