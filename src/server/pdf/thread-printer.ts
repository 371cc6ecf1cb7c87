// What prints on a pool thread: pdfmake lays out a printout, or a part of one, and writes its bytes.
import { createRequire } from 'node:module';
import type { Content, TDocumentDefinitions, TFontDictionary } from 'pdfmake/interfaces.js';
import type { PartSection, PrintoutFrame, Printout, PrintoutSection, SectionStart } from './printout.js';
import { footerContent, TABLE_LAYOUTS, type FooterPart } from './pieces.js';

/**
 * pdfmake with the Roboto TTFs it ships, embedded in every printout: the one place a printout is
 * laid out and written. It runs on a thread of the worker pool (render-on-pool.ts sends the
 * printout there); nothing is written to disk. pdfmake and its fonts load with the thread's first
 * printout, not when the server starts.
 */

type Printer = {
  createPdfKitDocument(doc: TDocumentDefinitions, options?: { tableLayouts?: typeof TABLE_LAYOUTS }): NodeJS.ReadableStream & { end(): void };
};
type PrinterClass = new (fonts: TFontDictionary) => Printer;

let pdfmake: { PdfPrinter: PrinterClass; fonts: TFontDictionary } | undefined;

/** pdfmake and the Roboto TTFs it ships (its virtual file system), loaded on first use. */
function loadPdfmake(): { PdfPrinter: PrinterClass; fonts: TFontDictionary } {
  if (!pdfmake) {
    const require = createRequire(import.meta.url);
    const vfs = require('pdfmake/build/vfs_fonts.js') as Record<string, string>;
    const face = (file: string) => Buffer.from(vfs[file] ?? '', 'base64');
    const roboto = {
      normal: face('Roboto-Regular.ttf'),
      bold: face('Roboto-Medium.ttf'),
      italics: face('Roboto-Italic.ttf'),
      bolditalics: face('Roboto-MediumItalic.ttf'),
    };
    pdfmake = { PdfPrinter: require('pdfmake') as PrinterClass, fonts: { Roboto: roboto } as unknown as TFontDictionary };
  }
  return pdfmake;
}

/**
 * A printer for one document. pdfmake's printer keeps the last document it made (its pdfkit
 * document and every laid-out line) until it makes the next: 50 MB after the all-classes report.
 * A printer per document lets each go when it is written; making one costs nothing (the fonts
 * are loaded once).
 */
function newPrinter(): Printer {
  const { PdfPrinter, fonts } = loadPdfmake();
  return new PdfPrinter(fonts);
}

/** Where a printout's pages fall in a longer one: after `before` pages, of `total` in all (join-parts.ts). */
export interface PageNumbering {
  before: number;
  total: number;
}

/** The portal's printout → pdfmake's document definition: the footer function, pictures as data URLs, the default font. */
function toPdfmake(printout: Printout, footerPart: FooterPart, numbering?: PageNumbering): TDocumentDefinitions {
  const { footer, images, ...rest } = printout;
  const definition: TDocumentDefinitions = { ...rest, defaultStyle: { font: 'Roboto', fontSize: 9, ...printout.defaultStyle } };
  if (footer?.sections) {
    const sections = footer.sections;
    const pageOf = sectionPaging(definition.content);
    definition.footer = (currentPage, pageCount) => {
      const at = pageOf(currentPage, pageCount);
      return footerContent({ smallPrint: sections[at.section]?.smallPrint ?? '' }, at.page, at.pages, footerPart);
    };
  } else if (footer) {
    definition.footer = (currentPage, pageCount) =>
      footerContent(footer, currentPage + (numbering?.before ?? 0), numbering?.total ?? pageCount, footerPart);
  }
  if (images) {
    // pdfmake's image dictionary takes data URLs (or file paths, which a printout never names).
    definition.images = Object.fromEntries(
      Object.entries(images).map(([name, image]) => [name, `data:${image.mime};base64,${Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength).toString('base64')}`]),
    );
  }
  return definition;
}

/** What pdfmake leaves on a content node once it is laid out: where each of its lines went. */
interface LaidOutNode {
  positions?: readonly { pageNumber: number }[];
}

/**
 * For a printout whose top-level content entries are sections (footer `sections`): which section a
 * page belongs to and its number within that section. pdfmake lays the footers out after the
 * content, by which time every node carries the pages its lines went to (`positions`), so each
 * section's first page is known however many pages a section takes.
 */
function sectionPaging(content: TDocumentDefinitions['content']): (currentPage: number, pageCount: number) => { section: number; page: number; pages: number } {
  let starts: number[] | undefined;
  const firstPages = () => {
    const entries = (Array.isArray(content) ? content : [content]) as LaidOutNode[];
    let previous = 1;
    return entries.map((entry) => {
      const pages = (entry.positions ?? []).map((position) => position.pageNumber);
      previous = pages.length > 0 ? Math.min(...pages) : previous;
      return previous;
    });
  };
  return (currentPage, pageCount) => {
    starts ??= firstPages();
    let section = 0;
    while (section + 1 < starts.length && starts[section + 1]! <= currentPage) section++;
    const first = starts[section] ?? 1;
    const next = starts.slice(section + 1).find((start) => start > first) ?? pageCount + 1;
    return { section, page: currentPage - first + 1, pages: next - first };
  };
}

/**
 * Lays out and writes a printout on this thread: its PDF bytes. `footerPart` 'small-print' leaves
 * 'Page n of m' out of the foot, for a part of a printout made in parts (`printPart`);
 * 'page-number' writes only the number, for the pages join-parts.ts stamps on the joined parts;
 * `numbering` then numbers them as pages of the whole printout.
 */
export function printPdf(printout: Printout, footerPart: FooterPart = 'whole', numbering?: PageNumbering): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const pdf = newPrinter().createPdfKitDocument(toPdfmake(printout, footerPart, numbering), { tableLayouts: TABLE_LAYOUTS });
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    pdf.end();
  });
}

/**
 * Where a section starts inside a part of a printout made in parts (printout-in-parts.ts, D63):
 * inside a part a section starts with a page break. A part starts on a new page by itself: its
 * first section gets the empty line the page break stands on, so its rows fall on the pages they
 * would in one whole printout. The printout's opening stands at the top of page 1.
 */
function startOf(start: SectionStart): Content[] {
  // New objects each time: pdfmake writes its measurements into the content it lays out.
  if (start === 'part') return [{ text: '' }];
  if (start === 'page') return [{ text: '', pageBreak: 'before' }];
  return [];
}

/**
 * Lays out a part of a printout made in parts on this thread: its sections' rows become content
 * here, by `layOut` (the layouts of the feature that added them, handed over by the thread's
 * entry), so the main thread only ever holds rows. The foot has no page numbers yet.
 */
export function printPart<S extends PrintoutSection>(frame: PrintoutFrame, sections: readonly PartSection<S>[], layOut: (section: S) => Content): Promise<Buffer> {
  const content = sections.flatMap(({ start, section }) => [...startOf(start), layOut(section)]);
  return printPdf({ ...frame, content }, 'small-print');
}
