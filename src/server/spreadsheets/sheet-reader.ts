import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import yauzl from 'yauzl';

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

export type Cell =
  | { kind: 'empty' }
  | { kind: 'number'; value: number }
  | { kind: 'text'; value: string }
  /** An XLSX formula; `text` is the formula as written, for the error message. */
  | { kind: 'formula'; text: string }
  /** An XLSX number shown as a date or time: the day and the time of day it stands for. */
  | { kind: 'date'; date: string; time: string };

export interface SheetRow {
  /** 1-based, as the spreadsheet numbers it (the heading row is usually row 1). */
  rowNumber: number;
  cells: Cell[];
}

/** How an import's headings are compared: lower case, and only letters (and digits, when they matter). */
export type HeadingRule = 'letters' | 'letters-and-digits';

export function normaliseHeading(text: string, rule: HeadingRule): string {
  return text.toLowerCase().replace(rule === 'letters' ? /[^a-z]/g : /[^a-z0-9]/g, '');
}

/** What an import asks of the reader. */
export interface SheetRequest {
  /** Each column the import knows: its key and its accepted headings, normalised by `headingRule`. */
  columns: Record<string, readonly string[]>;
  headingRule: HeadingRule;
  /** Rows below the heading row. */
  maxRows: number;
}

export const SHEET_LIMITS = {
  maxInflatedBytes: 64 * 1024 * 1024,
  /** Column IV, the width of a sheet in Excel before 2007. */
  maxColumns: 256,
  maxCells: 2_000_000,
  maxReadMs: 20_000,
} as const;

/** A refusal a clerk understands (status and message), sent back instead of thrown. */
export interface SheetRefusal {
  status: 400 | 413 | 415;
  message: string;
}

/**
 * The rows as they cross back from the thread: flat arrays of plain values (a row of objects per
 * spreadsheet row costs the main thread a second to receive at 300,000 rows; these cost 70 ms).
 */
export interface SheetData {
  header: SheetRow | null;
  /** Indices of the columns the import knows, in order. */
  columns: number[];
  rowNumbers: number[];
  /** Per row and known column (row-major): 0 empty, 1 number, 2 text, 3 formula, 4 date. */
  kinds: Uint8Array;
  /** Per row and known column: the number, the text, the formula, or the date as 'yyyy-MM-ddTHH:mm:ss'. */
  values: Array<string | number | null>;
}

export type SheetAnswer = { ok: true; sheet: SheetData } | { ok: false; refusal: SheetRefusal };

const CELL_KIND = { empty: 0, number: 1, text: 2, formula: 3, date: 4 } as const;

class Refusal extends Error {
  constructor(readonly refusal: SheetRefusal) {
    super(refusal.message);
  }
}

const unreadable = () => new Refusal({ status: 415, message: 'This file is not a readable .xlsx workbook.' });
const tooLargeWhenOpened = () =>
  new Refusal({ status: 413, message: 'The workbook is too large once opened. Remove unused sheets or split it into smaller files.' });
const tooManyRows = (maxRows: number) =>
  new Refusal({ status: 413, message: `The file has more than ${maxRows.toLocaleString('en-US')} rows. Split it into smaller files.` });
const tooManyColumns = () =>
  new Refusal({
    status: 413,
    message: `The sheet has values beyond column IV (the ${SHEET_LIMITS.maxColumns}th). Keep the data in the first ${SHEET_LIMITS.maxColumns} columns.`,
  });
const tooManyCells = () =>
  new Refusal({ status: 413, message: `The sheet has more than ${SHEET_LIMITS.maxCells.toLocaleString('en-US')} cells. Split it into smaller files.` });
const tooSlow = () => new Refusal({ status: 413, message: 'The file takes too long to read. Split it into smaller files.' });

/**
 * Collects the rows under the limits: finds the heading row (the first with a value), then keeps
 * the known columns of every later row. Shared by the XLSX and CSV readers.
 */
