import type ExcelJS from 'exceljs';
import { ClockTimeSchema, IMPORT_COLUMNS, IsoDateSchema, type ImportResult, type ImportRowError } from '../../shared/attendance.schemas.js';
import { StudentIdSchema } from '../../shared/auth.schemas.js';
import { schoolToday } from '../../shared/dates.js';
import { writeAudit } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import { AppError, badRequest } from '../http/errors.js';
import type { Actor } from '../http/request-context.js';
// The one loader of exceljs (it loads with the first spreadsheet, not at start).
import { loadExcelJs } from '../term-reports/spreadsheet-file.js';
import { screenScans, storeScans, type IncomingScan } from './scans.service.js';

/**
 * The admin's import of a day's or a term's scans from CSV or XLSX (issue #6; DESIGN §6
 * "importable"): a header row naming the student (student_id or card_serial), date and time
 * columns, one scan a row. A dry run answers the preview; the import itself is all-or-nothing:
 * any bad row and nothing is stored (400 with every row's messages).
 */

/** Most rows one file may hold: a term of a 2,000-student school, scanned in and out. */
export const IMPORT_MAX_ROWS = 300_000;

export type ImportFormat = 'csv' | 'xlsx';

/** The format from the file name or type; null when it is neither CSV nor XLSX. */
export function importFormatOf(fileName: string, mimeType: string): ImportFormat | null {
  const name = fileName.toLowerCase();
  if (name.endsWith('.csv') || mimeType === 'text/csv') return 'csv';
  if (name.endsWith('.xlsx') || mimeType === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet') return 'xlsx';
  return null;
}

/** RFC 4180 CSV: quoted fields with "" escapes, commas or semicolons, CRLF or LF. */
export function parseCsv(text: string): string[][] {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstLine = source.slice(0, source.search(/\r?\n|$/));
  const separator = !firstLine.includes(',') && firstLine.includes(';') ? ';' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === separator) {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** A spreadsheet cell as text: dates and times as Excel stores them become yyyy-MM-dd / HH:mm:ss. */
function cellText(value: ExcelJS.CellValue, column: 'student' | 'date' | 'time'): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    // exceljs gives Excel's local date-times as UTC instants; read them back in UTC.
    if (column === 'time') return `${pad2(value.getUTCHours())}:${pad2(value.getUTCMinutes())}:${pad2(value.getUTCSeconds())}`;
    return value.toISOString().slice(0, 10);
  }
  if (typeof value === 'number') {
    if (column === 'time' && value >= 0 && value < 1) {
      const seconds = Math.round(value * 86_400);
      return `${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor((seconds % 3600) / 60))}:${pad2(seconds % 60)}`;
    }
    if (column === 'date' && value > 20_000 && value < 80_000) {
      // An Excel serial day number (1900 date system).
      return new Date(Date.UTC(1899, 11, 30) + Math.round(value) * 86_400_000).toISOString().slice(0, 10);
    }
    return String(value);
  }
  if (typeof value === 'object') {
    if ('result' in value && value.result !== undefined) return cellText(value.result as ExcelJS.CellValue, column);
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value) return String(value.text);
  }
  return String(value);
}

/** The rows of the file as text cells, the header first. */
export async function readImportRows(bytes: Buffer, format: ImportFormat): Promise<string[][]> {
  if (format === 'csv') return parseCsv(bytes.toString('utf8'));
  const { Workbook } = await loadExcelJs();
  const workbook = new Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw badRequest('The file is not a readable XLSX workbook.');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const header = sheet.getRow(1);
  const kinds: ('student' | 'date' | 'time' | null)[] = [];
  header.eachCell({ includeEmpty: true }, (cell, col) => {
    kinds[col] = columnKind(cellText(cell.value, 'student'));
  });
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
    const cells: string[] = [];
    for (let col = 1; col <= Math.max(row.cellCount, kinds.length - 1); col++) {
      const kind = rowNumber === 1 ? 'student' : (kinds[col] ?? 'student');
      cells.push(cellText(row.getCell(col).value, kind));
    }
    rows.push(cells);
  });
  return rows;
}

function columnKind(name: string): 'student' | 'date' | 'time' | null {
  const normal = name.trim().toLowerCase();
  for (const kind of ['student', 'date', 'time'] as const) {
    if ((IMPORT_COLUMNS[kind] as readonly string[]).includes(normal)) return kind;
  }
  return null;
}

