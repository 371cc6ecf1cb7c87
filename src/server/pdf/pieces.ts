// The building blocks every printout is made of: headers, tables, the foot, and pdfmake's table layouts.
import type { Content, ContentTable, CustomTableLayout, TableCell } from 'pdfmake/interfaces.js';

/**
 * Small layout pieces shared by every document (registration form, report card, attendance
 * report, class reports), so they look like one school's paperwork.
 */

export const COLORS = { ink: '#1a2b3c', muted: '#5b6b7b', rule: '#b8c4d0', band: '#e8eef5', accent: '#1d4e89' } as const;

/** The school's name and the document's title, centred, with an optional subtitle line. */
export function schoolHeader(schoolName: string, title: string, subtitle?: string): Content {
  return {
    stack: [
      { text: schoolName, fontSize: 15, bold: true, alignment: 'center', color: COLORS.accent },
      { text: 'Republic of Trinidad and Tobago · Ministry of Education', fontSize: 8, alignment: 'center', color: COLORS.muted, margin: [0, 2, 0, 0] },
      { text: title, fontSize: 13, bold: true, alignment: 'center', margin: [0, 8, 0, 0] },
      ...(subtitle ? [{ text: subtitle, fontSize: 10, alignment: 'center' as const, margin: [0, 2, 0, 0] as [number, number, number, number] }] : []),
      { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 515, y2: 0, lineWidth: 1, lineColor: COLORS.rule }], margin: [0, 8, 0, 8] },
    ],
  };
}

/** A shaded band that opens a section. */
export function sectionTitle(text: string): Content {
  return {
    table: { widths: ['*'], body: [[{ text, bold: true, fontSize: 10, color: COLORS.ink, fillColor: COLORS.band, margin: [4, 2, 4, 2] }]] },
    layout: 'noBorders',
    margin: [0, 8, 0, 4],
  };
}

/** Shows an empty value as a dash, so a blank is visibly blank on paper. */
export function display(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const text = String(value).trim();
  return text === '' ? '—' : text;
}

/**
 * The portal's own table layouts, by name. A document names its layout (`layout: 'compactRules'`)
 * and thread-printer.ts registers these with pdfmake, so a document definition stays plain data that
 * can cross to the rendering thread (functions cannot).
 */
export const TABLE_LAYOUTS = {
  /** Thin rules between rows and one point of padding: for forms that must fit a page. */
  compactRules: {
    hLineWidth: (i: number, node: { table: { body: unknown[] } }) => (i === 0 || i === node.table.body.length ? 0 : 0.5),
    vLineWidth: () => 0,
    hLineColor: () => COLORS.rule,
    paddingLeft: (i: number) => (i === 0 ? 0 : 3),
    paddingRight: () => 3,
    paddingTop: () => 1,
    paddingBottom: () => 1,
  },
} satisfies Record<string, CustomTableLayout>;

/**
 * Label/value pairs laid out in `columns` columns (labels muted, values wrapped). `compact`
 * tightens the rows and labels (the one-page registration form); other documents keep the default.
 */
export function keyValueGrid(
  pairs: ReadonlyArray<readonly [string, string | number | null | undefined]>,
  columns = 2,
  options: { compact?: boolean } = {},
): Content {
  const body: TableCell[][] = [];
  const labelSize = options.compact ? 7 : 8;
  for (let i = 0; i < pairs.length; i += columns) {
    const row: TableCell[] = [];
    for (let c = 0; c < columns; c++) {
      const pair = pairs[i + c];
      row.push(pair ? { text: pair[0], color: COLORS.muted, fontSize: labelSize } : '', pair ? { text: display(pair[1]) } : '');
    }
    body.push(row);
  }
  if (body.length === 0) return { text: '' };
  const widths = Array.from({ length: columns }, () => ['auto', '*']).flat();
  return { table: { widths, body }, layout: options.compact ? 'compactRules' : 'lightHorizontalLines', margin: [0, 0, 0, options.compact ? 2 : 4] };
}

/**
 * A table with a bold header row that repeats on each page. A `caption` (a class's heading) is a
 * first header row across the whole table, so a table that runs onto the next page says there
 * again whose rows they are.
 */