class RowCollector {
  readonly started = Date.now();
  cellsRead = 0;
  header: SheetRow | null = null;
  private known = new Map<number, number>();
  private readonly data: Omit<SheetData, 'header' | 'kinds'> & { kinds: number[] } = { columns: [], rowNumbers: [], kinds: [], values: [] };
  private dataRows = 0;

  constructor(private readonly request: SheetRequest) {}

  /** Counts a cell read (known or not) and checks the cell and time limits. */
  countCell(): void {
    this.cellsRead++;
    if (this.cellsRead > SHEET_LIMITS.maxCells) throw tooManyCells();
    if ((this.cellsRead & 1023) === 0 && Date.now() - this.started > SHEET_LIMITS.maxReadMs) throw tooSlow();
  }

  /** Whether the cell at this column is worth converting: every heading, then known columns only. */
  wants(column: number): boolean {
    return this.header === null ? column < SHEET_LIMITS.maxColumns : this.known.has(column);
  }

  /** A cell with a value at this column: past the last allowed column the file is refused. */
  sawValueAt(column: number): void {
    if (column >= SHEET_LIMITS.maxColumns) throw tooManyColumns();
  }

  /** One row: the cells converted (by column), and whether any cell of it had a value at all. */
  endRow(rowNumber: number, cells: ReadonlyMap<number, Cell>, hadValue: boolean): void {
    if (this.header === null) {
      if (!hadValue) return;
      const width = Math.max(0, ...cells.keys()) + 1;
      const headerCells: Cell[] = Array.from({ length: width }, (_, column) => cells.get(column) ?? EMPTY);
      this.header = { rowNumber, cells: headerCells };
      const accepted = new Map<string, true>();
      for (const names of Object.values(this.request.columns)) for (const name of names) accepted.set(name, true);
      headerCells.forEach((cell, column) => {
        const text = cellText(cell);
        if (text !== '' && accepted.has(normaliseHeading(text, this.request.headingRule))) this.known.set(column, this.known.size);
      });
      this.data.columns = [...this.known.keys()];
      return;
    }
    if (!hadValue) return;
    if (rowNumber - this.header.rowNumber > this.request.maxRows) throw tooManyRows(this.request.maxRows);
    let any = false;
    for (const column of this.data.columns) if ((cells.get(column)?.kind ?? 'empty') !== 'empty') any = true;
    if (!any) return;
    this.dataRows++;
    if (this.dataRows > this.request.maxRows) throw tooManyRows(this.request.maxRows);
    this.data.rowNumbers.push(rowNumber);
    for (const column of this.data.columns) {
      const cell = cells.get(column) ?? EMPTY;
      this.data.kinds.push(CELL_KIND[cell.kind]);
      this.data.values.push(wireValue(cell));
    }
  }

  result(): SheetData {
    return { ...this.data, header: this.header, kinds: Uint8Array.from(this.data.kinds) };
  }
}

const EMPTY: Cell = { kind: 'empty' };

/** A cell as text, trimmed: headings, IDs, anything an import reads as words. */
export function cellText(cell: Cell | undefined): string {
  if (!cell) return '';
  switch (cell.kind) {
    case 'empty':
      return '';
    case 'number':
      return String(cell.value);
    case 'text':
      return cell.value.trim();
    case 'formula':
      return cell.text;
    case 'date':
      return cell.date;
  }
}

function wireValue(cell: Cell): string | number | null {
  switch (cell.kind) {
    case 'empty':
      return null;
    case 'number':
    case 'text':
      return cell.value;
    case 'formula':
      return cell.text;
    case 'date':
      return `${cell.date}T${cell.time}`;
  }
}

/** The wire form back into cells (spreadsheet-upload.ts, on the main thread). */
export function cellFromWire(kind: number, value: string | number | null): Cell {
  switch (kind) {
    case CELL_KIND.number:
      return { kind: 'number', value: value as number };
    case CELL_KIND.text:
      return { kind: 'text', value: value as string };
    case CELL_KIND.formula:
      return { kind: 'formula', text: value as string };
    case CELL_KIND.date: {
      const [date = '', time = ''] = String(value).split('T');
      return { kind: 'date', date, time };
    }
    default:
      return EMPTY;
  }
}

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

