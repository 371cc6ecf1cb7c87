import { STUDENT_ID_PATTERN } from '../../shared/auth.schemas.js';
import { MAX_MARK, averageOf, gradeFor, weightedTotal, type AssessmentWeights, type GradeBand } from '../../shared/term-reports.grading.js';
import {
  REMARKS_MAX_LENGTH,
  SUBJECT_COMMENT_MAX_LENGTH,
  TERM_RESULT_COLUMNS,
  type ImportRow,
  type TermResultColumnKey,
} from '../../shared/term-reports.schemas.js';
import { headingsByColumn, normaliseHeading, type Cell, type SheetRequest, type SheetRow } from '../spreadsheets/spreadsheet-upload.js';
import { listName } from '../../shared/students.schemas.js';

/**
 * The import's rules, without the database: which column is which, what each cell must hold,
 * and what a valid row computes to, so a dry run can preview every row's error.
 * The service loads the lookups, calls `checkRecords`, and writes only when no row has an error.
 */

const normalise = (header: string) => normaliseHeading(header, 'letters');

/** Header spellings accepted besides the template's (ignoring case, spaces and punctuation). */
const ALIASES: Record<TermResultColumnKey, string[]> = {
  student_id: ['studentid', 'id', 'student', 'studentno', 'studentnumber'],
  subject: ['subject', 'subjectcode', 'subjectname'],
  class_id: ['class', 'classid', 'formclass', 'form'],
  coursework: ['coursework', 'cw', 'sba'],
  exam: ['exam', 'examination', 'exammark'],
  comment: ['comment', 'comments', 'teachercomment', 'subjectcomment'],
  form_teacher_remarks: ['formteacherremarks', 'formteacherremark', 'formteachercomment', 'formteachercomments'],
  principal_remarks: ['principalremarks', 'principalremark', 'principalcomment', 'principalscomments', 'principalsremarks'],
};

/** What the reader keeps of an uploaded file: the columns above, by any of their headings. */
export const TERM_RESULTS_SHEET: Omit<SheetRequest, 'maxRows'> = {
  headingRule: 'letters',
  columns: headingsByColumn(Object.fromEntries(TERM_RESULT_COLUMNS.map((c) => [c.key, [c.header, ...ALIASES[c.key]]])), 'letters'),
};

export type ColumnMap = Partial<Record<TermResultColumnKey, number>>;

/** Finds each column in the header row; answers the file-level problems (missing or repeated columns). */
export function mapColumns(header: SheetRow | undefined): {
  columns: ColumnMap;
  errors: string[];
} {
  if (!header)
    return {
      columns: {},
      errors: ['The file is empty. Download the template and fill it in.'],
    };
  const columns: ColumnMap = {};
  const errors: string[] = [];
  header.cells.forEach((cell, index) => {
    if (cell.kind !== 'text') return;
    const name = normalise(cell.value);
    const column = TERM_RESULT_COLUMNS.find((c) => normalise(c.header) === name || ALIASES[c.key].includes(name));
    if (!column) return;
    if (columns[column.key] !== undefined) errors.push(`The column “${column.header}” appears twice.`);
    else columns[column.key] = index;
  });
  const missing = TERM_RESULT_COLUMNS.filter((c) => c.required && columns[c.key] === undefined).map((c) => `“${c.header}”`);
  if (missing.length > 0) {
    errors.push(`The first row must name the columns; missing: ${missing.join(', ')}. Download the template to see them.`);
  }
  return { columns, errors };
}

/** A data row as read: text fields trimmed, marks parsed, and the cell problems found so far. */
export interface RawRecord {
  row: number;
  student_id: string;
  subject: string;
  class_id: string | null;
  coursework: number | null;
  exam: number | null;
  comment: string | null;
  form_teacher_remarks: string | null;
  principal_remarks: string | null;
  errors: string[];
}

function cellAt(row: SheetRow, index: number | undefined): Cell {
  return index === undefined ? { kind: 'empty' } : (row.cells[index] ?? { kind: 'empty' });
}

/** Text of a cell; an ID typed as a number in Excel (20220001) reads as its digits. */
function readText(cell: Cell, label: string, maxLength: number, errors: string[]): string | null {
  if (cell.kind === 'empty') return null;
  if (cell.kind === 'formula') {
    errors.push(`${label} is a formula (${cell.text.slice(0, 40)}); type the text itself.`);
    return null;
  }
  const raw = cell.kind === 'number' ? String(cell.value) : cell.kind === 'date' ? cell.date : cell.value;
  const text = raw.replace(/\s+/g, ' ').trim();
  if (text === '') return null;
  if (text.length > maxLength) errors.push(`${label} is longer than ${maxLength} characters.`);
  return text;
}

