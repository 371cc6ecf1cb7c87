import type ExcelJS from 'exceljs';

let excelJs: Promise<typeof ExcelJS> | undefined;

/**
 * exceljs, loaded when a spreadsheet is first written rather than when the server starts (31 MB
 * that a process which never exports does not hold; docs/performance.md). The one place that
 * loads it: the templates and the streaming writer of the exports. Uploaded spreadsheets are
 * read by sheet-reader.ts, not by exceljs.
 */
export function loadExcelJs(): Promise<typeof ExcelJS> {
  excelJs ??= import('exceljs').then((module) => module.default);
  return excelJs;
}