// ---- XLSX ---------------------------------------------------------------------------------------

interface Zip {
  entries: Map<string, yauzl.Entry>;
  file: yauzl.ZipFile;
}

/** The zip's directory (yauzl): names and declared sizes, nothing inflated yet. */
function openZip(buffer: Buffer): Promise<Zip> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (error, file) => {
      if (error || !file) return reject(unreadable());
      const entries = new Map<string, yauzl.Entry>();
      file.on('entry', (entry: yauzl.Entry) => {
        if (entries.size >= 10_000) return reject(unreadable());
        entries.set(entry.fileName.replace(/^\/+/, ''), entry);
        file.readEntry();
      });
      file.on('end', () => resolve({ entries, file }));
      file.on('error', () => reject(unreadable()));
      file.readEntry();
    });
  });
}

/** The inflated text of one entry, fed to `onText` as it inflates; the budget is spent as it comes. */
function streamEntry(zip: Zip, entry: yauzl.Entry, budget: { left: number }, onText: (text: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    if (entry.isEncrypted()) return reject(unreadable());
    zip.file.openReadStream(entry, (error, stream: Readable) => {
      if (error || !stream) return reject(unreadable());
      const decoder = new StringDecoder('utf8');
      let failed = false;
      const fail = (refusal: Error) => {
        if (failed) return;
        failed = true;
        stream.destroy();
        reject(refusal);
      };
      stream.on('data', (chunk: Buffer) => {
        budget.left -= chunk.length;
        if (budget.left < 0) return fail(tooLargeWhenOpened());
        try {
          onText(decoder.write(chunk));
        } catch (refusal) {
          fail(refusal instanceof Error ? refusal : unreadable());
        }
      });
      stream.on('error', (streamError: Error) => fail(/too many bytes|inflate|size/i.test(streamError.message) ? tooLargeWhenOpened() : unreadable()));
      stream.on('end', () => {
        if (failed) return;
        try {
          onText(decoder.end());
          resolve();
        } catch (refusal) {
          fail(refusal instanceof Error ? refusal : unreadable());
        }
      });
    });
  });
}

/** A SAX parser whose element names lose their namespace prefix (some writers use `x:c`). */
function xmlParser(handlers: { open?: (name: string, tag: SaxesTagPlain) => void; close?: (name: string) => void; text?: (text: string) => void }) {
  const parser = new SaxesParser();
  const local = (name: string) => name.slice(name.indexOf(':') + 1);
  if (handlers.open) parser.on('opentag', (tag) => handlers.open!(local(tag.name), tag));
  if (handlers.close) parser.on('closetag', (tag) => handlers.close!(local(tag.name)));
  if (handlers.text) parser.on('text', handlers.text);
  parser.on('error', () => {
    throw unreadable();
  });
  return parser;
}

async function readXml(zip: Zip, path: string, budget: { left: number }, handlers: Parameters<typeof xmlParser>[0]): Promise<boolean> {
  const entry = zip.entries.get(path);
  if (!entry) return false;
  const parser = xmlParser(handlers);
  await streamEntry(zip, entry, budget, (text) => void parser.write(text));
  parser.close();
  return true;
}

/** 'A' → 0, 'XFD' → 16383, from a reference like 'XFD1'; -1 when it has none. */
function columnOf(reference: string | undefined): number {
  if (!reference) return -1;
  let column = 0;
  let i = 0;
  for (; i < reference.length; i++) {
    const code = reference.charCodeAt(i);
    if (code >= 65 && code <= 90) column = column * 26 + (code - 64);
    else if (code >= 97 && code <= 122) column = column * 26 + (code - 96);
    else break;
    if (column > 1_000_000) return Number.MAX_SAFE_INTEGER;
  }
  return i === 0 ? -1 : column - 1;
}

