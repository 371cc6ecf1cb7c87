import type { Cell } from './sheet-rows.js';

/** Which XLSX numbers are dates, and the day and time they stand for. */

/** Built-in number formats that show dates or times (ECMA-376 §18.8.30). */
export const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/** Whether a custom format code shows a date or time: d, m, y, h or s outside quotes, escapes and [colours]. */
export function isDateFormatCode(code: string): boolean {
  const bare = code.replace(/"[^"]*"/g, '').replace(/\\./g, '').replace(/\[[^\]]*\]/g, '');
  return /[dmyhs]/i.test(bare);
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** An Excel serial day number → the day and the time of day it stands for (1900 or 1904 system). */
export function dateCell(serial: number, date1904: boolean): Cell {
  if (!Number.isFinite(serial) || serial < 0 || serial > 2_958_465) return { kind: 'number', value: serial };
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const instant = new Date(epoch + Math.round(serial * 86_400) * 1000);
  const date = instant.toISOString().slice(0, 10);
  return { kind: 'date', date, time: `${pad2(instant.getUTCHours())}:${pad2(instant.getUTCMinutes())}:${pad2(instant.getUTCSeconds())}` };
}
