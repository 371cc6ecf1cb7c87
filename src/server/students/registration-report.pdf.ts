import type { Content, TableCell } from 'pdfmake/interfaces.js';
import { formClassName } from '../../shared/form-class.js';
import type { ProgressFlags } from '../../shared/registration.progress.js';
import type { RegistrationState } from '../../shared/students.schemas.js';
import { COLORS, dataTable, pageFooter, schoolHeader, sectionTitle } from '../pdf/pieces.js';
import { PAGE_SIZES, type PrintoutFrame } from '../pdf/printout.js';

/**
 * The registration report (docs/requirements.md R11; `/api/registration-report/all`): one
 * section per form class listing each student's six progress flags, the documents still
 * missing and whether the terms are agreed, with class totals, and a summary of every class
 * with the school's totals. Made in parts (pdf/printout-in-parts.ts, D63): the classes are
 * gathered and laid out a few at a time; the summary, which needs every class's totals, is laid
 * out last and put first.
 */

export interface ReportStudent {
  id: string;
  /** 'Last, First' */
  name: string;
  progress: ProgressFlags;
  /** Where the record stands: the student list's state. */
  state: RegistrationState;
  /** Labels of the required document slots without a file. */
  missingDocuments: string[];
  /** yyyy-MM-dd the terms were agreed, or null. */
  termsAgreedOn: string | null;
  termsAgreed: boolean;
}

export interface ReportClass {
  /** null: students without a class. */
  classId: string | null;
  formLevel: number | null;
  formTeacher: string | null;
  students: ReportStudent[];
  /** Absent: the whole class. Present: a piece of a class larger than a part (D94). */
  piece?: ClassPiece;
}

/**
 * A piece of a class printed in several (D94): each starts on a new page with the class's heading,
 * '(continued)' after the first; the class's total line ends the last piece only.
 */
export interface ClassPiece {
  continued: boolean;
  /** The whole class's totals, on the last piece; null on the others. */
  totals: Totals | null;
}

/** What names the document on its first page and at the foot of every page. */
export interface ReportHeading {
  schoolName: string;
  /** 'All classes' or 'Form 3 3B'. */
  scope: string;
  /** 'yyyy-MM-dd HH:mm' in the school's time zone. */
  printedAt: string;
}

/** A class's line of the summary: the class and its totals (its students are long gone by then). */
export interface ClassSummary {
  classId: string | null;
  formLevel: number | null;
  formTeacher: string | null;
  totals: Totals;
}

/** The six progress flags in step order, as the report's columns name them (R6). */
const PROGRESS_STEPS: readonly (readonly [keyof ProgressFlags, string])[] = [
  ['studentData', 'Student Data'],
  ['familyData', 'Family Data'],
  ['healthData', 'Health Data'],
  ['otherData', 'Other Data'],
  ['documents', 'Documents'],
  ['submit', 'Submitted'],
];

export interface Totals {
  students: number;
  /** Students with each flag done. */
  steps: Record<keyof ProgressFlags, number>;
  termsAgreed: number;
  /** Students with all six flags done. */
  complete: number;
  /** Students in each review state: waiting for the office, returned, verified. */
  submitted: number;
  returned: number;
  verified: number;
}

/** The school's totals: the classes' added up. */
export function sumTotals(classes: readonly Totals[]): Totals {
  const sum = totalsOf([]);
  for (const t of classes) {
    for (const key of Object.keys(sum.steps) as (keyof ProgressFlags)[]) sum.steps[key] += t.steps[key];
    sum.students += t.students;
    sum.termsAgreed += t.termsAgreed;
    sum.complete += t.complete;
    sum.submitted += t.submitted;
    sum.returned += t.returned;
    sum.verified += t.verified;
  }
  return sum;
}

/** Counts of one class. */
export function totalsOf(students: readonly ReportStudent[]): Totals {
  const steps = { studentData: 0, familyData: 0, healthData: 0, otherData: 0, documents: 0, submit: 0, termsAndConditions: 0 };
  let termsAgreed = 0;
  let complete = 0;
  const states = { submitted: 0, returned: 0, verified: 0 };
  for (const student of students) {
    if (student.state === 'submitted' || student.state === 'returned' || student.state === 'verified') states[student.state]++;
    for (const key of Object.keys(steps) as (keyof ProgressFlags)[]) steps[key] += student.progress[key];
    if (student.termsAgreed) termsAgreed++;
    if (PROGRESS_STEPS.every(([key]) => student.progress[key] === 1)) complete++;
  }
  return { students: students.length, steps, termsAgreed, complete, ...states };
}

