import { useDeferredValue, useMemo, useState } from 'react';
import CheckIcon from '@mui/icons-material/Check';
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AttendanceRecord } from '../../shared/attendance.schemas.js';
import { ATTENDANCE_WORDS, isPresentAm, isPresentPm, type ExcusedParts } from '../../shared/attendance.stats.js';

/** Hidden on screen, read by screen readers. */
const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

/** '--' on screen, the word for screen readers. */
function Dashes({ spoken }: { spoken: string }) {
  return (
    <>
      <span aria-hidden>--</span>
      <Box component="span" sx={visuallyHidden}>
        {spoken}
      </Box>
    </>
  );
}

/** The short word 'Excused' a cell shows for what an accepted absence note covers (D93); narrow enough for a phone's column. */
const EXCUSED_MARK = { display: 'block', fontSize: '0.7rem', fontWeight: 600, lineHeight: 1.2, color: 'text.secondary' } as const;

/**
 * A check when the session was attended, '--' when not (docs/requirements.md R10), 'Excused' when
 * an accepted absence note covers the missed session (D93), read as "Absent (excused)".
 */
function SessionCell({ present, excused }: { present: boolean; excused: boolean }) {
  return (
    <TableCell align="center">
      {present ? (
        <CheckIcon color="success" fontSize="small" titleAccess="Present" />
      ) : excused ? (
        <>
          <Box component="span" aria-hidden sx={EXCUSED_MARK}>
            {ATTENDANCE_WORDS.excused}
          </Box>
          <Box component="span" sx={visuallyHidden}>
            {ATTENDANCE_WORDS.absentExcused}
          </Box>
        </>
      ) : (
        <Dashes spoken="Absent" />
      )}
    </TableCell>
  );
}

const NOTHING_EXCUSED: ExcusedParts = { am: false, pm: false, late: false };

/** A day without a record: absent all day, and which of its sessions a note excuses. */
function absentAllDayWords(excused: ExcusedParts): string {
  const w = ATTENDANCE_WORDS;
  if (excused.am && excused.pm) return w.absentAllDayExcused;
  if (excused.am) return w.absentAllDayMorningExcused;
  if (excused.pm) return w.absentAllDayAfternoonExcused;
  return w.absentAllDay;
}

/** The date search narrows by any part of the date as shown (yyyy-MM-dd): '2026-10', '-05', '10-0'. */
export function matchesDateSearch(date: string, search: string): boolean {
  const wanted = search.trim().replaceAll('/', '-');
  return wanted === '' || date.includes(wanted);
}

interface DayRow {
  date: string;
  /** The day's record; none on a school day means absent all day (R10: no row is kept for it). */
  record: AttendanceRecord | undefined;
}

/** Every school day and every recorded day (a scan on a closed day too), newest first. */
export function dailyRows(schoolDays: readonly string[], records: readonly AttendanceRecord[]): DayRow[] {
  const byDate = new Map(records.map((record) => [record.date_scanned, record] as const));
  const dates = [...new Set([...schoolDays, ...byDate.keys()])].sort().reverse();
  return dates.map((date) => ({ date, record: byDate.get(date) }));
}

interface AttendanceTableProps {
  schoolDays: readonly string[];
  records: readonly AttendanceRecord[];
  /** What accepted absence notes excuse, by day (D93). */
  excused?: ReadonlyMap<string, ExcusedParts>;
}

/**
 * The records table (R10): searchable by date; Date, AM, PM, Late, Time In, Time Out; Late
 * 'Y' in red or '--'. One row per school day, a day without a record shown as absent. What an
 * accepted absence note covers says so (D93): a missed session 'Excused', a late arrival 'Y' with
 * 'Excused' under it, a day without a record 'Absent all day (excused)'; none of it in red. On wide
 * screens the table scrolls in a box of 60vh under a sticky header (R10); on phones it is part
 * of the page (a 40vh box inside a scrolling page traps the thumb, D41).
 */
export function AttendanceTable({ schoolDays, records, excused = new Map() }: AttendanceTableProps) {
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const days = useMemo(() => dailyRows(schoolDays, records), [schoolDays, records]);
  const rows = useMemo(() => days.filter((day) => matchesDateSearch(day.date, deferred)), [days, deferred]);
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', justifyContent: 'space-between', columnGap: 2 }}>
        <Typography variant="h2" component="h2" sx={{ fontSize: '1.1rem' }}>
          Daily records
        </Typography>
        <TextField
          type="search"
          name="date_search"
          label="Search by date"
          placeholder="yyyy-MM-dd"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          size="small"
          sx={{ maxWidth: { sm: 260 } }}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" aria-hidden />
                </InputAdornment>
              ),
            },
          }}
        />
      </Box>
      <Typography variant="body2" color="text.secondary" aria-live="polite" sx={{ mb: 1 }}>
        {rows.length === days.length ? `${days.length} school days` : `${rows.length} of ${days.length} days shown`}
      </Typography>
      {/* position: relative keeps the table's visually hidden words inside the box; positioned
          against the page they would stretch it by the whole table's height. */}
      <TableContainer
        sx={{ position: 'relative', height: { xs: 'auto', md: '60vh' }, overflowY: { xs: 'visible', md: 'auto' } }}
        tabIndex={0}
        aria-label="Attendance records, scrollable"
      >
        <Table stickyHeader size="small" aria-label="Attendance records" sx={{ '& td, & th': { px: { xs: 0.75, sm: 2 } } }}>
          <TableHead>
            <TableRow>
              <TableCell>Date</TableCell>
              <TableCell align="center">AM</TableCell>
              <TableCell align="center">PM</TableCell>
              <TableCell align="center">Late</TableCell>
              <TableCell align="center">Time In</TableCell>
              <TableCell align="center">Time Out</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map(({ date, record }) => {
              const covered = excused.get(date) ?? NOTHING_EXCUSED;
              return record === undefined ? (
                <TableRow key={date} hover>
                  <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
                    {date}
                  </TableCell>
                  <TableCell colSpan={5} align="center" sx={{ color: covered.am && covered.pm ? 'text.secondary' : 'error.main', fontWeight: 700 }}>
                    {absentAllDayWords(covered)}
                  </TableCell>
                </TableRow>
              ) : (
                <TableRow key={date} hover>
                  <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
                    {date}
                  </TableCell>
                  <SessionCell present={isPresentAm(record)} excused={covered.am} />
                  <SessionCell present={isPresentPm(record)} excused={covered.pm} />
                  <TableCell align="center">
                    {record.late === 1 && covered.late ? (
                      <>
                        <Typography component="span" sx={{ fontWeight: 700 }}>
                          Y
                        </Typography>
                        <Box component="span" sx={EXCUSED_MARK}>
                          {ATTENDANCE_WORDS.excused}
                        </Box>
                      </>
                    ) : record.late === 1 ? (
                      <Typography component="span" sx={{ color: 'error.main', fontWeight: 700 }}>
                        Y
                      </Typography>
                    ) : (
                      <Dashes spoken="On time" />
                    )}
                  </TableCell>
                  <TableCell align="center">{record.time_in ?? <Dashes spoken="None" />}</TableCell>
                  <TableCell align="center">{record.time_out ?? <Dashes spoken="None" />}</TableCell>
                </TableRow>
              );
            })}
            {rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={6} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                  {days.length === 0 ? 'No school days this term yet.' : 'No records match this date.'}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}
