import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { ATTENDANCE_WORDS, attendanceLines, type AttendanceFigures } from '../../shared/attendance.stats.js';

/**
 * The term's totals in the report PDF's words and order (src/shared/attendance.stats.ts):
 * sessions and days said as such, and what each counts (D76).
 */
export function AttendanceTotals({ figures }: { figures: AttendanceFigures }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="attendance-totals-heading">
      <Typography id="attendance-totals-heading" variant="h2" component="h2" sx={{ fontSize: '1.1rem', mb: 1 }}>
        Totals
      </Typography>
      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'auto 1fr', md: 'repeat(3, auto 1fr)' },
          columnGap: 1.5,
          rowGap: 0.5,
          m: 0,
          '& dt': { color: 'text.secondary' },
          '& dd': { m: 0, fontWeight: 600 },
        }}
      >
        {attendanceLines(figures).map((line) => (
          <Box key={line.label} sx={{ display: 'contents' }} data-testid="attendance-total">
            <dt>{line.label}</dt>
            <dd>{line.value}</dd>
          </Box>
        ))}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {ATTENDANCE_WORDS.explained}
      </Typography>
    </Paper>
  );
}
