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
  segments: [LegendEntry, LegendEntry];
  /** The sentence a screen reader reads instead of the picture. */
  description: string;
  testId: string;
}

/** One doughnut with its percentage in the middle and its 'Label: n' legend below. */
function AttendanceDoughnut({ title, percent, caption, segments, description, testId }: AttendanceDoughnutProps) {
  const empty = segments[0].value + segments[1].value === 0;
  const data = {
    labels: segments.map((s) => s.label),
    datasets: [
      {
        data: empty ? [0, 1] : segments.map((s) => s.value),
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
    </Paper>
  );
}

const days = (n: number) => (n === 1 ? 'day' : 'days');

/**
 * The attendance (sessions present vs absent) and punctuality (days on time vs late) doughnuts of
 * each in its own unit and saying which (D76; the words are src/shared/attendance.stats.ts).
 */
export function AttendanceCharts({ figures }: { figures: AttendanceFigures }) {
  const theme = useTheme();
  const grey = '#c4ccd6';
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
          { label: w.sessionsAbsent, value: figures.sessionsAbsent, color: grey },
        ]}
        description={`${w.attendance} ${figures.attendancePercent}%: ${figures.sessionsPresent} of ${figures.possibleSessions} sessions present, ${figures.sessionsAbsent} absent.`}
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
        description={`${w.punctuality} ${figures.punctualityPercent}%: on time ${figures.daysOnTime} and late ${figures.daysLate} of ${figures.daysAtSchool} days at school.`}
      />
    </Box>
  );
}