export function classTitle(group: Pick<ReportClass, 'classId' | 'formLevel'>): string {
  return formClassName(group.classId, group.formLevel) ?? 'No class';
}

const flag = (done: 0 | 1): TableCell => (done === 1 ? { text: 'Yes' } : { text: 'No', color: '#b3261e' });
const bold = (text: string | number): TableCell => ({ text: String(text), bold: true });

function summaryTable(classes: readonly ClassSummary[], school: Totals): Content {
  const headers = ['Class', 'Form Teacher', 'Students', ...PROGRESS_STEPS.map(([, label]) => label), 'Terms Agreed', 'Complete', 'Awaiting Review', 'Returned', 'Verified'];
  const row = (label: string, teacher: string | null, t: Totals, strong = false) =>
    [label, teacher ?? '', t.students, ...PROGRESS_STEPS.map(([key]) => t.steps[key]), t.termsAgreed, t.complete, t.submitted, t.returned, t.verified].map((cell) =>
      strong ? bold(cell) : { text: String(cell) },
    );
  // A school total beside a single class repeats its line: printed only when there are several (D84).
  const total = classes.length > 1 ? [row('School total', null, school, true)] : [];
  return dataTable(
    headers,
    [...classes.map((group) => row(classTitle(group), group.formTeacher, group.totals)), ...total],
    ['auto', '*', 'auto', ...PROGRESS_STEPS.map(() => 'auto'), 'auto', 'auto', 'auto', 'auto', 'auto'],
    { keepRowsWhole: true },
  );
}

function classTable(group: ReportClass, caption: string): Content {
  const t = group.piece ? group.piece.totals : totalsOf(group.students);
  const headers = ['Student ID', 'Name', ...PROGRESS_STEPS.map(([, label]) => label), 'Missing Documents', 'Terms Agreed'];
  const rows: TableCell[][] = group.students.map((student) => [
    { text: student.id },
    { text: student.name || '—' },
    ...PROGRESS_STEPS.map(([key]) => flag(student.progress[key])),
    { text: student.missingDocuments.length > 0 ? student.missingDocuments.join(', ') : 'None' },
    student.termsAgreed ? { text: student.termsAgreedOn ? `Yes ${student.termsAgreedOn}` : 'Yes' } : { text: 'No', color: '#b3261e' },
  ]);
  if (t) {
    const of = (n: number) => `${n} of ${t.students}`;
    rows.push([bold('Class total'), bold(`${t.students} students`), ...PROGRESS_STEPS.map(([key]) => bold(of(t.steps[key]))), bold(`${t.complete} complete`), bold(of(t.termsAgreed))]);
  }
  return dataTable(headers, rows, [50, '*', 42, 42, 42, 42, 48, 46, 130, 58], { caption, keepRowsWhole: true });
}

/** What every part shares: Letter, landscape, the foot (PdfInParts numbers the pages). */
export function registrationReportFrame(heading: ReportHeading): PrintoutFrame {
  return {
    pageSize: { width: PAGE_SIZES.letter.height, height: PAGE_SIZES.letter.width },
    pageOrientation: 'landscape',
    pageMargins: [36, 36, 36, 44],
    info: { title: `Registration Report — ${heading.scope}`, author: heading.schoolName },
    defaultStyle: { fontSize: 8 },
    footer: pageFooter(`${heading.schoolName} · Registration Report · ${heading.scope} · printed ${heading.printedAt}`),
  };
}

/** The first page: the school's header and the summary of every class. */
export function registrationSummary(heading: ReportHeading, classes: readonly ClassSummary[]): Content[] {
  const school = sumTotals(classes.map((group) => group.totals));
  return [
    schoolHeader(heading.schoolName, 'Registration Report', heading.scope),
    sectionTitle(`Summary — ${school.students} students, ${school.complete} with every step complete, ${school.termsAgreed} with the terms agreed`),
    summaryTable(classes, school),
  ];
}

/** A class's section, on pages of its own. Tests read its text back from the joined PDF. */
export function registrationClassSection(group: ReportClass): Content {
  const teacher = group.formTeacher ? ` — Form Teacher: ${group.formTeacher}` : '';
  const heading = `${classTitle(group)}${teacher}${group.piece?.continued ? ' (continued)' : ''}`;
  // The heading is the class table's first header row, so it repeats on the class's continued pages.
  return group.students.length > 0 ? classTable(group, heading) : [sectionTitle(heading), { text: 'No students in this class.', color: COLORS.muted }];
}
