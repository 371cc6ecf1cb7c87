import { readCsv } from './csv-reader.js';
import { Refusal } from './sheet-limits.js';
import type { SheetAnswer, SheetRequest } from './sheet-rows.js';
import { readXlsx } from './xlsx-reader.js';

/**
 * The one reader of every spreadsheet import (students, term results, attendance): an XLSX (its
 * first visible sheet) or a CSV, read on a worker thread (spreadsheet-upload.ts sends it there)
 * under the same limits for every import (docs/decisions.md D34):
 *
 * - what the zip inflates to: at most MAX_INFLATED_BYTES for the parts read (workbook, styles,
 *   shared strings, the sheet), counted while inflating — yauzl stops an entry that inflates past
 *   the size its header declares, and the declared sizes must fit the budget before anything is
 *   inflated; parts that are never read (pictures, other sheets) are never inflated;
 * - rows: at most `maxRows` below the heading row, counted as the spreadsheet numbers them (a
 *   value in row 1,048,576 makes a sheet of a million rows however empty the rest is);
 * - columns: no value beyond column MAX_COLUMNS;
 * - cells: at most MAX_CELLS cells and shared strings read, known or not;
 * - time: at most MAX_READ_MS of reading.
 *
 * Only the columns the import knows (by their heading) are converted and handed back; the heading
 * row itself comes back whole, so an import can name the columns it ignores. The XML is read as a
 * stream (saxes): nothing is built per row or per column index, so a sheet whose cells sit at XFD1
 * and A1048576 costs two cells. Nothing in a file is evaluated: a formula is handed back as its
 * text (never its cached result), CSV is text. The XML parser expands no entities of its own.
 */

export { decodeText, decodeWindows1252 } from './csv-sniff.js';
export { SHEET_LIMITS, type SheetRefusal } from './sheet-limits.js';
export {
  cellFromWire,
  cellText,
  normaliseHeading,
  type Cell,
  type HeadingRule,
  type SheetAnswer,
  type SheetData,
  type SheetRequest,
  type SheetRow,
} from './sheet-rows.js';

/** Reads an XLSX or a CSV under the limits above; a refusal is answered, not thrown. */
export async function readSheet(bytes: Uint8Array, request: SheetRequest): Promise<SheetAnswer> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    if (buffer.length >= 4 && buffer.readUInt32LE(0) === 0x04034b50) return { ok: true, sheet: await readXlsx(buffer, request) };
    if (buffer.length >= 8 && buffer.readUInt32BE(0) === 0xd0cf11e0) {
      return { ok: false, refusal: { status: 415, message: 'Old Excel (.xls) files are not accepted. Save the file as .xlsx or .csv and upload it again.' } };
    }
    return { ok: true, sheet: readCsv(buffer, request) };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, refusal: error.refusal };
    throw error;
  }
}
