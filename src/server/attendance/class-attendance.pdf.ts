import type { TableCell } from 'pdfmake/interfaces.js';
import { ATTENDANCE_WORDS } from '../../shared/attendance.stats.js';
import { listName } from '../../shared/students.schemas.js';
import type { ClassAttendance } from '../../shared/attendance.schemas.js';
import { COLORS, dataTable, keyValueGrid, pageFooter, schoolHeader, sectionTitle } from '../pdf/pieces.js';
import { PAGE_SIZES, type Printout } from '../pdf/printout.js';
import type { SheetColumn } from '../spreadsheets/xlsx-writer.js';

/**
 * A class's attendance over a date range: one row per student now in the
 * class with the sessions present, absent (and of those, excused by an accepted absence note and
 * not, D93), the days late (and excused) and both percentages (docs/requirements.md R5), and the
 * class's totals; as a PDF (Letter, landscape: ten columns do not fit across) and as a spreadsheet
 * with the same columns.
 */

export interface ClassAttendancePrintout extends ClassAttendance {
  schoolName: string;
  /** 'yyyy-MM-dd HH:mm' in the school's time zone. */
  printedAt: string;
}

type Row = ClassAttendance['students'][number];

const W = ATTENDANCE_WORDS;
const HEADERS = [
  'Student ID',
  'Name',
  W.sessionsPresent,
  W.sessionsAbsent,
  W.sessionsAbsentExcused,
  W.sessionsAbsentUnexcused,
  W.daysLate,
  W.daysLateExcused,
  W.attendance,
  W.punctuality,
] as const;

/** The range's line under the title: 'Form 4 4A · 2026-09-07 to 2026-10-30'. */
export function classAttendanceScope(data: Pick<ClassAttendance, 'class_name' | 'from' | 'to'>): string {
  return `${data.class_name} · ${data.from} to ${data.to}`;
}

const right = (value: number | string, strong = false, color?: string): TableCell => ({ text: String(value), alignment: 'right', bold: strong, ...(color ? { color } : {}) });

/** The document definition (tests read its text back from the PDF). */
export function buildClassAttendance(data: ClassAttendancePrintout): Printout {
  const scope = classAttendanceScope(data);
  const teacher = data.form_teacher ? ` — Form Teacher: ${data.form_teacher}` : '';
  const rows: TableCell[][] = data.students.map((row) => [
    { text: row.id },
    { text: listName(row) || '—' },
    right(row.present),
    right(row.absent),
    right(row.absent_excused),
    // The absences to follow up are the unexcused ones: those in red.
    right(row.absent_unexcused, false, row.absent_unexcused > 0 ? '#b00020' : undefined),
    right(row.lates),
    right(row.lates_excused),
    right(`${row.attendance_percent}%`),
    right(`${row.punctuality_percent}%`),
  ]);
  rows.push([
    { text: 'Class total', bold: true },
    { text: `${data.students.length} students`, bold: true },
    right(data.totals.present, true),
    right(data.totals.absent, true),
    right(data.totals.absent_excused, true),
    right(data.totals.absent_unexcused, true),
    right(data.totals.lates, true),
    right(data.totals.lates_excused, true),
    right(`${data.totals.attendance_percent}%`, true),
    { text: '' },
  ]);
  const summary = keyValueGrid([
    ['School days', data.school_days],
    ['Possible sessions per student', data.possible],
  ]);
  const body = !data.recorded
    ? [
        sectionTitle(`${data.class_name}${teacher}`),
        { text: 'No attendance was recorded for this range.', bold: true, margin: [0, 4, 0, 4] as [number, number, number, number] },
        { text: `The school recorded no attendance from ${data.from} to ${data.to}, so no one is counted as present or absent.`, color: COLORS.muted },
      ]
    : data.students.length === 0
      ? [sectionTitle(`${data.class_name}${teacher}`), { text: 'No students in this class.', color: COLORS.muted }]
      : [
          summary,
          { text: W.explained, fontSize: 7, color: COLORS.muted },
          // The class's heading is the table's first header row, so it repeats on continued pages.
          dataTable([...HEADERS], rows, [60, '*', 50, 50, 54, 62, 40, 50, 62, 62], { caption: `${data.class_name}${teacher}` }),
        ];
  return {
    pageSize: PAGE_SIZES.letter,
    pageOrientation: 'landscape',
    pageMargins: [40, 40, 40, 50],
    info: { title: `Class Attendance — ${scope}`, author: data.schoolName },
    content: [schoolHeader(data.schoolName, 'Class Attendance', scope), ...body],
    footer: pageFooter(`${data.schoolName} · Class Attendance · ${scope} · printed ${data.printedAt}`),
  };
}

/** The spreadsheet's columns: the PDF's, with the names in two columns for sorting. */
export function classAttendanceColumns(): SheetColumn<Row>[] {
  return [
    { header: 'Student ID', kind: 'text', width: 12, value: (row) => row.id },
    { header: 'Last Name', kind: 'text', width: 18, value: (row) => row.last_name },
    { header: 'First Name', kind: 'text', width: 18, value: (row) => row.first_name },
    { header: 'Present (sessions)', kind: 'number', value: (row) => row.present },
    { header: 'Absent (sessions)', kind: 'number', value: (row) => row.absent },
    { header: W.sessionsAbsentExcused, kind: 'number', value: (row) => row.absent_excused },
    { header: W.sessionsAbsentUnexcused, kind: 'number', value: (row) => row.absent_unexcused },
    { header: W.daysLate, kind: 'number', width: 10, value: (row) => row.lates },
    { header: W.daysLateExcused, kind: 'number', value: (row) => row.lates_excused },
    { header: 'Attendance %', kind: 'number', value: (row) => row.attendance_percent },
    { header: 'Punctuality %', kind: 'number', value: (row) => row.punctuality_percent },
  ];
}
