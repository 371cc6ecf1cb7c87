/** The limits every spreadsheet import is read under (sheet-reader.ts, D34), and the refusals that name them. */

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

export class Refusal extends Error {
  constructor(readonly refusal: SheetRefusal) {
    super(refusal.message);
  }
}

export const unreadable = () => new Refusal({ status: 415, message: 'This file is not a readable .xlsx workbook.' });
export const tooLargeWhenOpened = () =>
  new Refusal({ status: 413, message: 'The workbook is too large once opened. Remove unused sheets or split it into smaller files.' });
export const tooManyRows = (maxRows: number) =>
  new Refusal({ status: 413, message: `The file has more than ${maxRows.toLocaleString('en-US')} rows. Split it into smaller files.` });
export const tooManyColumns = () =>
  new Refusal({
    status: 413,
    message: `The sheet has values beyond column IV (the ${SHEET_LIMITS.maxColumns}th). Keep the data in the first ${SHEET_LIMITS.maxColumns} columns.`,
  });
export const tooManyCells = () =>
  new Refusal({ status: 413, message: `The sheet has more than ${SHEET_LIMITS.maxCells.toLocaleString('en-US')} cells. Split it into smaller files.` });
export const tooSlow = () => new Refusal({ status: 413, message: 'The file takes too long to read. Split it into smaller files.' });
