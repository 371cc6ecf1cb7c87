import { ClockTimeSchema, IMPORT_COLUMNS, IsoDateSchema, type ImportResult, type ImportRowError } from '../../shared/attendance.schemas.js';
import { StudentIdSchema } from '../../shared/auth.schemas.js';
import { schoolToday } from '../../shared/dates.js';
import { writeAudit } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import { AppError, badRequest } from '../http/errors.js';
import type { Actor } from '../http/request-context.js';
import { headingsByColumn, normaliseHeading, readSpreadsheet, type Cell, type SheetRequest } from '../spreadsheets/spreadsheet-upload.js';
import { screenScans, storeScans, type IncomingScan } from './scans.service.js';

/**
 * The admin's import of a day's or a term's scans from CSV or XLSX (docs/requirements.md R10, D15):
 * a header row naming the student (student_id or card_serial), date and time columns, one scan a
 * row. A dry run answers the preview; the import itself is all-or-nothing:
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

const pad2 = (n: number) => String(n).padStart(2, '0');

type ColumnKind = 'student' | 'date' | 'time';

/** A cell as text: dates and times as Excel stores them become yyyy-MM-dd / HH:mm:ss. */
function cellText(cell: Cell | undefined, column: ColumnKind): string {
  if (!cell) return '';
  switch (cell.kind) {
    case 'empty':
      return '';
    case 'text':
      return cell.value;
    case 'formula':
      return cell.text;
    case 'date':
      return column === 'time' ? cell.time : cell.date;
    case 'number': {
      const value = cell.value;
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
  }
}

/** The columns the reader keeps: the student, date and time headings (IMPORT_COLUMNS). */
const SCANS_SHEET: SheetRequest = {
  headingRule: 'letters-and-digits',
  maxRows: IMPORT_MAX_ROWS,
  columns: headingsByColumn(IMPORT_COLUMNS, 'letters-and-digits'),
};

function columnKind(name: string): ColumnKind | null {
  const normal = normaliseHeading(name, 'letters-and-digits');
  for (const kind of ['student', 'date', 'time'] as const) {
    if (SCANS_SHEET.columns[kind]!.includes(normal)) return kind;
  }
  return null;
}

/** An import's rows as text: the headings, and each row with its number as the spreadsheet shows it. */
export interface ImportRows {
  header: string[];
  rows: Array<{ row: number; cells: string[] }>;
}

/** Reads the file (the one spreadsheet reader, off the event loop) into text cells by column kind. */
export async function readImportRows(bytes: Buffer): Promise<ImportRows> {
  const { header, rows } = await readSpreadsheet(bytes, SCANS_SHEET);
  const headings = (header?.cells ?? []).map((cell) => cellText(cell, 'student').trim());
  const kinds = headings.map(columnKind);
  return {
    header: headings,
    rows: rows.map((row) => ({ row: row.rowNumber, cells: row.cells.map((cell, column) => cellText(cell, kinds[column] ?? 'student')) })),
  };
}

/** Turns the rows into scans and row errors (row numbers as a spreadsheet shows them). */
export function rowsToScans({ header, rows }: ImportRows): { scans: IncomingScan[]; errors: ImportRowError[]; dataRows: number } {
  if (header.length === 0) throw badRequest('The file is empty: it needs a header row (student_id, date, time) and one scan a row.');
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
  rows.forEach(({ row, cells }) => {
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
  // The reader tells XLSX from CSV by the bytes; a file named .xlsx must be one.
  if (format === 'xlsx' && !(bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50)) throw badRequest('The file is not a readable XLSX workbook.');
  const { scans, errors, dataRows } = rowsToScans(await readImportRows(bytes));
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
