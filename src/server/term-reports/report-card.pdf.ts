import type { Content } from 'pdfmake/interfaces.js';
import { formClassName } from '../../shared/form-class.js';
import { academicYearLabel, TERM_NAMES, type TermNumber } from '../../shared/school.constants.js';
import { describeGradeKey, type AssessmentWeights, type GradeBand } from '../../shared/term-reports.grading.js';
import { COLORS, dataTable, display, keyValueGrid, pageFooter, schoolHeader, sectionFooters, sectionTitle, signatureLines } from '../pdf/pieces.js';
import { PAGE_SIZES, type Printout } from '../pdf/printout.js';
import { renderPdf } from '../pdf/render-on-pool.js';

/**
 * The end-of-term report card (docs/requirements.md R9; `/api/report-card/{studentId}/{year}/{term}`),
 * one Letter page: who, which term, standing in class, subjects, attendance, remarks, grade key.
 */

export interface ReportCardData {
  schoolName: string;
  student: {
    id: string;
    first_name: string | null;
    last_name: string | null;
    date_of_birth: string | null;
  };
  year: number;
  term: TermNumber;
  classId: string | null;
  formLevel: number | null;
  formTeacher: string | null;
  classSize: number | null;
  position: number | null;
  average: number | null;
  classAverage: number | null;
  weights: AssessmentWeights | null;
  results: readonly {
    subject: string;
    coursework: number | null;
    exam: number | null;
    total: number | null;
    grade: string | null;
    comment: string | null;
  }[];
  /** null when the school recorded no attendance in the term. */
  attendance: {
    possibleSessions: number;
    absentSessions: number;
    /** Of the absent sessions, those an accepted absence note covers (D93). */
    absentSessionsExcused: number;
    lateSessions: number;
    /** Of the late sessions, those an accepted absence note covers (D93). */
    lateSessionsExcused: number;
  } | null;
  formTeacherRemarks: string | null;
  principalRemarks: string | null;
  gradeKey: readonly GradeBand[];
  /** 'yyyy-MM-dd HH:mm' in the school's time zone. */
  printedAt: string;
}

const NOT_VALID_LINE = 'This report is not valid without the school stamp and the principal’s signature.';

const percent = (weight: number | undefined) => (weight === undefined ? '' : ` (${Math.round(weight * 100)}%)`);
const mark = (value: number | null) => (value === null ? null : Number.isInteger(value) ? String(value) : value.toFixed(1));

function remarks(title: string, text: string | null, signedBy: string | null): Content[] {
  return [
    sectionTitle(title),
    { text: display(text), margin: [4, 0, 4, 2] },
    ...(signedBy
      ? [
          {
            text: signedBy,
            fontSize: 8,
            color: COLORS.muted,
            margin: [4, 0, 4, 0] as [number, number, number, number],
          },
        ]
      : []),
  ];
}

const termNameOf = (term: TermNumber) => `Term ${term} ${TERM_NAMES[term]}`;
const studentName = (data: ReportCardData) => [data.student.first_name, data.student.last_name].filter(Boolean).join(' ') || data.student.id;
const PAGE = { pageSize: PAGE_SIZES.letter, pageMargins: [40, 36, 40, 48] as [number, number, number, number] };

/** The document definition of a report card (tests read its text back from the PDF). */
export function buildReportCard(data: ReportCardData): Printout {
  const termName = termNameOf(data.term);
  const yearLabel = academicYearLabel(data.year);
  const name = studentName(data);
  return {
    ...PAGE,
    info: {
      title: `End of Term Report – ${name} – ${termName} ${yearLabel}`,
      author: data.schoolName,
      subject: 'End of Term Report',
    },
    footer: pageFooter(cardSmallPrint(data)),
    content: reportCardContent(data),
  };
}

/**
 * The foot of a card's pages: whose card, of which class and term. The class is the one the
 * student was in that term (the card's own), never today's: a past term's card reads the same
 * wherever it is printed (docs/decisions.md D84).
 */
function cardSmallPrint(data: ReportCardData): string {
  const formClass = data.classId ? formClassName(data.classId, data.formLevel) : null;
  const who = `${studentName(data)} (${data.student.id})`;
  return [who, formClass, `${termNameOf(data.term)} ${academicYearLabel(data.year)}`, `printed ${data.printedAt}`].filter(Boolean).join(' · ');
}

/**
 * Several students' cards as one document, each starting on a new page (a class's report day,
 * D59): the same card and foot as `buildReportCard`, each card's pages numbered on their own
 * ('Page 1 of 2' of that card, D84), so each card can be handed out and the numbering does not
 * depend on how the class is split into parts for the worker pool.
 */
