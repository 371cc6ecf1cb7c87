import { setImmediate as nextTurn } from 'node:timers/promises';
import { AppError } from '../http/errors.js';
import { runInWorker, WorkerTaskFailed } from '../workers/worker-pool.js';
import { cellFromWire, normaliseHeading, type Cell, type HeadingRule, type SheetAnswer, type SheetRequest, type SheetRow } from './sheet-reader.js';

export { cellText, normaliseHeading, SHEET_LIMITS, type Cell, type HeadingRule, type SheetRequest, type SheetRow } from './sheet-reader.js';
export { decodeText, decodeWindows1252 } from './sheet-reader.js';

/**
 * Every spreadsheet import reads its upload here: the file is read on the worker pool by
 * sheet-reader.ts under the same limits for every import (D34), so a 60 MB sheet costs other
 * users nothing, and a file past a limit is refused with a message a clerk understands. The rows
 * come back with the heading row whole and only the columns the import knows.
 */

declare module '../workers/worker-pool.js' {
  interface WorkerTasks {
    /** Reads an uploaded spreadsheet on a thread (sheet-reader.ts `readSheet`). */
    'read-spreadsheet': { request: { bytes: Uint8Array; request: SheetRequest }; answer: SheetAnswer };
  }
}

const EMPTY: Cell = { kind: 'empty' };
/** Rows rebuilt per turn of the event loop: a 300,000-row file must not hold it either. */
const ROWS_PER_TURN = 5_000;

export interface Spreadsheet {
  /** The first row with a value: the headings, every column. */
  header: SheetRow | undefined;
  /** The rows below it with a value in a known column; other columns are empty. */
  rows: SheetRow[];
}

/** Reads an uploaded XLSX or CSV (see above); refusals are 4xx AppErrors. */
export async function readSpreadsheet(bytes: Buffer, request: SheetRequest): Promise<Spreadsheet> {
  let answer;
  try {
    answer = await runInWorker({ kind: 'read-spreadsheet', bytes, request });
  } catch (error) {
    if (!(error instanceof WorkerTaskFailed)) throw error;
    if (error.reason === 'crashed') throw new AppError(415, 'unsupported_media_type', 'This file could not be read as a spreadsheet.');
    // Out of memory or out of time: the file was too much to read, whatever its size on disk.
    throw new AppError(413, 'payload_too_large', 'The sheet is too large once unpacked. Split it into smaller files.');
  }
  if (!answer.ok) {
    const { status, message } = answer.refusal;
    throw new AppError(status, status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'bad_request', message);
  }
  const { header, columns, rowNumbers, kinds, values } = answer.sheet;
  const width = Math.max(header?.cells.length ?? 0, ...columns.map((column) => column + 1));
  const rows: SheetRow[] = [];
  for (let row = 0; row < rowNumbers.length; row++) {
    if (row > 0 && row % ROWS_PER_TURN === 0) await nextTurn();
    const cells: Cell[] = new Array<Cell>(width).fill(EMPTY);
    columns.forEach((column, index) => {
      const at = row * columns.length + index;
      cells[column] = cellFromWire(kinds[at]!, values[at] ?? null);
    });
    rows.push({ rowNumber: rowNumbers[row]!, cells });
  }
  return { header: header ?? undefined, rows };
}

/** The accepted headings of an import's columns, normalised by its rule (for SheetRequest.columns). */
export function headingsByColumn(columns: Record<string, readonly string[]>, rule: HeadingRule): Record<string, string[]> {
  return Object.fromEntries(Object.entries(columns).map(([key, names]) => [key, names.map((name) => normaliseHeading(name, rule))]));
}
