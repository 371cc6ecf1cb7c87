import type { Content, TableCell } from 'pdfmake/interfaces.js';
import { formClassName } from '../../shared/form-class.js';
import type { ProgressFlags } from '../../shared/registration.progress.js';
import type { RegistrationState } from '../../shared/admin.schemas.js';
import { COLORS, dataTable, pageFooter, schoolHeader, sectionTitle } from '../pdf/pieces.js';
import { PAGE_SIZES, type PdfDocument } from '../pdf/renderer.js';

/**
 * The registration report (SPEC §2 Reports, §7 `/api/registration-report/all`): one
 * section per form class listing each student's six progress flags, the documents still
 * missing and whether the terms are agreed, with class totals, and a summary of every class
 * with the school's totals. Built from data already gathered by a few set-based queries.
 */

export interface ReportStudent {
  id: string;
  /** 'Last, First' */
  name: string;
  progress: ProgressFlags;
  /** Where the record stands (issue 18): the student list's state. */
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
}

export interface RegistrationReportData {
  schoolName: string;
  /** 'All classes' or 'Form 3 3B'. */
  scope: string;
  /** 'yyyy-MM-dd HH:mm' in the school's time zone. */
  printedAt: string;
  classes: ReportClass[];
}

/** The six progress flags in step order, as the report's columns name them (SPEC §3). */
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
  /** Students in each review state (issue 18): waiting for the office, returned, verified. */
  submitted: number;
  returned: number;
  verified: number;
}

/** Counts of one class or of several (the school's totals). */
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

function summaryTable(classes: readonly ReportClass[], school: Totals): Content {
  const headers = ['Class', 'Form Teacher', 'Students', ...PROGRESS_STEPS.map(([, label]) => label), 'Terms Agreed', 'Complete', 'Awaiting Review', 'Returned', 'Verified'];
  const row = (label: string, teacher: string | null, t: Totals, strong = false) =>
    [label, teacher ?? '', t.students, ...PROGRESS_STEPS.map(([key]) => t.steps[key]), t.termsAgreed, t.complete, t.submitted, t.returned, t.verified].map((cell) =>
      strong ? bold(cell) : { text: String(cell) },
    );
  return dataTable(
    headers,
    [...classes.map((group) => row(classTitle(group), group.formTeacher, totalsOf(group.students))), row('School total', null, school, true)],
    ['auto', '*', 'auto', ...PROGRESS_STEPS.map(() => 'auto'), 'auto', 'auto', 'auto', 'auto', 'auto'],
  );
}

function classTable(group: ReportClass, caption: string): Content {
  const t = totalsOf(group.students);
  const of = (n: number) => `${n} of ${t.students}`;
  const headers = ['Student ID', 'Name', ...PROGRESS_STEPS.map(([, label]) => label), 'Missing Documents', 'Terms Agreed'];
  const rows: TableCell[][] = group.students.map((student) => [
    { text: student.id },
    { text: student.name || '—' },
    ...PROGRESS_STEPS.map(([key]) => flag(student.progress[key])),
    { text: student.missingDocuments.length > 0 ? student.missingDocuments.join(', ') : 'None' },
    student.termsAgreed ? { text: student.termsAgreedOn ? `Yes ${student.termsAgreedOn}` : 'Yes' } : { text: 'No', color: '#b3261e' },
  ]);
  rows.push([bold('Class total'), bold(`${t.students} students`), ...PROGRESS_STEPS.map(([key]) => bold(of(t.steps[key]))), bold(`${t.complete} complete`), bold(of(t.termsAgreed))]);
  return dataTable(headers, rows, [50, '*', 42, 42, 42, 42, 48, 46, 130, 58], { caption });
}

/** The document definition (Letter, landscape). Tests read its text back from the PDF. */
export function buildRegistrationReport(data: RegistrationReportData): PdfDocument {
  const school = totalsOf(data.classes.flatMap((group) => group.students));
  const content: Content[] = [
    schoolHeader(data.schoolName, 'Registration Report', data.scope),
    sectionTitle(`Summary — ${school.students} students, ${school.complete} with every step complete, ${school.termsAgreed} with the terms agreed`),
    summaryTable(data.classes, school),
  ];
  data.classes.forEach((group) => {
    const teacher = group.formTeacher ? ` — Form Teacher: ${group.formTeacher}` : '';
    const heading = `${classTitle(group)}${teacher}`;
    content.push({ text: '', pageBreak: 'before' });
    // The heading is the class table's first header row, so it repeats on the class's continued pages.
    content.push(group.students.length > 0 ? classTable(group, heading) : [sectionTitle(heading), { text: 'No students in this class.', color: COLORS.muted }]);
  });
  return {
    pageSize: { width: PAGE_SIZES.letter.height, height: PAGE_SIZES.letter.width },
    pageOrientation: 'landscape',
    pageMargins: [36, 36, 36, 44],
    info: { title: `Registration Report — ${data.scope}`, author: data.schoolName },
    defaultStyle: { fontSize: 8 },
    content,
    footer: pageFooter(`${data.schoolName} · Registration Report · ${data.scope} · printed ${data.printedAt}`),
  };
}
