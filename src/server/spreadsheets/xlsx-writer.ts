import { PassThrough, type Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { loadExcelJs } from './exceljs.js';
import { excelDate, excelDateTime, inertText } from './spreadsheet-cells.js';

/**
 * The office's spreadsheets (Export Data, Parents Contact): exceljs's streaming
 * WorkbookWriter straight into the reply. Rows arrive page by page from the database and are
 * committed (written and forgotten) as they go, so neither the table nor the workbook is ever
 * held in memory, and nothing is written to disk (docs/performance.md, the export).
 */

export type ColumnKind = 'text' | 'number' | 'date' | 'datetime';

export interface SheetColumn<R> {
  header: string;
  kind: ColumnKind;
  /** Width in characters. */
  width?: number;
  value: (row: R) => string | number | null | undefined;
}

const DATE_FORMAT = 'yyyy-mm-dd';
const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm';
/** The media type of an .xlsx file. */
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A column's cell style: the number format of dates, none for the rest. */
function columnStyle(kind: ColumnKind): Partial<ExcelJS.Style> {
  if (kind === 'date') return { numFmt: DATE_FORMAT };
  if (kind === 'datetime') return { numFmt: DATE_TIME_FORMAT };
  return {};
}

/** One cell's value: dates as real dates, whole numbers as numbers, every text inert. */
function cellValue(kind: ColumnKind, raw: string | number | null | undefined): ExcelJS.CellValue {
  if (raw === null || raw === undefined || raw === '') return null;
  switch (kind) {
    case 'date':
      return excelDate(String(raw)) ?? inertText(String(raw));
    case 'datetime':
      return excelDateTime(String(raw)) ?? inertText(String(raw));
    case 'number':
      if (typeof raw === 'number') return raw;
      return /^\d{1,15}$/.test(raw) ? Number(raw) : inertText(raw);
    case 'text':
      return inertText(String(raw));
  }
}

/** Rows already in memory, as the one page the workbook writer asks for. */
export async function* onePage<R>(rows: readonly R[]): AsyncGenerator<readonly R[]> {
  yield rows;
}

/**
 * Writes one worksheet: a bold header row frozen in place, a filter over every column, then the
 * rows of each page as they come. Resolves with the number of data rows once the zip is finished.
 */
export async function writeWorkbook<R>(
  out: Writable,
  sheetName: string,
  columns: readonly SheetColumn<R>[],
  pages: AsyncIterable<readonly R[]>,
): Promise<number> {
  const { stream } = await loadExcelJs();
  const workbook = new stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = 'School Portal';
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }] });
  const styles = columns.map((column) => columnStyle(column.kind));
  sheet.columns = columns.map((column, i) => ({
    width: column.width ?? Math.min(40, Math.max(10, column.header.length + 2)),
    ...(column.kind === 'date' || column.kind === 'datetime' ? { style: styles[i] } : {}),
  }));
  const header = sheet.addRow(columns.map((column) => column.header));
  header.font = { bold: true };
  header.commit();

  let count = 0;
  for await (const page of pages) {
    for (const row of page) {
      const added = sheet.addRow(columns.map((column) => cellValue(column.kind, column.value(row))));
      shareColumnStyles(added, styles);
      added.commit();
      count++;
    }
    // A page is a few ms of CPU; the whole sheet in one go would hold the event loop for the
    // whole export. Yielding also lets the compressor take the page's XML before the next.
    await new Promise((resolve) => setImmediate(resolve));
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: count + 1, column: columns.length } };
  sheet.commit();
  await workbook.commit();
  return count;
}

/**
 * Gives every cell of a data row its column's one style object. exceljs copies the column's
 * style into a new object for each cell, and its style registry recognises only objects it has
 * seen: each new object is rendered to XML to be looked up, 30 % of the export's CPU and half of
 * what it allocates (docs/performance.md). A shared object is looked up once. The sheet is the
 * same: a cell's style id depends only on its number format, which is the column's.
 */
function shareColumnStyles(row: ExcelJS.Row, styles: readonly Partial<ExcelJS.Style>[]): void {
  for (let i = 0; i < styles.length; i++) row.getCell(i + 1).style = styles[i]!;
}

/**
 * Sends a workbook as the reply body while it is being written: the reply streams a PassThrough
 * the writer fills. A failure after the headers went out can only cut the download short (the
 * browser reports it failed); it is logged, and the partial file is never a valid workbook.
 */
export function sendWorkbook(
  reply: FastifyReply,
  fileName: string,
  write: (out: PassThrough) => Promise<unknown>,
): FastifyReply {
  const body = new PassThrough();
  write(body).catch((error: unknown) => {
    reply.log.error({ err: error }, 'spreadsheet export failed while streaming');
    body.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  const ascii = fileName.replace(/[^\w .()-]/g, '_');
  return reply
    .header('content-type', XLSX_MIME)
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(body);
}
