import { inflateRawSync } from 'node:zlib';
import type ExcelJS from 'exceljs';
import { AppError } from '../http/errors.js';

/**
 * Reads an uploaded XLSX or CSV into rows of inert cells (issue #5 import). Nothing in a file is
 * ever evaluated: an XLSX formula cell is reported as a formula (its cached result is not
 * trusted), CSV text is only text. Bounded work: a zip that inflates beyond a budget and a sheet
 * with more rows than allowed are refused with 413 before anything else happens.
 */

export type Cell =
  | { kind: 'empty' }
  | { kind: 'number'; value: number }
  | { kind: 'text'; value: string }
  /** An XLSX formula; `text` is the formula as written, for the error message. */
  | { kind: 'formula'; text: string };

export interface SheetRow {
  /** 1-based, as the spreadsheet numbers it (the header is usually row 1). */
  rowNumber: number;
  cells: Cell[];
}

export interface ReadLimits {
  /** Data rows after the header. */
  maxRows: number;
  /** Total bytes an XLSX may inflate to. */
  maxInflatedBytes: number;
}

const EMPTY: Cell = { kind: 'empty' };

let excelJs: Promise<typeof ExcelJS> | undefined;

/**
 * exceljs, loaded when a spreadsheet is first read or written rather than when the server starts
 * (31 MB that a process which never imports or exports does not hold; docs/performance.md). The
 * one place that loads it: the readers here and in the other imports, the templates and the
 * streaming writer of the exports.
 */
export function loadExcelJs(): Promise<typeof ExcelJS> {
  excelJs ??= import('exceljs').then((module) => module.default);
  return excelJs;
}

function tooManyRows(maxRows: number): AppError {
  return new AppError(
    413,
    'payload_too_large',
    `The file has more than ${maxRows.toLocaleString('en-US')} rows. Split it into smaller files.`,
  );
}

function unsupported(message: string): AppError {
  return new AppError(415, 'unsupported_media_type', message);
}

/** Reads the first worksheet of an XLSX, or a CSV (comma, semicolon or tab separated). */
export async function readSpreadsheet(bytes: Buffer, limits: ReadLimits): Promise<SheetRow[]> {
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50) return readXlsx(bytes, limits);
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0xd0cf11e0) {
    throw unsupported('Old Excel (.xls) files are not accepted. Save the file as .xlsx or .csv and upload it again.');
  }
  return readCsv(bytes, limits);
}

// ---- XLSX ---------------------------------------------------------------------------------------

/**
 * Inflates every entry of the zip with a hard output limit, so a "zip bomb" costs at most
 * `maxBytes` of memory and is refused (413) before exceljs sees it. Declared sizes are not
 * trusted: the limit is on what inflation actually produces.
 */
export function checkZipExpansion(bytes: Buffer, maxBytes: number): void {
  const eocd = findEndOfCentralDirectory(bytes);
  if (eocd < 0) throw unsupported('This file is not a readable .xlsx workbook.');
  const entries = bytes.readUInt16LE(eocd + 10);
  let offset = bytes.readUInt32LE(eocd + 16);
  let budget = maxBytes;
  for (let i = 0; i < entries; i++) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== 0x02014b50)
      throw unsupported('This file is not a readable .xlsx workbook.');
    const method = bytes.readUInt16LE(offset + 10);
    const compressedSize = bytes.readUInt32LE(offset + 20);
    const nameLength = bytes.readUInt16LE(offset + 28);
    const extraLength = bytes.readUInt16LE(offset + 30);
    const commentLength = bytes.readUInt16LE(offset + 32);
    const localHeader = bytes.readUInt32LE(offset + 42);
    offset += 46 + nameLength + extraLength + commentLength;
    if (localHeader + 30 > bytes.length || bytes.readUInt32LE(localHeader) !== 0x04034b50)
      throw unsupported('This file is not a readable .xlsx workbook.');
    const dataStart = localHeader + 30 + bytes.readUInt16LE(localHeader + 26) + bytes.readUInt16LE(localHeader + 28);
    const data = bytes.subarray(dataStart, dataStart + compressedSize);
    let produced: number;
    if (method === 0) produced = data.length;
    else if (method === 8) {
      try {
        produced = inflateRawSync(data, {
          maxOutputLength: Math.max(1, budget),
        }).length;
      } catch (error) {
        if (error instanceof RangeError) throw tooLargeWhenOpened();
        throw unsupported('This file is not a readable .xlsx workbook.');
      }
    } else throw unsupported('This file is not a readable .xlsx workbook.');
    budget -= produced;
    if (budget < 0) throw tooLargeWhenOpened();
  }
}

