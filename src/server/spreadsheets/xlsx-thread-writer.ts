import { Writable } from 'node:stream';
import type { MessagePort } from 'node:worker_threads';
import type ExcelJS from 'exceljs';
import { loadExcelJs } from './exceljs.js';
import { excelDate, excelDateTime, inertText } from './spreadsheet-cells.js';
import type { ColumnKind, RawCell, SheetLayout, ToThread, FromThread } from './xlsx-writer.js';

/**
 * The pool thread's half of an office spreadsheet (xlsx-writer.ts has the other): exceljs's
 * streaming WorkbookWriter, fed rows through a MessagePort a page at a time and sending the zip's
 * bytes back as they are written. exceljs and the workbook's memory live on the thread, which
 * ends when idle, so a server that exported once does not keep them (docs/performance.md).
 */

const DATE_FORMAT = 'yyyy-mm-dd';
const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm';

/** A column's cell style: the number format of dates, none for the rest. */
function columnStyle(kind: ColumnKind): Partial<ExcelJS.Style> {
  if (kind === 'date') return { numFmt: DATE_FORMAT };
  if (kind === 'datetime') return { numFmt: DATE_TIME_FORMAT };
  return {};
}

/** One cell's value: dates as real dates, whole numbers as numbers, every text inert. */
function cellValue(kind: ColumnKind, raw: RawCell): ExcelJS.CellValue {
  if (raw === null || raw === '') return null;
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

/** The rows the main thread sends, a page at a time: each page is asked for when the last is written. */
async function* pagesFrom(port: MessagePort): AsyncGenerator<RawCell[][]> {
  for (;;) {
    const next = new Promise<ToThread>((resolve) => port.once('message', resolve));
    port.postMessage({ type: 'next' } satisfies FromThread);
    const message = await next;
    if (message.type === 'end') return;
    yield message.rows;
  }
}

/**
 * Writes one worksheet: a bold header row frozen in place, a filter over every column, then the
 * rows as they come. Answers the number of data rows once the zip is written and sent.
 */
export async function writeSheetFromPort(port: MessagePort, layout: SheetLayout): Promise<number> {
  try {
    const { stream } = await loadExcelJs();
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        const bytes = new Uint8Array(chunk);
        port.postMessage({ type: 'bytes', bytes } satisfies FromThread, [bytes.buffer]);
        done();
      },
    });
    const workbook = new stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    workbook.creator = 'School Portal';
    const sheet = workbook.addWorksheet(layout.name, { views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }] });
    const kinds = layout.columns.map((column) => column.kind);
    const styles = kinds.map(columnStyle);
    sheet.columns = layout.columns.map((column, i) => ({
      width: column.width ?? Math.min(40, Math.max(10, column.header.length + 2)),
      ...(column.kind === 'date' || column.kind === 'datetime' ? { style: styles[i] } : {}),
    }));
    const header = sheet.addRow(layout.columns.map((column) => column.header));
    header.font = { bold: true };
    header.commit();

    let count = 0;
    for await (const rows of pagesFrom(port)) {
      for (const raw of rows) {
        const added = sheet.addRow(kinds.map((kind, i) => cellValue(kind, raw[i] ?? null)));
        shareColumnStyles(added, styles);
        added.commit();
        count++;
      }
    }
    sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: count + 1, column: layout.columns.length } };
    sheet.commit();
    await workbook.commit();
    port.postMessage({ type: 'done', rows: count } satisfies FromThread);
    return count;
  } finally {
    port.close();
  }
}
