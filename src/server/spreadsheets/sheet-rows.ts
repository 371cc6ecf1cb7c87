import { SHEET_LIMITS, tooManyCells, tooManyColumns, tooManyRows, tooSlow, type SheetRefusal } from './sheet-limits.js';

/** A sheet's cells and rows, how they cross back from the worker thread, and the collector both readers fill. */

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

/**
 * Collects the rows under the limits: finds the heading row (the first with a value), then keeps
 * the known columns of every later row. Shared by the XLSX and CSV readers.
 */
export class RowCollector {
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

export const EMPTY: Cell = { kind: 'empty' };

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