/** Built-in number formats that show dates or times (ECMA-376 §18.8.30). */
const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/** Whether a custom format code shows a date or time: d, m, y, h or s outside quotes, escapes and [colours]. */
function isDateFormatCode(code: string): boolean {
  const bare = code.replace(/"[^"]*"/g, '').replace(/\\./g, '').replace(/\[[^\]]*\]/g, '');
  return /[dmyhs]/i.test(bare);
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** An Excel serial day number → the day and the time of day it stands for (1900 or 1904 system). */
function dateCell(serial: number, date1904: boolean): Cell {
  if (!Number.isFinite(serial) || serial < 0 || serial > 2_958_465) return { kind: 'number', value: serial };
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const instant = new Date(epoch + Math.round(serial * 86_400) * 1000);
  const date = instant.toISOString().slice(0, 10);
  return { kind: 'date', date, time: `${pad2(instant.getUTCHours())}:${pad2(instant.getUTCMinutes())}:${pad2(instant.getUTCSeconds())}` };
}

/** Where each part is: the first visible sheet, the shared strings and the styles (from the workbook's relationships). */
async function locateParts(zip: Zip, budget: { left: number }): Promise<{ sheet: string; sharedStrings?: string; styles?: string; date1904: boolean }> {
  const sheets: Array<{ id: string; hidden: boolean }> = [];
  let date1904 = false;
  await readXml(zip, 'xl/workbook.xml', budget, {
    open(name, tag) {
      if (name === 'workbookPr') date1904 = tag.attributes.date1904 === '1' || tag.attributes.date1904 === 'true';
      if (name === 'sheet') {
        const id = Object.entries(tag.attributes).find(([key]) => key === 'r:id' || key.endsWith(':id'))?.[1] ?? '';
        sheets.push({ id, hidden: tag.attributes.state === 'hidden' || tag.attributes.state === 'veryHidden' });
      }
    },
  });
  const targets = new Map<string, string>();
  let sharedStrings: string | undefined;
  let styles: string | undefined;
  const resolve = (target: string) => (target.startsWith('/') ? target.slice(1) : `xl/${target}`).replace(/\/\.\//g, '/');
  await readXml(zip, 'xl/_rels/workbook.xml.rels', budget, {
    open(name, tag) {
      if (name !== 'Relationship') return;
      const target = resolve(tag.attributes.Target ?? '');
      targets.set(tag.attributes.Id ?? '', target);
      if (/\/sharedStrings$/.test(tag.attributes.Type ?? '')) sharedStrings = target;
      if (/\/styles$/.test(tag.attributes.Type ?? '')) styles = target;
    },
  });
  const chosen = sheets.find((sheet) => !sheet.hidden) ?? sheets[0];
  let sheet = chosen ? targets.get(chosen.id) : undefined;
  // A workbook without its directory parts: the first worksheet by name.
  sheet ??= [...zip.entries.keys()].filter((name) => /^xl\/worksheets\/[^/]+\.xml$/.test(name)).sort()[0];
  if (!sheet || !zip.entries.has(sheet)) throw unreadable();
  return { sheet, sharedStrings: sharedStrings ?? (zip.entries.has('xl/sharedStrings.xml') ? 'xl/sharedStrings.xml' : undefined), styles: styles ?? 'xl/styles.xml', date1904 };
}

async function readXlsx(buffer: Buffer, request: SheetRequest): Promise<SheetData> {
  const zip = await openZip(buffer);
  try {
    const budget = { left: SHEET_LIMITS.maxInflatedBytes };
    const parts = await locateParts(zip, budget);
    // Declared sizes first: yauzl holds every entry to its declared size while inflating, so a
    // part that declares more than the budget is refused before a byte of it is inflated.
    const declared = [parts.sheet, parts.sharedStrings, parts.styles]
      .map((name) => (name ? zip.entries.get(name)?.uncompressedSize ?? 0 : 0))
      .reduce((a, b) => a + b, 0);
    if (declared > budget.left) throw tooLargeWhenOpened();
    const collector = new RowCollector(request);

    // Styles: which cell formats show dates.
    const dateStyles = new Set<number>();
    if (parts.styles) {
      const customDates = new Set<number>();
      let inCellXfs = false;
      let xfIndex = 0;
      await readXml(zip, parts.styles, budget, {
        open(name, tag) {
          if (name === 'numFmt' && isDateFormatCode(tag.attributes.formatCode ?? '')) customDates.add(Number(tag.attributes.numFmtId));
          if (name === 'cellXfs') inCellXfs = true;
          if (name === 'xf' && inCellXfs) {
            const id = Number(tag.attributes.numFmtId ?? 0);
            if (DATE_FORMAT_IDS.has(id) || customDates.has(id)) dateStyles.add(xfIndex);
            xfIndex++;
          }
        },
        close(name) {
          if (name === 'cellXfs') inCellXfs = false;
        },
      });
    }

    // Shared strings: the text of each <si>, without its phonetic guides (<rPh>).
    const strings: string[] = [];
    if (parts.sharedStrings) {
      let current = '';
      let inText = false;
      let inPhonetic = false;
      await readXml(zip, parts.sharedStrings, budget, {
        open(name) {
          if (name === 'si') current = '';
          else if (name === 'rPh') inPhonetic = true;
          else if (name === 't' && !inPhonetic) inText = true;
        },
        close(name) {
          if (name === 't') inText = false;
          else if (name === 'rPh') inPhonetic = false;
          else if (name === 'si') {
            strings.push(current);
            collector.countCell();
          }
        },
        text(text) {
          if (inText) current += text;
        },
      });
    }

    // The sheet, row by row.
    let rowNumber = 0;
    let nextColumn = 0;
    let cells = new Map<number, Cell>();
    let rowHadValue = false;
    let cell: { column: number; type: string; style: number; value: string; formula: string | null; inline: string; wanted: boolean } | null = null;
    let reading: 'v' | 'f' | 't' | null = null;
    let inInline = false;
    let inPhonetic = false;
    const endRow = () => {
      collector.endRow(rowNumber, cells, rowHadValue);
      cells = new Map();
      rowHadValue = false;
    };
    await readXml(zip, parts.sheet, budget, {
      open(name, tag) {
        if (name === 'row') {
          const numbered = Number(tag.attributes.r);
          rowNumber = Number.isInteger(numbered) && numbered > 0 ? numbered : rowNumber + 1;
          nextColumn = 0;
        } else if (name === 'c') {
          collector.countCell();
          const referenced = columnOf(tag.attributes.r);
          const column = referenced >= 0 ? referenced : nextColumn;
          nextColumn = column + 1;
          cell = { column, type: tag.attributes.t ?? 'n', style: Number(tag.attributes.s ?? 0), value: '', formula: null, inline: '', wanted: collector.wants(column) };
        } else if (cell) {
          if (name === 'v') reading = 'v';
          else if (name === 'f') {
            reading = 'f';
            cell.formula ??= '';
          } else if (name === 'is') inInline = true;
          else if (name === 'rPh') inPhonetic = true;
          else if (name === 't' && inInline && !inPhonetic) reading = 't';
        }
      },
      text(text) {
        if (!cell || reading === null) return;
        // Only a wanted cell keeps its text; any other only needs to know it has one.
        if (!cell.wanted) {
          if (text !== '') cell.value = 'x';
          return;
        }
        if (reading === 'v') cell.value += text;
        else if (reading === 'f') cell.formula += text;
        else cell.inline += text;
      },
      close(name) {
        if (name === 'v' || name === 'f' || name === 't') reading = null;
        else if (name === 'is') inInline = false;
        else if (name === 'rPh') inPhonetic = false;
        else if (name === 'c' && cell) {
          const hasValue = cell.value !== '' || cell.formula !== null || cell.inline !== '';
          if (hasValue) {
            collector.sawValueAt(cell.column);
            rowHadValue = true;
            if (cell.wanted) cells.set(cell.column, xlsxCell(cell, strings, dateStyles, parts.date1904));
          }
          cell = null;
        } else if (name === 'row') endRow();
      },
    });
    return collector.result();
  } finally {
    zip.file.close();
  }
}

function textCell(text: string): Cell {
  return text.trim() === '' ? EMPTY : { kind: 'text', value: text };
}

function xlsxCell(
  cell: { type: string; style: number; value: string; formula: string | null; inline: string },
  strings: readonly string[],
  dateStyles: ReadonlySet<number>,
  date1904: boolean,
): Cell {
  if (cell.formula !== null) return { kind: 'formula', text: `=${cell.formula || '(a shared formula)'}` };
  switch (cell.type) {
    case 's':
      return textCell(strings[Number(cell.value)] ?? '');
    case 'inlineStr':
      return textCell(cell.inline);
    case 'str':
      return textCell(cell.value);
    case 'b':
      return { kind: 'text', value: cell.value === '1' ? 'TRUE' : 'FALSE' };
    case 'e':
      return textCell(cell.value);
    case 'd': {
      const instant = new Date(cell.value);
      if (Number.isNaN(instant.getTime())) return textCell(cell.value);
      const iso = instant.toISOString();
      return { kind: 'date', date: iso.slice(0, 10), time: iso.slice(11, 19) };
    }
    default: {
      const value = Number(cell.value);
      if (cell.value.trim() === '' || !Number.isFinite(value)) return EMPTY;
      return dateStyles.has(cell.style) ? dateCell(value, date1904) : { kind: 'number', value };
    }
  }
}

// ---- CSV ----------------------------------------------------------------------------------------

/**
 * Bytes → text: UTF-8 (a BOM is dropped), UTF-16 with its BOM (Excel's "Unicode text"), and
 * otherwise Windows-1252, which is what Excel on Windows writes for "CSV" in this region (D18).
 */
export function decodeText(bytes: Buffer): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const body = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  if (body.includes(0)) throw new Refusal({ status: 415, message: 'This file is neither an .xlsx workbook nor a text (.csv) file.' });
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return decodeWindows1252(body);
  }
}