export function dataTable(
  headers: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined | TableCell>>,
  widths?: ReadonlyArray<string | number>,
  options: { caption?: string; keepRowsWhole?: boolean } = {},
): ContentTable {
  const captionRows: TableCell[][] = options.caption
    ? [[{ text: options.caption, colSpan: headers.length, bold: true, fontSize: 10, color: COLORS.ink, fillColor: COLORS.band, margin: [2, 2, 2, 2] }, ...headers.slice(1).map(() => ({}))]]
    : [];
  return {
    table: {
      headerRows: captionRows.length + 1,
      // A caption keeps at least its column headings and a first row with it at the foot of a page.
      ...(options.caption ? { keepWithHeaderRows: 1 } : {}),
      // A row that does not fit at the foot of a page moves whole to the next, never half a student.
      ...(options.keepRowsWhole ? { dontBreakRows: true } : {}),
      widths: widths ? [...widths] : headers.map(() => '*'),
      body: [
        ...captionRows,
        headers.map((header) => ({ text: header, bold: true, fillColor: COLORS.band })),
        ...rows.map((row) => row.map((cell) => (cell !== null && typeof cell === 'object' ? cell : { text: display(cell) }))),
      ],
    },
    layout: 'lightHorizontalLines',
    margin: [0, options.caption ? 8 : 0, 0, 6],
  };
}

/** A ☑/☐ checklist (e.g. documents received). */
export function checklist(items: ReadonlyArray<{ label: string; checked: boolean; note?: string }>): Content {
  return {
    table: {
      widths: [14, '*', 'auto'],
      body: items.map((item) => [
        { text: item.checked ? 'X' : '', alignment: 'center', bold: true, border: [true, true, true, true] },
        { text: item.label, border: [false, false, false, false] },
        { text: item.note ?? (item.checked ? 'received' : 'not received'), color: COLORS.muted, border: [false, false, false, false] },
      ]),
    },
    margin: [0, 0, 0, 4],
  };
}

/** Lines to sign on, each with its caption and a date line. */
export function signatureLines(captions: readonly string[]): Content {
  return {
    columns: captions.map((caption) => ({
      stack: [
        { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 150, y2: 0, lineWidth: 0.7 }], margin: [0, 28, 0, 2] },
        { text: caption, fontSize: 8, color: COLORS.muted },
        { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 90, y2: 0, lineWidth: 0.7 }], margin: [0, 18, 0, 2] },
        { text: 'Date', fontSize: 8, color: COLORS.muted },
      ],
    })),
    columnGap: 20,
    margin: [0, 10, 0, 0],
  };
}

/** The foot of every page as data: a line of small print, then 'Page n of m' (footerContent). */
export interface PageFooter {
  smallPrint: string;
  /**
   * A document of several handouts (a class's report cards, docs/decisions.md D84): entry i of the
   * document's `content` is handout i, and its pages carry this small print and are numbered on
   * their own ('Page 1 of 2' of that card), so each handout reads whole when the pile is split.
   */
  sections?: readonly { smallPrint: string }[];
}

/** 'Page n of m' and a line of small print at the foot of every page. */
export function pageFooter(smallPrint: string): PageFooter {
  return { smallPrint };
}

/** A foot per handout: each top-level content entry numbered on its own, with its own small print. */
export function sectionFooters(smallPrints: readonly string[]): PageFooter {
  return { smallPrint: '', sections: smallPrints.map((smallPrint) => ({ smallPrint })) };
}

/**
 * Which part of the foot a rendering writes: all of it; only the small print (each part of a
 * document made in parts, whose page numbers are not known yet); only 'Page n of m' (stamped on
 * the joined printout's pages, join-parts.ts). The two halves sit where the whole foot puts them.
 */
export type FooterPart = 'whole' | 'small-print' | 'page-number';

/** What thread-printer.ts puts at the foot of page `currentPage` of `pageCount`. */
export function footerContent(footer: PageFooter, currentPage: number, pageCount: number, part: FooterPart = 'whole'): Content {
  return {
    columns: [
      { text: part === 'page-number' ? '' : footer.smallPrint, fontSize: 7, color: COLORS.muted },
      { text: part === 'small-print' ? '' : `Page ${currentPage} of ${pageCount}`, fontSize: 7, color: COLORS.muted, alignment: 'right' },
    ],
    margin: [40, 10, 40, 0],
  };
}

/**
 * A passport-photo box: the picture (the name of an entry in the document's `images`) fitted into
 * the box, or an outlined empty box with a caption when there is none (to paste a photo on the
 * printed page).
 */
export function photoBox(image: string | null, options: { width?: number; height?: number; caption?: string } = {}): Content {
  const width = options.width ?? 96;
  const height = options.height ?? 120;
  const caption = options.caption ?? 'Photo';
  if (image) {
    return { stack: [{ image, fit: [width, height], alignment: 'center' }] };
  }
  return {
    stack: [
      { canvas: [{ type: 'rect', x: 0, y: 0, w: width, h: height, lineWidth: 0.7, lineColor: COLORS.rule, dash: { length: 3 } }] },
      { text: caption, fontSize: 7, color: COLORS.muted, alignment: 'center', relativePosition: { x: 0, y: -height / 2 - 4 } },
    ],
  };
}