/** A mark from 0 to 100. Text that starts like a formula or a sign (=, +, -, @) is refused, never read. */
export function readMark(cell: Cell, label: string, errors: string[]): number | null {
  if (cell.kind === 'empty') {
    errors.push(`${label} is required.`);
    return null;
  }
  if (cell.kind === 'formula') {
    errors.push(`${label} is a formula (${cell.text.slice(0, 40)}); enter the mark itself.`);
    return null;
  }
  let value: number;
  if (cell.kind === 'number') value = cell.value;
  else {
    const text = cell.kind === 'date' ? cell.date : cell.value.trim();
    if (/^[=+\-@\t\r]/.test(text)) {
      errors.push(`${label} “${text.slice(0, 20)}” is not a mark; enter a number from 0 to ${MAX_MARK}.`);
      return null;
    }
    if (!/^\d{1,3}(\.\d+)?$/.test(text)) {
      errors.push(`${label} “${text.slice(0, 20)}” is not a number; enter a number from 0 to ${MAX_MARK}.`);
      return null;
    }
    value = Number(text);
  }
  if (!(value >= 0 && value <= MAX_MARK)) {
    errors.push(`${label} must be from 0 to ${MAX_MARK}.`);
    return null;
  }
  return value;
}

/** Every data row (all rows after the header) as a RawRecord with its cell-level errors. */
export function readRecords(rows: readonly SheetRow[], columns: ColumnMap): RawRecord[] {
  return rows.map((row) => {
    const errors: string[] = [];
    const studentId = readText(cellAt(row, columns.student_id), 'Student ID', 20, errors);
    const subject = readText(cellAt(row, columns.subject), 'Subject', 60, errors);
    if (studentId === null) errors.push('Student ID is required.');
    else if (!STUDENT_ID_PATTERN.test(studentId)) errors.push(`Student ID “${studentId.slice(0, 20)}” has characters an ID cannot have.`);
    if (subject === null) errors.push('Subject is required.');
    return {
      row: row.rowNumber,
      student_id: studentId ?? '',
      subject: subject ?? '',
      class_id: readText(cellAt(row, columns.class_id), 'Class', 10, errors)?.toUpperCase() ?? null,
      coursework: readMark(cellAt(row, columns.coursework), 'Coursework', errors),
      exam: readMark(cellAt(row, columns.exam), 'Exam', errors),
      comment: readText(cellAt(row, columns.comment), 'Comment', SUBJECT_COMMENT_MAX_LENGTH, errors),
      form_teacher_remarks: readText(cellAt(row, columns.form_teacher_remarks), 'Form teacher remarks', REMARKS_MAX_LENGTH, errors),
      principal_remarks: readText(cellAt(row, columns.principal_remarks), 'Principal remarks', REMARKS_MAX_LENGTH, errors),
      errors,
    };
  });
}

/** What the rows are checked against, loaded by the service. */
export interface ImportLookups {
  students: ReadonlyMap<
    string,
    {
      id: string;
      first_name: string | null;
      last_name: string | null;
      class_id: string | null;
    }
  >;
  subjects: readonly { id: number; code: string; name: string }[];
  classes: ReadonlyMap<string, { id: string; form_level: number }>;
  weights: ReadonlyMap<number, AssessmentWeights>;
  gradeKey: readonly GradeBand[];
  /** The class already recorded for each student in this term, if any. */
  existingClass: ReadonlyMap<string, string | null>;
}

export interface CheckedImport {
  rows: ImportRow[];
  errorCount: number;
  results: {
    student_id: string;
    subject_id: number;
    coursework: number;
    exam: number;
    total: number | null;
    grade: string | null;
    comment: string | null;
  }[];
  /** Per student: class and the remarks the file gives (null = the file leaves them as they are). */
  students: Map<
    string,
    {
      class_id: string;
      form_teacher_remarks: string | null;
      principal_remarks: string | null;
    }
  >;
  summary: {
    rows: number;
    students: number;
    subjects: number;
    classes: number;
  };
}

/** What the rows so far said of one student: their class (and the row that gave it) and the remarks. */
type StudentEntry = {
  class_id: string | null;
  classRow: number;
  form_teacher_remarks: string | null;
  principal_remarks: string | null;
};

/**
 * Notes a row's class and remarks for its student; a row that contradicts an earlier one of the
 * same student (another class, other remarks) gets the error, as the student's are given once.
 */
