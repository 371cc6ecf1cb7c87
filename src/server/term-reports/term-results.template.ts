import type { FastifyReply } from 'fastify';
import type { Db } from '../db/database.js';
import { TERM_RESULT_COLUMNS } from '../../shared/term-reports.schemas.js';
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

export async function buildTemplate(db: Db, format: 'xlsx' | 'csv'): Promise<TemplateFile> {
  const headers = TERM_RESULT_COLUMNS.map((c) => c.header);
  if (format === 'csv') {
    // The BOM makes Excel open the file as UTF-8 (names such as Zoë keep their letters).
    return {
      bytes: Buffer.from(`${UTF8_BOM}${headers.join(',')}\r\n`, 'utf8'),
      contentType: 'text/csv; charset=utf-8',
      fileName: 'Term Results Template.csv',
    };
  }
  const [subjects, classes, gradeKey, weights] = await Promise.all([
    repo.listSubjects(db),
    repo.listFormClasses(db),
    repo.listGradeKey(db),
    repo.listAssessmentWeights(db),
  ]);
  const { Workbook } = await loadExcelJs();
  const workbook = new Workbook();
  workbook.creator = 'School Portal';
  const sheet = workbook.addWorksheet('Term Results', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = TERM_RESULT_COLUMNS.map((c) => ({
    header: c.header,
    key: c.key,
    width: c.key.endsWith('remarks') || c.key === 'comment' ? 40 : c.key === 'subject' ? 22 : 14,
  }));
  sheet.getRow(1).font = { bold: true };
  // Student IDs and classes are text, so Excel keeps leading zeros and never turns 4A into a date.
  sheet.getColumn('student_id').numFmt = '@';
  sheet.getColumn('class_id').numFmt = '@';

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
    fileName: 'Term Results Template.xlsx',
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
