// What merges parts on a pool thread: the parts' pages joined into one PDF, numbered when framed.
import { ParseSpeeds, PDFDocument, popGraphicsState, pushGraphicsState } from 'pdf-lib';
import type { Content } from 'pdfmake/interfaces.js';
import type { PrintoutFrame } from './printout.js';
import { printPdf } from './thread-printer.js';

/**
 * Joins the parts of a printout made in parts (a school-wide report, one class a part: D63) into
 * one PDF, and writes 'Page n of m' at the foot of every page, which no part could know while it
 * was laid out alone. Runs on a thread of the worker pool.
 *
 * The page numbers are laid out by pdfmake too (a printout of as many pages as the parts hold,
 * each with only the number half of the foot, pieces.ts `footerContent`), so they are in the
 * document's own font, at the very place the whole foot puts them; pdf-lib copies the parts'
 * pages into one document and draws each number page over its page.
 *
 * Without a frame (a class's report cards, D59: each card is complete and numbered on its own,
 * D84) the pages are only joined, and the first part's title and author are kept. pdf-lib copies each part's
 * fonts with its pages, which is why a part holds several cards.
 */
export async function joinPdfParts(frame: PrintoutFrame | null, parts: readonly Uint8Array[]): Promise<Uint8Array> {
  const joined = await PDFDocument.create({ updateMetadata: false });
  for (const [index, bytes] of parts.entries()) {
    const part = await PDFDocument.load(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
    if (frame === null && index === 0) {
      joined.setTitle(part.getTitle() ?? '');
      joined.setAuthor(part.getAuthor() ?? '');
      joined.setSubject(part.getSubject() ?? '');
    }
    for (const page of await joined.copyPages(part, part.getPageIndices())) joined.addPage(page);
  }
  if (frame === null) return joined.save({ objectsPerTick: Infinity, useObjectStreams: false });
  const pageCount = joined.getPageCount();
  const emptyPages: Content[] = Array.from({ length: pageCount }, (_, index) => (index === 0 ? { text: '' } : { text: '', pageBreak: 'before' }));
  const numbers = await printPdf({ ...frame, content: emptyPages }, 'page-number');
  const numbered = await PDFDocument.load(numbers, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  const stamps = await joined.embedPdf(numbered, joined.getPageIndices());
  // pdfkit leaves a page's coordinates flipped (its `1 0 0 -1 0 h cm`) when the page ends: each
  // page's own content goes inside q … Q, so the number is drawn in PDF's ordinary coordinates.
  const save = joined.context.register(joined.context.contentStream([pushGraphicsState()]));
  const restore = joined.context.register(joined.context.contentStream([popGraphicsState()]));
  joined.getPages().forEach((page, index) => {
    page.node.wrapContentStreams(save, restore);
    page.drawPage(stamps[index]!);
  });
  if (frame.info?.title) joined.setTitle(frame.info.title);
  if (frame.info?.author) joined.setAuthor(frame.info.author);
  joined.setCreator('pdfmake');
  joined.setProducer('pdf-lib');
  // pdf-lib pauses for a timer tick every 50 objects by default, to let an event loop breathe;
  // this thread has nothing else to do, and the pauses cost seconds on a busy machine. Object
  // streams would deflate every small object again in JavaScript (pako): the pages' content is
  // compressed already, and the file is barely smaller.
  return joined.save({ objectsPerTick: Infinity, useObjectStreams: false });
}