function noteStudentRow(perStudent: Map<string, StudentEntry>, studentId: string, record: RawRecord, classId: string | null, errors: string[]): void {
  const known = perStudent.get(studentId);
  if (!known) {
    perStudent.set(studentId, {
      class_id: classId,
      classRow: record.row,
      form_teacher_remarks: record.form_teacher_remarks,
      principal_remarks: record.principal_remarks,
    });
  } else {
    if (classId && known.class_id && classId !== known.class_id) {
      errors.push(`Row ${known.classRow} puts this student in ${known.class_id}, this row in ${classId}.`);
    }
    for (const field of ['form_teacher_remarks', 'principal_remarks'] as const) {
      const value = record[field];
      if (value === null) continue;
      if (known[field] === null) known[field] = value;
      else if (known[field] !== value) {
        const label = field === 'form_teacher_remarks' ? 'form teacher' : 'principal';
        errors.push(`This student's ${label} remarks differ from an earlier row; give them once.`);
      }
    }
  }
}

/** Checks every record against the school's data and computes totals and grades; nothing is written. */
export function checkRecords(records: readonly RawRecord[], lookups: ImportLookups): CheckedImport {
  const subjectByName = new Map<string, { id: number; code: string; name: string }>();
  for (const subject of lookups.subjects) {
    subjectByName.set(subject.code.toLowerCase(), subject);
    subjectByName.set(subject.name.toLowerCase(), subject);
  }
  const seen = new Map<string, number>();
  const perStudent = new Map<string, StudentEntry>();
  const rows: ImportRow[] = [];
  const results: CheckedImport['results'] = [];

  for (const record of records) {
    const errors = [...record.errors];
    const student = record.student_id ? lookups.students.get(record.student_id) : undefined;
    if (record.student_id && STUDENT_ID_PATTERN.test(record.student_id) && !student)
      errors.push(`No student has the ID ${record.student_id}.`);
    const subject = record.subject ? subjectByName.get(record.subject.toLowerCase()) : undefined;
    if (record.subject && !subject) errors.push(`No subject is called “${record.subject.slice(0, 60)}”.`);

    // The class for that term: the file's, else the one already recorded, else the student's class now.
    let classId = record.class_id ?? (student ? (lookups.existingClass.get(student.id) ?? student.class_id) : null);
    if (record.class_id && !lookups.classes.has(record.class_id)) {
      errors.push(`No form class is called ${record.class_id}.`);
      classId = null;
    } else if (student && !classId) {
      errors.push('The student has no form class; add a Class column.');
    }
    const formClass = classId ? lookups.classes.get(classId) : undefined;
    const weights = formClass ? lookups.weights.get(formClass.form_level) : undefined;
    if (formClass && !weights) errors.push(`No coursework and exam weights are set for form ${formClass.form_level}.`);

    if (student && subject) {
      const key = `${student.id}\u0000${subject.id}`;
      const earlier = seen.get(key);
      if (earlier !== undefined) errors.push(`Row ${earlier} already has ${subject.name} for this student.`);
      else seen.set(key, record.row);
    }
    if (student) noteStudentRow(perStudent, student.id, record, classId, errors);

    const total = weights ? weightedTotal(record.coursework, record.exam, weights) : null;
    const grade = gradeFor(total, lookups.gradeKey);
    if (total !== null && grade === null) errors.push('The grade key has no grade for this total.');
    const name = student ? listName(student) || null : null;
    rows.push({
      row: record.row,
      student_id: record.student_id,
      student_name: name,
      subject: subject?.name ?? record.subject,
      class_id: classId,
      coursework: record.coursework,
      exam: record.exam,
      total,
      grade,
      comment: record.comment,
      errors,
    });
    if (errors.length === 0 && student && subject && record.coursework !== null && record.exam !== null) {
      results.push({
        student_id: student.id,
        subject_id: subject.id,
        coursework: record.coursework,
        exam: record.exam,
        total,
        grade,
        comment: record.comment,
      });
    }
  }

  const students = new Map<
    string,
    {
      class_id: string;
      form_teacher_remarks: string | null;
      principal_remarks: string | null;
    }
  >();
  for (const [id, entry] of perStudent) {
    if (entry.class_id)
      students.set(id, {
        class_id: entry.class_id,
        form_teacher_remarks: entry.form_teacher_remarks,
        principal_remarks: entry.principal_remarks,
      });
  }
  const errorCount = rows.filter((row) => row.errors.length > 0).length;
  return {
    rows,
    errorCount,
    results,
    students,
    summary: {
      rows: rows.length,
      students: perStudent.size,
      subjects: new Set(results.map((r) => r.subject_id)).size,
      classes: new Set([...students.values()].map((s) => s.class_id)).size,
    },
  };
}

/** Averages of each student from all their totals of the term (what the file gave and what was there). */
export function averagesByStudent(totals: readonly { student_id: string; total: number | null }[]): Map<string, number | null> {
  const grouped = new Map<string, (number | null)[]>();
  for (const { student_id, total } of totals) {
    const list = grouped.get(student_id);
    if (list) list.push(total);
    else grouped.set(student_id, [total]);
  }
  return new Map([...grouped].map(([id, list]) => [id, averageOf(list)]));
}
