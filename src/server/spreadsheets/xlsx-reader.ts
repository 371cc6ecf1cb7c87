import { dateCell, DATE_FORMAT_IDS, isDateFormatCode } from './sheet-dates.js';
import { SHEET_LIMITS, tooLargeWhenOpened, unreadable } from './sheet-limits.js';
import { EMPTY, RowCollector, type Cell, type SheetData, type SheetRequest } from './sheet-rows.js';
import { readXml } from './sheet-xml.js';
import { openZip, type Zip } from './zip-limits.js';

/** An XLSX workbook's first visible sheet, read under the limits of sheet-reader.ts. */

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

export async function readXlsx(buffer: Buffer, request: SheetRequest): Promise<SheetData> {
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
    const dateStyles = parts.styles ? await readDateStyles(zip, parts.styles, budget) : new Set<number>();

    // Shared strings: the text of each <si>, without its phonetic guides (<rPh>).
    const strings = parts.sharedStrings ? await readSharedStrings(zip, parts.sharedStrings, budget, collector) : [];

    // The sheet, row by row.
    await readRows(zip, parts.sheet, budget, collector, (cell) => xlsxCell(cell, strings, dateStyles, parts.date1904));
    return collector.result();
  } finally {
    zip.file.close();
  }
}

async function readDateStyles(zip: Zip, path: string, budget: { left: number }): Promise<Set<number>> {
  const dateStyles = new Set<number>();
  const customDates = new Set<number>();
  let inCellXfs = false;
  let xfIndex = 0;
  await readXml(zip, path, budget, {
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
  return dateStyles;
}

async function readSharedStrings(zip: Zip, path: string, budget: { left: number }, collector: RowCollector): Promise<string[]> {
  const strings: string[] = [];
  let current = '';
  let inText = false;
  let inPhonetic = false;
  await readXml(zip, path, budget, {
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
  return strings;
}

interface XlsxCell {
  column: number;
  type: string;
  style: number;
  value: string;
  formula: string | null;
  inline: string;
  wanted: boolean;
}

async function readRows(zip: Zip, path: string, budget: { left: number }, collector: RowCollector, convert: (cell: XlsxCell) => Cell): Promise<void> {
  let rowNumber = 0;
  let nextColumn = 0;
  let cells = new Map<number, Cell>();
  let rowHadValue = false;
  let cell: XlsxCell | null = null;
  let reading: 'v' | 'f' | 't' | null = null;
  let inInline = false;
  let inPhonetic = false;
  const endRow = () => {
    collector.endRow(rowNumber, cells, rowHadValue);
    cells = new Map();
    rowHadValue = false;
  };
  await readXml(zip, path, budget, {
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
          if (cell.wanted) cells.set(cell.column, convert(cell));
        }
        cell = null;
      } else if (name === 'row') endRow();
    },
  });
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