/** Turns the rows into scans and row errors (row numbers as a spreadsheet shows them). */
export function rowsToScans(rows: readonly string[][]): { scans: IncomingScan[]; errors: ImportRowError[]; dataRows: number } {
  const header = rows[0];
  if (!header) throw badRequest('The file is empty: it needs a header row (student_id, date, time) and one scan a row.');
  const index = { student: -1, date: -1, time: -1 };
  header.forEach((name, i) => {
    const kind = columnKind(name);
    if (kind && index[kind] === -1) index[kind] = i;
  });
  const missing = (Object.keys(index) as (keyof typeof index)[]).filter((kind) => index[kind] === -1);
  if (missing.length > 0) {
    const names = missing.map((kind) => IMPORT_COLUMNS[kind][0]).join(', ');
    throw badRequest(`The header row needs these columns: ${names}.`, { file: [`Missing columns: ${names}.`] });
  }
  const scans: IncomingScan[] = [];
  const errors: ImportRowError[] = [];
  let dataRows = 0;
  rows.slice(1).forEach((cells, i) => {
    const row = i + 2;
    if (cells.every((cell) => cell.trim() === '')) return; // blank lines are not rows
    dataRows++;
    const student = StudentIdSchema.safeParse(cells[index.student] ?? '');
    const date = IsoDateSchema.safeParse(cells[index.date] ?? '');
    const time = ClockTimeSchema.safeParse(cells[index.time] ?? '');
    if (!student.success) errors.push({ row, field: 'student_id', message: student.error.issues[0]?.message ?? 'Invalid student ID.' });
    if (!date.success) errors.push({ row, field: 'date', message: date.error.issues[0]?.message ?? 'Invalid date.' });
    if (!time.success) errors.push({ row, field: 'time', message: time.error.issues[0]?.message ?? 'Invalid time.' });
    if (student.success && date.success && time.success) scans.push({ studentId: student.data, date: date.data, time: time.data, index: row });
  });
  if (dataRows > IMPORT_MAX_ROWS) throw new AppError(413, 'payload_too_large', `A file may hold at most ${IMPORT_MAX_ROWS} scans.`);
  if (dataRows === 0) throw badRequest('The file has a header row but no scans.');
  return { scans, errors, dataRows };
}

/**
 * Checks the file's scans; with `dryRun` false and no errors, stores them all in one transaction.
 * A real import with errors is refused with 400 and every row's messages, and stores nothing.
 */
export async function importScans(
  db: Db,
  bytes: Buffer,
  format: ImportFormat,
  options: { dryRun: boolean; actor: Actor; fileName: string },
): Promise<ImportResult> {
  const { scans, errors, dataRows } = rowsToScans(await readImportRows(bytes, format));
  const { accepted, rejected } = await screenScans(db, scans, schoolToday());
  for (const scan of rejected) errors.push({ row: scan.index, field: 'student_id', message: scan.reason });
  errors.sort((a, b) => a.row - b.row);
  const dates = accepted.map((scan) => scan.date).sort();
  const preview = {
    rows: dataRows,
    valid: accepted.length,
    errors,
    students: new Set(accepted.map((scan) => scan.studentId)).size,
    first_date: dates[0] ?? null,
    last_date: dates[dates.length - 1] ?? null,
  };
  if (options.dryRun) return { dry_run: true, ...preview, result: null };
  if (errors.length > 0) {
    const byRow: Record<string, string[]> = {};
    for (const error of errors) (byRow[`row ${error.row}`] ??= []).push(`${error.field}: ${error.message}`);
    throw badRequest(`${errors.length === 1 ? '1 problem' : `${errors.length} problems`} in the file; nothing was imported.`, byRow);
  }
  const result = await db.transaction().execute(async (trx) => {
    const stored = await storeScans(trx, accepted, 'import');
    await writeAudit(trx, {
      ...options.actor,
      action: 'import',
      entity: 'attendance_scans',
      entity_id: null,
      field: options.fileName.slice(0, 200),
      new_value: `${stored.stored} new scans, ${stored.duplicates} already stored, ${stored.records_updated} days recomputed`,
    });
    return stored;
  });
  return { dry_run: false, ...preview, result };
}
