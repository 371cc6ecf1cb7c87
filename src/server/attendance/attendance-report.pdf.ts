import type { Content, TableCell } from 'pdfmake/interfaces.js';
import { ATTENDANCE_WORDS, attendanceLines, isPresentAm, isPresentPm, type ExcusedParts } from '../../shared/attendance.stats.js';
import { TERM_NAMES, academicYearLabel, type TermNumber } from '../../shared/school.constants.js';
import { PAGE_SIZES, type Printout } from '../pdf/printout.js';
import { renderPdf } from '../pdf/render-on-pool.js';
import { COLORS, dataTable, keyValueGrid, pageFooter, schoolHeader, sectionTitle } from '../pdf/pieces.js';
import type { RangeAttendance } from './attendance.service.js';
import type { AcademicTerm } from '../../shared/attendance.schemas.js';
import { listName } from '../../shared/students.schemas.js';

/**
 * The attendance report (docs/requirements.md R10; `/api/student-attendance-report/{studentId}/{startDate}/{endDate}`):
 * the student, class and range; one row per school day of the range (absent days too, so the
 * page reads as a register) plus any day scanned while the school was closed, an absence or late
 * arrival an accepted absence note covers said as excused (D93); the totals, absent and late split
 * into excused and unexcused, and both percentages in the attendance screen's words, sessions and
 * days said as such (src/shared/attendance.stats.ts, D76).
 */

const WEEKDAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', timeZone: 'UTC' });

function weekdayOf(isoDate: string): string {
  return WEEKDAY.format(new Date(`${isoDate}T00:00:00Z`));
}

function termLabel(term: AcademicTerm): string {
  return `Term ${term.term} ${TERM_NAMES[term.term as TermNumber] ?? ''} ${academicYearLabel(term.year)}`.replace(/\s+/g, ' ');
}

const present = (text: string): TableCell => ({ text, alignment: 'center' });
const absent = (text: string): TableCell => ({ text, alignment: 'center', color: '#b00020', bold: true });
/** An absence or a late arrival an accepted absence note covers (D93): said as excused, not in red. */
const excusedCell = (text: string): TableCell => ({ text, alignment: 'center', color: COLORS.muted, bold: true });
const NOTHING_EXCUSED: ExcusedParts = { am: false, pm: false, late: false };

/** A session's cell: present, absent, or absent and excused. */
function sessionCell(isPresent: boolean, isExcused: boolean): TableCell {
  if (isPresent) return present('Present');
  return isExcused ? excusedCell(ATTENDANCE_WORDS.absentExcused) : absent('Absent');
}

export interface AttendanceReportInput extends RangeAttendance {
  terms: AcademicTerm[];
  /** The classes the student was in during the range's terms (empty: not recorded). */
  classes: string[];
  schoolName: string;
  /** When the report was made, 'yyyy-MM-dd HH:mm' (school time). */
  generatedAt: string;
}

/** The report's document definition (exported for tests of its content). */
export function attendanceReportDefinition(input: AttendanceReportInput): Printout {
  const { student, summary } = input;
  const name = listName(student) || student.id;
  const byDate = new Map(input.records.map((record) => [record.date_scanned, record] as const));
  const open = new Set(input.schoolDays);
  const dates = [...new Set([...input.schoolDays, ...input.records.map((record) => record.date_scanned)])].sort();

  const rows: TableCell[][] = dates.map((date) => {
    const record = byDate.get(date);
    const day = `${date} ${weekdayOf(date)}${open.has(date) ? '' : ' (closed)'}`;
    const covered = input.excused.get(date) ?? NOTHING_EXCUSED;
    if (!record) return [day, sessionCell(false, covered.am), sessionCell(false, covered.pm), present('--'), present('--'), present('--')];
    return [
      day,
      sessionCell(isPresentAm(record), covered.am),
      sessionCell(isPresentPm(record), covered.pm),
      record.late !== 1 ? present('--') : covered.late ? excusedCell(`Y (${ATTENDANCE_WORDS.excused.toLowerCase()})`) : absent('Y'),
      present(record.time_in ?? '--'),
      present(record.time_out ?? '--'),
    ];
  });

  const content: Content[] = [
    schoolHeader(input.schoolName, 'Attendance Report', `${input.from} to ${input.to}`),
    keyValueGrid([
      ['Student', name],
      ['Student ID', student.id],
      ['Class', input.classes.join(', ') || 'Not recorded'],
      ['Term', input.terms.map(termLabel).join('; ') || null],
      ['From', input.from],
      ['To', input.to],
    ]),
  ];
  if (!input.recorded) {
    // Without any record the register would read "Absent" on every day: say what is true instead.
    content.push(sectionTitle('Daily record'), { text: 'No attendance was recorded for this range.', bold: true, margin: [0, 4, 0, 4] }, {
      text: `The school recorded no attendance from ${input.from} to ${input.to} (${input.schoolDays.length} school days), so no day is counted as present or absent.`,
      color: COLORS.muted,
    });
  } else {
    content.push(
      sectionTitle('Totals'),
      keyValueGrid(
        attendanceLines(summary).map((line) => [line.label, line.value]),
        2,
      ),
      { text: ATTENDANCE_WORDS.explained, fontSize: 7, color: COLORS.muted, margin: [0, 0, 0, 6] },
      sectionTitle('Daily record'),
      rows.length > 0
        ? dataTable(['Date', 'AM', 'PM', 'Late', 'Time In', 'Time Out'], rows, ['*', 80, 80, 60, 60, 60])
        : { text: 'No school days in this range.', italics: true, color: COLORS.muted },
    );
  }

  return {
    pageSize: PAGE_SIZES.letter,
    pageMargins: [40, 40, 40, 50],
    info: { title: `Attendance Report ${student.id} ${input.from} to ${input.to}`, author: input.schoolName },
    footer: pageFooter(`${input.schoolName} · Attendance report for ${student.id} · generated ${input.generatedAt}`),
    content,
  };
}

/** Renders the report to PDF bytes. */
export function renderAttendanceReport(input: AttendanceReportInput): Promise<Buffer> {
  return renderPdf(attendanceReportDefinition(input));
}
