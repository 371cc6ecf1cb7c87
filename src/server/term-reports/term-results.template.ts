import type { FastifyReply } from 'fastify';
import type { Db } from '../db/database.js';
import { listName } from '../../shared/students.schemas.js';
import { TERM_RESULT_COLUMNS } from '../../shared/term-reports.schemas.js';
import { badRequest } from '../http/errors.js';
import { loadExcelJs } from '../spreadsheets/exceljs.js';
import * as repo from './term-reports.repository.js';

/**
 * The import template: the header row the importer expects, and on a second sheet
 * what each column takes, the subjects, the form classes and the grade key. The importer reads
 * only the first sheet, so the notes are never imported by mistake.
 */

export interface TemplateFile {
  bytes: Buffer;
  contentType: string;
  fileName: string;
}

const UTF8_BOM = '\uFEFF';

/**
 * A mark sheet's extra column: the student's name, for the teacher's eyes. The import reads only
 * the columns it knows, so the name never overrides the record.
 */
const NAME_HEADER = 'Name';

/** One class's mark sheet for one subject: the template with a row per student of the class. */
export interface MarkSheetRequest {
  classId: string;
  subject: string;
}

interface MarkSheet {
  classId: string;
  subjectCode: string;
  rows: { student_id: string; name: string; subject: string; class_id: string }[];
}

/** The class's students for the sheet; an unknown class or subject is refused by name. */
async function markSheetFor(db: Db, request: MarkSheetRequest, subjects: { code: string }[]): Promise<MarkSheet> {
  const formClass = await repo.findFormClass(db, request.classId);
  const subject = subjects.find((s) => s.code.toLowerCase() === request.subject.toLowerCase());
  const errors: Record<string, string[]> = {};
  if (!formClass) errors['class_id'] = [`There is no form class ${request.classId}.`];
  if (!subject) errors['subject'] = [`There is no subject with the code ${request.subject}.`];
  if (!formClass || !subject) throw badRequest('Choose a class and a subject the school has.', errors);
  const students = await repo.listClassStudents(db, formClass.id);
  return {
    classId: formClass.id,
    subjectCode: subject.code,
    rows: students.map((student) => ({
      student_id: student.id,
      name: listName(student),
      subject: subject.code,
      class_id: formClass.id,
    })),
  };
}

/** A CSV field: quoted when it holds a comma, a quote or a line break. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * The import template, blank or as one class's mark sheet for one subject (the students' IDs,
 * names, subject and class filled in; the marks left to the teacher).
 */
export async function buildTemplate(db: Db, format: 'xlsx' | 'csv', request?: MarkSheetRequest): Promise<TemplateFile> {
  const subjects = await repo.listSubjects(db);
  const sheet = request ? await markSheetFor(db, request, subjects) : null;
  const columns = sheet
    ? [TERM_RESULT_COLUMNS[0], { key: 'name', header: NAME_HEADER }, ...TERM_RESULT_COLUMNS.slice(1)]
    : [...TERM_RESULT_COLUMNS];
  const baseName = sheet ? `Mark Sheet ${sheet.classId} ${sheet.subjectCode}` : 'Term Results Template';
  if (format === 'csv') {
    const lines = [columns.map((c) => csvField(c.header)).join(',')];
    for (const row of sheet?.rows ?? []) {
      lines.push(columns.map((c) => csvField(c.key in row ? row[c.key as keyof typeof row] : '')).join(','));
    }
    // The BOM makes Excel open the file as UTF-8 (names such as Zoë keep their letters).
    return {
      bytes: Buffer.from(`${UTF8_BOM}${lines.map((line) => `${line}\r\n`).join('')}`, 'utf8'),
      contentType: 'text/csv; charset=utf-8',
      fileName: `${baseName}.csv`,
    };
  }
  const [classes, gradeKey, weights] = await Promise.all([repo.listFormClasses(db), repo.listGradeKey(db), repo.listAssessmentWeights(db)]);
  const { Workbook } = await loadExcelJs();
  const workbook = new Workbook();
  workbook.creator = 'School Portal';
  const worksheet = workbook.addWorksheet(sheet ? `${sheet.classId} ${sheet.subjectCode}` : 'Term Results', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  worksheet.columns = columns.map((c) => ({
    header: c.header,
    key: c.key,
    width: c.key.endsWith('remarks') || c.key === 'comment' || c.key === 'name' ? 40 : c.key === 'subject' ? 22 : 14,
  }));
  worksheet.getRow(1).font = { bold: true };
  // Student IDs and classes are text, so Excel keeps leading zeros and never turns 4A into a date.
  worksheet.getColumn('student_id').numFmt = '@';
  worksheet.getColumn('class_id').numFmt = '@';
  for (const row of sheet?.rows ?? []) worksheet.addRow(row);

  const notes = workbook.addWorksheet('Instructions');
  notes.columns = [{ width: 24 }, { width: 80 }];
  notes.addRow(['Column', 'What to enter']).font = { bold: true };
  for (const c of TERM_RESULT_COLUMNS) notes.addRow([c.header, `${c.note}${c.required ? ' (required)' : ''}`]);
  notes.addRow([]);
  notes.addRow([
    'One row per student and subject. Marks are numbers typed in, not formulas. Choose the year and term on the upload screen.',
  ]);
  notes.addRow([]);
  notes.addRow(['Subject code', 'Subject']).font = { bold: true };
  for (const s of subjects) notes.addRow([s.code, s.name]);
  notes.addRow([]);
  notes.addRow(['Form class', 'Form level']).font = { bold: true };
  for (const c of classes) notes.addRow([c.id, `Form ${c.form_level}`]);
  notes.addRow([]);
  notes.addRow(['Form level', 'Weights (coursework / exam)']).font = {
    bold: true,
  };
  for (const w of weights)
    notes.addRow([`Form ${w.form_level}`, `${Math.round(w.coursework_weight * 100)}% / ${Math.round(w.exam_weight * 100)}%`]);
  notes.addRow([]);
  notes.addRow(['Grade', 'Lowest total']).font = { bold: true };
  for (const g of gradeKey) notes.addRow([g.grade, g.min_total]);

  const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
  return {
    bytes,
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    fileName: `${baseName}.xlsx`,
  };
}

/** Sends the template as a download. */
export function sendTemplate(reply: FastifyReply, file: TemplateFile) {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(file.bytes);
}