function tooLargeWhenOpened(): AppError {
  return new AppError(
    413,
    'payload_too_large',
    'The workbook is too large once opened. Remove unused sheets or split it into smaller files.',
  );
}

function findEndOfCentralDirectory(bytes: Buffer): number {
  const earliest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let i = bytes.length - 22; i >= earliest; i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) return i;
  }
  return -1;
}

function xlsxCell(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return EMPTY;
  if (typeof value === 'number') return Number.isFinite(value) ? { kind: 'number', value } : EMPTY;
  if (typeof value === 'string') return value.trim() === '' ? EMPTY : { kind: 'text', value };
  if (typeof value === 'boolean') return { kind: 'text', value: value ? 'TRUE' : 'FALSE' };
  if (value instanceof Date) return { kind: 'text', value: value.toISOString().slice(0, 10) };
  if (typeof value === 'object') {
    if ('formula' in value || 'sharedFormula' in value) {
      const formula = 'formula' in value && value.formula ? value.formula : 'sharedFormula' in value ? value.sharedFormula : '';
      return { kind: 'formula', text: `=${String(formula)}` };
    }
    if ('richText' in value) return textCell(value.richText.map((part) => part.text).join(''));
    if ('text' in value && typeof value.text === 'string') return textCell(value.text);
    if ('error' in value) return { kind: 'text', value: String(value.error) };
  }
  return EMPTY;
}

function textCell(text: string): Cell {
  return text.trim() === '' ? EMPTY : { kind: 'text', value: text };
}

async function readXlsx(bytes: Buffer, limits: ReadLimits): Promise<SheetRow[]> {
  checkZipExpansion(bytes, limits.maxInflatedBytes);
  const { Workbook } = await loadExcelJs();
  const workbook = new Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw unsupported('This file is not a readable .xlsx workbook.');
  }
  const sheet = workbook.worksheets.find((ws) => ws.state === 'visible') ?? workbook.worksheets[0];
  if (!sheet) return [];
  const rows: SheetRow[] = [];
  let tooMany = false;
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (tooMany) return;
    const cells: Cell[] = [];
    const values = row.values as ExcelJS.CellValue[];
    for (let c = 1; c < values.length; c++) cells.push(xlsxCell(values[c] ?? null));
    if (cells.every((cell) => cell.kind === 'empty')) return;
    rows.push({ rowNumber, cells });
    if (rows.length > limits.maxRows + 1) tooMany = true;
  });
  if (tooMany) throw tooManyRows(limits.maxRows);
  return rows;
}

// ---- CSV ----------------------------------------------------------------------------------------

/**
 * Bytes → text: UTF-8 (a BOM is dropped), UTF-16 with its BOM (Excel's "Unicode text"), and
 * otherwise Windows-1252, which is what Excel on Windows writes for "CSV" in this region.
 */
export function decodeText(bytes: Buffer): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const body = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  if (body.includes(0)) throw unsupported('This file is neither an .xlsx workbook nor a text (.csv) file.');
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

/** The separator of the header line: the most frequent of comma, semicolon and tab outside quotes. */
function detectDelimiter(text: string): string {
  const firstLine = text.slice(0, Math.max(0, text.search(/\r?\n/)) || text.length);
  const unquoted = firstLine.replace(/"[^"]*"/g, '');
  const counts = [',', ';', '\t'].map((d) => [d, unquoted.split(d).length - 1] as const);
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ',';
}

/** RFC 4180 fields: quoted fields may hold separators, doubled quotes and line breaks. */
export function parseCsv(text: string, maxRows: number): SheetRow[] {
  const delimiter = detectDelimiter(text);
  const rows: SheetRow[] = [];
  let field = '';
  let fields: string[] = [];
  let quoted = false;
  let line = 1;
  let rowStart = 1;
  const endRow = () => {
    fields.push(field);
    field = '';
    const cells: Cell[] = fields.map((value) => (value.trim() === '' ? EMPTY : { kind: 'text', value }));
    fields = [];
    if (cells.some((cell) => cell.kind !== 'empty')) {
      rows.push({ rowNumber: rowStart, cells });
      if (rows.length > maxRows + 1) throw tooManyRows(maxRows);
    }
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
    } else if (ch === delimiter) {
      fields.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowStart = line;
    } else field += ch;
  }
  if (field !== '' || fields.length > 0) endRow();
  return rows;
}

function readCsv(bytes: Buffer, limits: ReadLimits): SheetRow[] {
  return parseCsv(decodeText(bytes), limits.maxRows);
}