/** Windows-1252's 0x80–0x9F (curly quotes, dashes, €…); the rest is Latin-1. */
const CP1252_HIGH =
  '\u20ac\ufffd\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\ufffd\u017d\ufffd' +
  '\ufffd\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\ufffd\u017e\u0178';

/**
 * Decodes Windows-1252 by table: Node 20's TextDecoder treats the label as Latin-1 and turns
 * Excel's curly quotes and dashes into invisible control characters.
 */
export function decodeWindows1252(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH[byte - 0x80] : String.fromCharCode(byte);
  return text;
}

/** The separator of the heading line: the most frequent of comma, semicolon and tab outside quotes. */
function detectDelimiter(text: string): string {
  const firstLine = text.slice(0, Math.max(0, text.search(/\r?\n/)) || text.length);
  const unquoted = firstLine.replace(/"[^"]*"/g, '');
  const counts = [',', ';', '\t'].map((d) => [d, unquoted.split(d).length - 1] as const);
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ',';
}

/** RFC 4180 fields: quoted fields may hold separators, doubled quotes and line breaks. */
function readCsv(bytes: Buffer, request: SheetRequest): SheetData {
  const text = decodeText(bytes);
  const collector = new RowCollector(request);
  const delimiter = detectDelimiter(text);
  let field = '';
  let column = 0;
  let cells = new Map<number, Cell>();
  let hadValue = false;
  let quoted = false;
  let line = 1;
  let rowStart = 1;
  const endField = () => {
    collector.countCell();
    if (field.trim() !== '') {
      collector.sawValueAt(column);
      hadValue = true;
      if (collector.wants(column)) cells.set(column, { kind: 'text', value: field });
    }
    field = '';
    column++;
  };
  const endRow = () => {
    endField();
    collector.endRow(rowStart, cells, hadValue);
    cells = new Map();
    hadValue = false;
    column = 0;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
      continue;
    }
    if (ch === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (ch === delimiter) endField();
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowStart = line;
    } else field += ch;
  }
  if (field !== '' || column > 0) endRow();
  return collector.result();
}