export function buildReportCardSet(cards: readonly ReportCardData[], set: { classId: string; formLevel: number | null }): Printout {
  const first = cards[0];
  if (!first) throw new Error('buildReportCardSet: no cards');
  const termName = termNameOf(first.term);
  const yearLabel = academicYearLabel(first.year);
  const formClass = formClassName(set.classId, set.formLevel) ?? set.classId;
  return {
    ...PAGE,
    info: {
      title: `End of Term Reports – ${formClass} – ${termName} ${yearLabel}`,
      author: first.schoolName,
      subject: 'End of Term Report',
    },
    footer: sectionFooters(cards.map(cardSmallPrint)),
    content: cards.map((card, index) => ({ stack: reportCardContent(card), ...(index > 0 ? { pageBreak: 'before' as const } : {}) })),
  };
}

/** What one card prints, page content only: the one card layout both documents use. */
function reportCardContent(data: ReportCardData): Content[] {
  const termName = termNameOf(data.term);
  const yearLabel = academicYearLabel(data.year);
  const name = studentName(data);
  const formClass = data.classId ? formClassName(data.classId, data.formLevel) : null;
  const attendance = data.attendance;
  // 'Sessions Absent 6 of 120 (4 excused)': the excused part said only when there is something absent (D93).
  const sessions = (n: number, excused: number) => (attendance ? `${n} of ${attendance.possibleSessions}${n > 0 ? ` (${excused} excused)` : ''}` : 'Not recorded');

  return [
    schoolHeader(data.schoolName, 'End of Term Report', `${termName} · Academic Year ${yearLabel}`),
    keyValueGrid(
      [
        ['Student', name],
        ['Student ID', data.student.id],
        ['Date of Birth', data.student.date_of_birth],
        ['Form Class', formClass],
        ['Term', termName],
        ['Academic Year', yearLabel],
        ['Number in Class', data.classSize],
        ['Position in Class', data.position],
        ['Average', mark(data.average)],
        ['Class Average', mark(data.classAverage)],
      ],
      2,
    ),
    sectionTitle('Subjects'),
    dataTable(
      [
        'Subject',
        `Coursework${percent(data.weights?.coursework_weight)}`,
        `Exam${percent(data.weights?.exam_weight)}`,
        'Total',
        'Grade',
        'Comment',
      ],
      data.results.map((r) => [
        r.subject,
        { text: display(mark(r.coursework)), alignment: 'right' },
        { text: display(mark(r.exam)), alignment: 'right' },
        { text: display(mark(r.total)), alignment: 'right', bold: true },
        { text: display(r.grade), alignment: 'center', bold: true },
        { text: display(r.comment), fontSize: 8 },
      ]),
      [105, 62, 48, 36, 32, '*'],
    ),
    sectionTitle('Attendance'),
    keyValueGrid(
      [
        ['Sessions Absent', sessions(attendance?.absentSessions ?? 0, attendance?.absentSessionsExcused ?? 0)],
        ['Sessions Late', sessions(attendance?.lateSessions ?? 0, attendance?.lateSessionsExcused ?? 0)],
      ],
      2,
    ),
    ...remarks('Form Teacher’s Remarks', data.formTeacherRemarks, data.formTeacher ? `Form teacher: ${data.formTeacher}` : null),
    ...remarks('Principal’s Remarks', data.principalRemarks, null),
    sectionTitle('Grade Key'),
    gradeKeyTable(data.gradeKey),
    signatureLines(['Form Teacher', 'Principal', 'Parent or Guardian']),
    {
      text: NOT_VALID_LINE,
      bold: true,
      alignment: 'center',
      margin: [0, 14, 0, 0],
      fontSize: 9,
      color: COLORS.ink,
    },
  ];
}

/** The grade key in one row of bands: 'A 75–100 Excellent' … */
function gradeKeyTable(key: readonly GradeBand[]): Content {
  const bands = describeGradeKey(key);
  if (bands.length === 0) return { text: 'No grade key is set.', color: COLORS.muted };
  return {
    table: {
      widths: bands.map(() => '*'),
      body: [
        bands.map((band) => ({
          stack: [
            { text: `${band.grade}  ${band.range}`, bold: true },
            ...(band.description ? [{ text: band.description, fontSize: 7, color: COLORS.muted }] : []),
          ],
          alignment: 'center' as const,
        })),
      ],
    },
    layout: 'lightHorizontalLines',
    margin: [0, 0, 0, 4],
  };
}

/** The report card as PDF bytes. */
export function renderReportCard(data: ReportCardData): Promise<Buffer> {
  return renderPdf(buildReportCard(data));
}
