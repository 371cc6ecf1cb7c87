import type { TableCell } from 'pdfmake/interfaces.js';
import { listName } from '../../shared/students.schemas.js';
import { COLORS, dataTable, pageFooter, schoolHeader } from '../pdf/pieces.js';
import { PAGE_SIZES, type Printout } from '../pdf/printout.js';
import type { ClassRollRow } from './bulk.repository.js';

/**
 * Two printouts of one class for the form teacher's desk (docs/decisions.md D83): the class list
 * (names, student ids, sex) and a blank register (names with an empty column for each school day
 * of a month, to tick by hand). Letter paper, the register across (landscape).
 */

export interface ClassPrintHeading {
  schoolName: string;
  /** 'Form 3 3B — Form Teacher: Mr. K. Ali' */
  className: string;
  /** 'yyyy-MM-dd HH:mm' in the school's time zone. */
  printedAt: string;
}

export interface ClassListPrintout extends ClassPrintHeading {
  /** In the order printed (by name). */
  students: readonly ClassRollRow[];
}

export interface ClassRegisterPrintout extends ClassListPrintout {
  /** 'November 2026' */
  monthLabel: string;
  /** The school days of the month (yyyy-MM-dd): weekdays that are not holidays. */
  days: readonly string[];
}

const numbered = (index: number): TableCell => ({ text: String(index + 1), alignment: 'right', color: COLORS.muted });
const noStudents = { text: 'No students in this class.', color: COLORS.muted };

export function buildClassList(data: ClassListPrintout): Printout {
  const rows = data.students.map((student, index) => [numbered(index), listName(student) || '—', student.id, student.sex ?? '—']);
  const sexes = ['Female', 'Male'].map((sex) => `${sex} ${data.students.filter((student) => student.sex === sex).length}`).join(' · ');
  return {
    pageSize: PAGE_SIZES.letter,
    pageMargins: [40, 40, 40, 50],
    info: { title: `Class List — ${data.className}`, author: data.schoolName },
    content: [
      schoolHeader(data.schoolName, 'Class List', data.className),
      data.students.length === 0
        ? noStudents
        : dataTable(['No.', 'Name', 'Student ID', 'Sex'], rows, [24, '*', 80, 60], { caption: `${data.className} · ${data.students.length} students · ${sexes}` }),
    ],
    footer: pageFooter(`${data.schoolName} · Class List · ${data.className} · printed ${data.printedAt}`),
  };
}

/** The day's column heading: the day of the month over the weekday's initial ('4' over 'W'). */
function dayHeading(isoDate: string): TableCell {
  const date = new Date(`${isoDate}T12:00:00Z`);
  const weekday = ['S', 'M', 'T', 'W', 'T', 'F', 'S'][date.getUTCDay()] ?? '';
  return { text: `${date.getUTCDate()}\n${weekday}`, alignment: 'center', fontSize: 7, bold: true, fillColor: COLORS.band };
}

export function buildClassRegister(data: ClassRegisterPrintout): Printout {
  const blank = (): TableCell => ({ text: ' ' });
  const headerRow: TableCell[] = [
    { text: 'No.', bold: true, fillColor: COLORS.band, fontSize: 8 },
    { text: 'Name', bold: true, fillColor: COLORS.band, fontSize: 8 },
    ...data.days.map(dayHeading),
  ];
  const body: TableCell[][] = [
    headerRow,
    ...data.students.map((student, index) => [numbered(index), { text: listName(student) || student.id, fontSize: 8, noWrap: true }, ...data.days.map(blank)]),
  ];
  const register =
    data.students.length === 0
      ? noStudents
      : {
          // pdfmake's default layout: every cell ruled, a box to tick for each day.
          table: { headerRows: 1, widths: [16, 150, ...data.days.map(() => '*')], body },
        };
  return {
    pageSize: PAGE_SIZES.letter,
    pageOrientation: 'landscape',
    pageMargins: [30, 30, 30, 45],
    info: { title: `Register — ${data.className} — ${data.monthLabel}`, author: data.schoolName },
    content: [
      schoolHeader(data.schoolName, `Register — ${data.monthLabel}`, `${data.className} · ${data.days.length} school days`),
      register,
    ],
    footer: pageFooter(`${data.schoolName} · Register · ${data.className} · ${data.monthLabel} · printed ${data.printedAt}`),
  };
}
