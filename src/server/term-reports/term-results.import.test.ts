import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { weightedTotal, gradeFor } from '../../shared/term-reports.grading.js';
import {
  GradingSettingsSchema,
  ImportReportSchema,
  SubjectListSchema,
  TERM_RESULTS_MAX_ROWS,
  type ImportReport,
} from '../../shared/term-reports.schemas.js';

/**
 * The results import over HTTP: a good file in both
 * formats, a file with bad rows (nothing committed, every error reported), a huge file refused,
 * formulas and odd encodings in cells. Imports go into 2026 Term 1, which has no results yet.
 */

const YEAR = 2026;
const TERM = 1;

let t: TestApp;
let admin: TestClient;
/** Five students of today's class 2A (form 2: 40 % coursework, 60 % exam). */
let pupils: { id: string; first_name: string | null; last_name: string | null }[];

const HEADER = ['Student ID', 'Subject', 'Class', 'Coursework', 'Exam', 'Comment', 'Form Teacher Remarks', 'Principal Remarks'];

function multipart(fileName: string, bytes: Buffer, contentType = 'application/octet-stream') {
  const boundary = `----portal${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function upload(
  bytes: Buffer,
  options: { dryRun?: boolean; fileName?: string; client?: TestClient; year?: number | string; term?: number | string } = {},
) {
  const { body, headers } = multipart(options.fileName ?? 'results.csv', bytes);
  const query = `year=${options.year ?? YEAR}&term=${options.term ?? TERM}&dryRun=${options.dryRun === false ? 0 : 1}`;
  return (options.client ?? admin).request('POST', `/api/term-results/import?${query}`, { body, headers });
}

function report(response: { statusCode: number; body: string; json(): unknown }): ImportReport {
  expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
  return ImportReportSchema.parse(response.json());
}

function expectError(response: { statusCode: number; body: string; json(): unknown }, status: number, code?: string) {
  expect(response.statusCode, response.body.slice(0, 300)).toBe(status);
  const body = ApiErrorSchema.parse(response.json());
  if (code) expect(body.code).toBe(code);
  return body;
}

const csv = (rows: readonly (readonly (string | number)[])[]) =>
  rows
    .map((row) => row.map((cell) => (/[",;\n]/.test(String(cell)) ? `"${String(cell).replaceAll('"', '""')}"` : String(cell))).join(','))
    .join('\r\n');

async function xlsx(rows: readonly (readonly ExcelJS.CellValue[])[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Term Results');
  for (const row of rows) sheet.addRow([...row]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const countResults = async () =>
  Number(
    (
      await t.database.db
        .selectFrom('term_results')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('year', '=', YEAR)
        .where('term', '=', TERM)
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  t = await createTestApp();
  admin = await new TestClient(t.app, '10.6.0.1').signInAdmin();
  pupils = await t.database.db
    .selectFrom('students')
    .select(['id', 'first_name', 'last_name'])
    .where('class_id', '=', '2A')
    .orderBy('id')
    .limit(5)
    .execute();
  expect(pupils).toHaveLength(5);
});
afterAll(async () => {
  await t?.close();
});

describe('access and the template', () => {
  it('is for administrators only', async () => {
    const bytes = Buffer.from(csv([HEADER]));
    expectError(await upload(bytes, { client: new TestClient(t.app, '10.6.0.2') }), 401);
    const student = await new TestClient(t.app, '10.6.0.3').signInStudent('20220001', 'portal-demo-2026');
    expectError(await upload(bytes, { client: student }), 403, 'forbidden');
    expectError(await student.get('/api/term-results/template'), 403);
    expectError(await student.get('/api/term-results/grading'), 403);
  });

  it('serves an XLSX template with the header row and the school’s subjects, and a CSV one', async () => {
    const response = await admin.get('/api/term-results/template');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('Term Results Template.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]!.getRow(1).values).toEqual([undefined, ...HEADER]);
    expect(workbook.worksheets[0]!.rowCount).toBe(1);
    const notes: string[] = [];
    workbook.worksheets[1]!.eachRow((row) => notes.push(row.getCell(1).text));
    expect(notes).toContain('MATH');
    expect(notes).toContain('5D');

    const csvTemplate = await admin.get('/api/term-results/template?format=csv');
    expect(csvTemplate.headers['content-type']).toContain('text/csv');
    expect(csvTemplate.body).toBe(`\uFEFF${HEADER.join(',')}\r\n`);
    expectError(await admin.get('/api/term-results/template?format=pdf'), 400);
  });

  it('answers the grading settings the import uses', async () => {
    const settings = GradingSettingsSchema.parse((await admin.get('/api/term-results/grading')).json());
    expect(settings.grade_key.map((g) => g.grade)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(settings.weights.find((w) => w.form_level === 2)).toMatchObject({ coursework_weight: 0.4, exam_weight: 0.6 });
  });
});

describe('a class’s mark sheet for one subject', () => {
  const classStudents = () =>
    t.database.db
      .selectFrom('students')
      .select(['id', 'first_name', 'last_name'])
      .where('class_id', '=', '2A')
      .orderBy('last_name')
      .orderBy('first_name')
      .orderBy('id')
      .execute();

  it('lists every student of the class with ID, name, subject and class, marks left blank', async () => {
    const students = await classStudents();
    expect(students.length).toBeGreaterThan(5);
    const response = await admin.get('/api/term-results/template?class_id=2A&subject=math');
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-disposition']).toContain('Mark Sheet 2A MATH.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Student ID', 'Name', ...HEADER.slice(1)]);
    const rows: string[][] = [];
    sheet.eachRow((row, number) => {
      if (number > 1) rows.push([1, 2, 3, 4, 5, 6].map((column) => row.getCell(column).text));
    });
    expect(rows).toEqual(students.map((s) => [s.id, `${s.last_name}, ${s.first_name}`, 'MATH', '2A', '', '']));

    const csvSheet = await admin.get('/api/term-results/template?format=csv&class_id=2A&subject=MATH');
    expect(csvSheet.headers['content-disposition']).toContain('Mark Sheet 2A MATH.csv');
    const lines = csvSheet.body.replace('\uFEFF', '').trimEnd().split('\r\n');
    expect(lines).toHaveLength(students.length + 1);
    expect(lines[1]).toBe(`${students[0]!.id},"${students[0]!.last_name}, ${students[0]!.first_name}",MATH,2A,,,,,`);
  });

  it('goes back in as it came out once the marks are typed, the name column unread', async () => {
    const response = await admin.get('/api/term-results/template?class_id=2A&subject=MATH');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    sheet.eachRow((row, number) => {
      if (number === 1) return;
      row.getCell(5).value = 40;
      row.getCell(6).value = 50;
      // A teacher's typo in a name changes nothing: the import takes names from the records.
      row.getCell(2).value = 'Someone Else';
    });
    const filled = Buffer.from(await workbook.xlsx.writeBuffer());
    const preview = report(await upload(filled, { fileName: 'Mark Sheet 2A MATH.xlsx' }));
    expect(preview.error_count).toBe(0);
    expect(preview.rows).toHaveLength(sheet.rowCount - 1);
    expect(preview.rows.every((row) => row.class_id === '2A' && row.student_name !== 'Someone Else')).toBe(true);
    expect(await countResults()).toBe(0);
  });

  it('refuses a class or subject alone, or one the school does not have, by name', async () => {
    expect(expectError(await admin.get('/api/term-results/template?class_id=2A'), 400).errors).toHaveProperty('subject');
    expect(expectError(await admin.get('/api/term-results/template?subject=MATH'), 400).errors).toHaveProperty('class_id');
    const unknown = expectError(await admin.get('/api/term-results/template?class_id=9Z&subject=NOPE'), 400);
    expect(unknown.errors).toEqual({ class_id: ['There is no form class 9Z.'], subject: ['There is no subject with the code NOPE.'] });
    expect(expectError(await admin.get('/api/term-results/template?class_id=2A%27--&subject=MATH'), 400).errors).toHaveProperty('class_id');
  });

  it('answers the subjects for the screen, to administrators only', async () => {
    const subjects = SubjectListSchema.parse((await admin.get('/api/term-results/subjects')).json());
    expect(subjects).toContainEqual({ code: 'MATH', name: 'Mathematics' });
    const student = await new TestClient(t.app, '10.6.0.4').signInStudent('20220001', 'portal-demo-2026');
    expectError(await student.get('/api/term-results/subjects'), 403);
  });
});

describe('a good file', () => {
  it('CSV: the dry run previews totals and grades and writes nothing; the commit writes all of it', async () => {
    const [a, b, c] = pupils;
    const rows = [
      HEADER,
      [a!.id, 'MATH', '', 80, 70, 'Strong algebra.', 'A diligent term.', 'Well done.'],
      [a!.id, 'English Language', '', 90, 85, 'Reads widely.', '', ''],
      [b!.id, 'math', '', 50, 40, 'Needs practice', 'Must focus', 'See me'],
      [b!.id, 'ENGL', '', 60, 62.5, '', '', ''],
      [c!.id, 'MATH', '', 100, 100, '', '', ''],
    ];
    const bytes = Buffer.from(csv(rows));
    const preview = report(await upload(bytes));
    expect(preview).toMatchObject({ dry_run: true, committed: false, error_count: 0, file_errors: [] });
    expect(preview.summary).toEqual({ rows: 5, students: 3, subjects: 2, classes: 1 });
    expect(preview.rows[0]).toMatchObject({
      row: 2,
      student_id: a!.id,
      subject: 'Mathematics',
      class_id: '2A',
      total: 74,
      grade: 'B',
      errors: [],
    });
    expect(preview.rows[0]!.student_name).toBe(`${a!.last_name}, ${a!.first_name}`);
    expect(preview.rows[3]).toMatchObject({ total: 61.5, grade: 'C' });
    expect(await countResults()).toBe(0);

    const committed = report(await upload(bytes, { dryRun: false }));
    expect(committed.committed).toBe(true);
    expect(await countResults()).toBe(5);

    const db = t.database.db;
    const mathA = await db
      .selectFrom('term_results')
      .innerJoin('subjects', 'subjects.id', 'term_results.subject_id')
      .select(['coursework', 'exam', 'total', 'grade', 'comment'])
      .where('student_id', '=', a!.id)
      .where('year', '=', YEAR)
      .where('term', '=', TERM)
      .where('subjects.code', '=', 'MATH')
      .executeTakeFirstOrThrow();
    expect(mathA).toEqual({ coursework: 80, exam: 70, total: 74, grade: 'B', comment: 'Strong algebra.' });
    const summaries = await db
      .selectFrom('term_summaries')
      .select(['student_id', 'class_id', 'average', 'position', 'class_size', 'form_teacher_remarks', 'principal_remarks'])
      .where('year', '=', YEAR)
      .where('term', '=', TERM)
      .orderBy('position')
      .execute();
    expect(summaries).toEqual([
      { student_id: c!.id, class_id: '2A', average: 100, position: 1, class_size: 3, form_teacher_remarks: null, principal_remarks: null },
      {
        student_id: a!.id,
        class_id: '2A',
        average: 80.5,
        position: 2,
        class_size: 3,
        form_teacher_remarks: 'A diligent term.',
        principal_remarks: 'Well done.',
      },
      {
        student_id: b!.id,
        class_id: '2A',
        average: 52.8,
        position: 3,
        class_size: 3,
        form_teacher_remarks: 'Must focus',
        principal_remarks: 'See me',
      },
    ]);
    const term = await db
      .selectFrom('term_reports')
      .selectAll()
      .where('year', '=', YEAR)
      .where('term', '=', TERM)
      .executeTakeFirstOrThrow();
    expect(term.posted).toBe(0);
    const audit = await db.selectFrom('audit_log').selectAll().where('action', '=', 'term-results-imported').execute();
    expect(audit.map((r) => [r.actor_label, r.entity_id])).toEqual([['admin:admin', `${YEAR}-${TERM}`]]);
  });

  it('XLSX with IDs typed as numbers: a subject teacher’s file adds a subject, keeps the remarks and re-ranks the class', async () => {
    const [a, b, c, d] = pupils;
    const bytes = await xlsx([
      HEADER,
      [Number(a!.id), 'Spanish', null, 95, 95, '¡Excelente!'],
      [Number(b!.id), 'Spanish', null, 99, 99, null],
      [Number(c!.id), 'Spanish', null, 0, 0, null],
      [Number(d!.id), 'Spanish', '2A', 71, 64, 'Bien'],
    ]);
    const committed = report(await upload(bytes, { dryRun: false, fileName: 'spanish.xlsx' }));
    expect(committed).toMatchObject({ committed: true, error_count: 0 });
    expect(committed.rows[3]).toMatchObject({
      total: weightedTotal(71, 64, { coursework_weight: 0.4, exam_weight: 0.6 }),
      grade: gradeFor(66.8, [{ grade: 'B', min_total: 65 }]),
    });
    const summaries = await t.database.db
      .selectFrom('term_summaries')
      .select(['student_id', 'average', 'position', 'class_size', 'form_teacher_remarks'])
      .where('year', '=', YEAR)
      .where('term', '=', TERM)
      .orderBy('position')
      .execute();
    // a: (74 + 87 + 95) / 3; b: (44 + 61.5 + 99) / 3; d: Spanish only; c: (100 + 0) / 2.
    expect(summaries.map((s) => [s.student_id, s.average, s.position, s.class_size])).toEqual([
      [a!.id, 85.3, 1, 4],
      [b!.id, 68.2, 2, 4],
      [d!.id, 66.8, 3, 4],
      [c!.id, 50, 4, 4],
    ]);
    // Remarks given in the first file stay: the Spanish teacher's file had none.
    expect(summaries.find((s) => s.student_id === a!.id)!.form_teacher_remarks).toBe('A diligent term.');
  });
});

describe('a file with bad rows', () => {
  it('reports every error on its row, and a commit writes nothing at all', async () => {
    const [a, b] = pupils;
    const rows = [
      HEADER,
      [a!.id, 'Geography', '', 55, 60, 'fine', 'A diligent term.', ''], // good row: must not be written either
      ['99999999', 'MATH', '', 50, 50, '', '', ''],
      [a!.id, 'Astrology', '', 50, 50, '', '', ''],
      [b!.id, 'INFT', '', 101, -3, '', '', ''],
      [b!.id, 'PHED', '', '', 'abc', '', '', ''],
      [a!.id, 'Geography', '', 70, 70, '', '', ''],
      [b!.id, 'VART', '9Z', 50, 50, '', '', ''],
      [a!.id, 'VART', '', 50, 50, 'x'.repeat(201), 'Different remarks', ''],
      ['', '', '', 50, 50, '', '', ''],
    ];
    const before = await countResults();
    const preview = report(await upload(Buffer.from(csv(rows))));
    expect(preview.error_count).toBe(8);
    const errorsOf = (row: number) => preview.rows.find((r) => r.row === row)!.errors.join(' | ');
    expect(errorsOf(2)).toBe('');
    expect(errorsOf(3)).toMatch(/No student has the ID 99999999/);
    expect(errorsOf(4)).toMatch(/No subject is called “Astrology”/);
    expect(errorsOf(5)).toMatch(/Coursework must be from 0 to 100.*Exam “-3” is not a mark/);
    expect(errorsOf(6)).toMatch(/Coursework is required.*Exam “abc” is not a number/);
    expect(errorsOf(7)).toMatch(/Row 2 already has Geography/);
    expect(errorsOf(8)).toMatch(/No form class is called 9Z/);
    expect(errorsOf(9)).toMatch(/Comment is longer than 200.*form teacher remarks differ/);
    expect(errorsOf(10)).toMatch(/Student ID is required.*Subject is required/);

    const refused = expectError(await upload(Buffer.from(csv(rows)), { dryRun: false }), 400, 'validation_failed');
    expect(refused.message).toMatch(/8 rows have errors; nothing was imported/);
    expect(Object.keys(refused.errors!)).toEqual(['row 3', 'row 4', 'row 5', 'row 6', 'row 7', 'row 8', 'row 9', 'row 10']);
    expect(await countResults()).toBe(before);
    const geography = await t.database.db
      .selectFrom('term_results')
      .innerJoin('subjects', 'subjects.id', 'term_results.subject_id')
      .select('term_results.id')
      .where('subjects.code', '=', 'GEOG')
      .where('year', '=', YEAR)
      .where('term', '=', TERM)
      .execute();
    expect(geography).toEqual([]);
  });

  it('names missing columns instead of checking rows', async () => {
    const preview = report(
      await upload(
        Buffer.from(
          csv([
            ['Student', 'Mark'],
            ['20220001', 50],
          ]),
        ),
      ),
    );
    expect(preview.rows).toEqual([]);
    expect(preview.file_errors.join(' ')).toMatch(/missing: “Subject”, “Coursework”, “Exam”/);
    expectError(await upload(Buffer.from(csv([['Student', 'Mark']])), { dryRun: false }), 400, 'validation_failed');
    expect(report(await upload(Buffer.from(csv([HEADER])))).file_errors).toEqual(['The file has a header row but no results under it.']);
  });

  it('refuses what is not a results upload: no file, not multipart, a bad year or term, not a spreadsheet', async () => {
    expectError(await upload(Buffer.alloc(0)), 400);
    expectError(await admin.post(`/api/term-results/import?year=${YEAR}&term=${TERM}`, { rows: [] }), 415);
    expectError(await upload(Buffer.from(csv([HEADER])), { year: 1850 }), 400, 'validation_failed');
    expectError(await upload(Buffer.from(csv([HEADER])), { term: 5 }), 400, 'validation_failed');
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001',
      'hex',
    );
    expectError(await upload(png, { fileName: 'photo.png' }), 415, 'unsupported_media_type');
    const xls = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(512)]);
    expect(expectError(await upload(xls, { fileName: 'old.xls' }), 415).message).toMatch(/Save the file as .xlsx or .csv/);
    expectError(await upload(Buffer.from('PK\u0003\u0004 not really a zip'), { fileName: 'broken.xlsx' }), 415);
  });
});

describe('a huge file', () => {
  it('is refused with 413 when larger than 5 MiB, before any row is read', async () => {
    const big = Buffer.concat([Buffer.from(`${HEADER.join(',')}\r\n`), Buffer.alloc(5 * 1024 * 1024 + 10, 'x')]);
    const error = expectError(await upload(big), 413, 'payload_too_large');
    expect(error.message).toMatch(/larger than 5 MiB/);
  });

  it('is refused with 413 when it has more than 20,000 rows', async () => {
    const line = `${pupils[0]!.id},MATH,,50,50\r\n`;
    const bytes = Buffer.from(`${HEADER.join(',')}\r\n${line.repeat(TERM_RESULTS_MAX_ROWS + 1)}`);
    expect(bytes.length).toBeLessThan(5 * 1024 * 1024);
    expect(expectError(await upload(bytes), 413, 'payload_too_large').message).toMatch(/more than 20,000 rows/);
  });

  it('refuses an XLSX that inflates far beyond its size (a zip bomb)', async () => {
    // One entry of 80 MiB of zeros: about 80 KiB compressed.
    const data = deflateRawSync(Buffer.alloc(80 * 1024 * 1024));
    const name = Buffer.from('xl/worksheets/sheet1.xml');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(100, 22); // a lie: the declared size is not trusted
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(100, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(0, 42);
    const centralOffset = local.length + name.length + data.length;
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(central.length + name.length, 12);
    end.writeUInt32LE(centralOffset, 16);
    const bomb = Buffer.concat([local, name, data, central, name, end]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(expectError(await upload(bomb, { fileName: 'bomb.xlsx' }), 413, 'payload_too_large').message).toMatch(/too large once opened/);
  });
});

describe('formulas and odd encodings in cells', () => {
  it('never evaluates a formula: XLSX formula cells and formula-like CSV text are refused where a mark is expected', async () => {
    const [a] = pupils;
    const book = await xlsx([
      HEADER,
      [a!.id, 'POB', null, { formula: 'SUM(40,50)', result: 90 }, 60, null],
      [a!.id, 'GEOG', null, 60, 60, { formula: 'HYPERLINK("http://evil.example","click")', result: 'click' }],
    ]);
    const fromXlsx = report(await upload(book, { fileName: 'formulas.xlsx' }));
    expect(fromXlsx.rows[0]!.errors.join(' ')).toMatch(/Coursework is a formula \(=SUM\(40,50\)\); enter the mark itself/);
    expect(fromXlsx.rows[1]!.errors.join(' ')).toMatch(/Comment is a formula/);

    const text = csv([
      HEADER,
      [a!.id, 'POB', '', '=1+1', '+50', ''],
      [a!.id, 'GEOG', '', '@SUM(1)', '-0', ''],
      [a!.id, 'ELIT', '', 70, 70, "=cmd|' /C calc'!A0"],
    ]);
    const fromCsv = report(await upload(Buffer.from(text)));
    expect(fromCsv.rows[0]!.errors.join(' ')).toMatch(/Coursework “=1\+1” is not a mark.*Exam “\+50” is not a mark/);
    expect(fromCsv.rows[1]!.errors.join(' ')).toMatch(/Coursework “@SUM\(1\)” is not a mark.*Exam “-0” is not a mark/);
    // A comment is only ever text: kept as written, shown as text, never run.
    expect(fromCsv.rows[2]).toMatchObject({ errors: [], comment: "=cmd|' /C calc'!A0" });
  });

  it('reads UTF-8 with a BOM, Windows-1252, UTF-16 with tabs and semicolon-separated files alike', async () => {
    const [, , , , e] = pupils;
    const comment = 'Très bien – “excellent” travail, Zoë';
    const rows = [HEADER, [e!.id, 'Mathematics', '', 88, 91, comment, '', '']];
    const cp1252: Record<string, number> = { '–': 0x96, '“': 0x93, '”': 0x94 };
    const encode1252 = (s: string) => Buffer.from([...s].map((ch) => cp1252[ch] ?? ch.charCodeAt(0)));
    const variants: [string, Buffer][] = [
      ['utf-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csv(rows))])],
      ['windows-1252', encode1252(csv(rows))],
      [
        'utf-16le tab-separated',
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(rows.map((r) => r.join('\t')).join('\r\n'), 'utf16le')]),
      ],
      ['semicolons', Buffer.from(rows.map((r) => r.map((c) => (String(c).includes(',') ? `"${c}"` : c)).join(';')).join('\n'))],
    ];
    for (const [label, bytes] of variants) {
      const preview = report(await upload(bytes));
      expect(preview.rows, label).toHaveLength(1);
      expect(preview.rows[0], label).toMatchObject({ student_id: e!.id, subject: 'Mathematics', comment, errors: [] });
    }
  });

  it('keeps quoted separators, doubled quotes and line breaks inside a CSV cell', async () => {
    const [, , , , e] = pupils;
    const text = `${HEADER.join(',')}\r\n${e!.id},ENGL,,70,70,"Good work, ""really""\nkeep going",,\r\n`;
    const preview = report(await upload(Buffer.from(text)));
    expect(preview.rows[0]).toMatchObject({ comment: 'Good work, "really" keep going', errors: [] });
  });
});
