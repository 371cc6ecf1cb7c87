// What merges parts on a pool thread: the parts' pages joined into one PDF, numbered when framed.
import {
  ParseSpeeds,
  PDFContext,
  PDFCrossRefSection,
  PDFDocument,
  PDFHeader,
  PDFHexString,
  PDFName,
  PDFObjectCopier,
  PDFTrailer,
  PDFTrailerDict,
  popGraphicsState,
  pushGraphicsState,
  type PDFObject,
  type PDFRef,
} from 'pdf-lib';
import type { Content } from 'pdfmake/interfaces.js';
import type { PrintoutFrame } from './printout.js';
import { printPdf } from './thread-printer.js';

/**
 * Joins the parts of a printout made in parts (a school-wide report, a few classes a part: D63)
 * into one PDF, and writes 'Page n of m' at the foot of every page, which no part could know while
 * it was laid out alone. Runs on a thread of the worker pool.
 *
 * The page numbers are laid out by pdfmake too (for each part, a printout of as many pages as the
 * part holds, each with only the number half of the foot, pieces.ts `footerContent`), so they are
 * in the document's own font, at the very place the whole foot puts them; each number page is
 * drawn over its page.
 *
 * The joined PDF is written a part at a time (`PdfWriter`): a part's pages are copied, written out
 * as bytes and let go before the next part is read, so the join holds one part's objects and the
 * bytes written so far, not the whole document's objects (D94).
 *
 * Without a frame (a class's report cards, D59: each card is complete and numbered on its own,
 * D84) the pages are only joined, and the first part's title and author are kept. Each part's
 * fonts are copied with its pages, which is why a part holds several cards.
 */
export async function joinPdfParts(frame: PrintoutFrame | null, parts: readonly Uint8Array[]): Promise<Uint8Array> {
  const load = (bytes: Uint8Array) => PDFDocument.load(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  const writer = new PdfWriter();
  if (frame === null) {
    for (const [index, bytes] of parts.entries()) {
      const part = await load(bytes);
      if (index === 0) writer.info = { Title: part.getTitle(), Author: part.getAuthor(), Subject: part.getSubject() };
      writer.addPages(part);
    }
    return writer.finish();
  }
  // 'Page n of m' needs m before the first part is written: the parts' page counts, read first.
  const pageCounts: number[] = [];
  for (const bytes of parts) pageCounts.push((await load(bytes)).getPageCount());
  const total = pageCounts.reduce((sum, count) => sum + count, 0);
  let before = 0;
  for (const [index, bytes] of parts.entries()) {
    const part = await load(bytes);
    await stampPageNumbers(part, frame, before, total);
    writer.addPages(part);
    before += pageCounts[index]!;
  }
  writer.info = { Title: frame.info?.title, Author: frame.info?.author, Creator: 'pdfmake', Producer: 'pdf-lib' };
  return writer.finish();
}

/** Draws 'Page n of m' on each page of a part whose first page is page `before + 1` of `total`. */
async function stampPageNumbers(part: PDFDocument, frame: PrintoutFrame, before: number, total: number): Promise<void> {
  const pageCount = part.getPageCount();
  const emptyPages: Content[] = Array.from({ length: pageCount }, (_, index) => (index === 0 ? { text: '' } : { text: '', pageBreak: 'before' }));
  const numbers = await printPdf({ ...frame, content: emptyPages }, 'page-number', { before, total });
  const stamps = await part.embedPdf(numbers, part.getPageIndices());
  // pdfkit leaves a page's coordinates flipped (its `1 0 0 -1 0 h cm`) when the page ends: each
  // page's own content goes inside q … Q, so the number is drawn in PDF's ordinary coordinates.
  const save = part.context.register(part.context.contentStream([pushGraphicsState()]));
  const restore = part.context.register(part.context.contentStream([popGraphicsState()]));
  part.getPages().forEach((page, index) => {
    page.node.wrapContentStreams(save, restore);
    page.drawPage(stamps[index]!);
  });
  // The stamps are written into the part's objects here, before its pages are copied.
  await part.flush();
}

/**
 * A PDF written as it is joined: the pages of each part added are copied (pdf-lib's
 * PDFObjectCopier, as `copyPages` does) into a context that only ever holds the part at hand;
 * their objects are written out as bytes, their offsets kept, and dropped from the context. The
 * page tree, the catalogue, the document's information, the cross-reference table and the
 * trailer are written last, as pdf-lib's own writer does (uncompressed: the pages' content is
 * compressed already).
 */
class PdfWriter {
  /** The document's information (title, author …), written with the trailer. */
  info: Record<string, string | undefined> = {};
  private readonly context = PDFContext.create();
  private readonly chunks: Uint8Array[] = [];
  private written = 0;
  private readonly offsets: [PDFRef, number][] = [];
  private readonly pageRefs: PDFRef[] = [];
  /** The page tree's root: every page names it as its parent, and it is written last. */
  private readonly pageTree = this.context.nextRef();

  constructor() {
    const header = PDFHeader.forVersion(1, 7);
    const bytes = new Uint8Array(header.sizeInBytes() + 2);
    header.copyBytesInto(bytes, 0);
    bytes.set([0x0a, 0x0a], bytes.length - 2);
    this.push(bytes);
  }

  /** Copies a part's pages in order, writes them out and lets them go. */
  addPages(part: PDFDocument): void {
    const copier = PDFObjectCopier.for(part.context, this.context);
    for (const page of part.getPages()) {
      const copied = copier.copy(page.node);
      copied.set(PDFName.of('Parent'), this.pageTree);
      this.pageRefs.push(this.context.register(copied));
    }
    this.writeObjects();
  }

  /** The whole file: what was written, then the page tree, catalogue, information and cross-references. */
  finish(): Uint8Array {
    const { context } = this;
    context.assign(this.pageTree, context.obj({ Type: 'Pages', Kids: this.pageRefs, Count: this.pageRefs.length }));
    const root = context.register(context.obj({ Type: 'Catalog', Pages: this.pageTree }));
    const info = context.obj({});
    for (const [key, value] of Object.entries(this.info)) if (value) info.set(PDFName.of(key), PDFHexString.fromText(value));
    const infoRef = context.register(info);
    this.writeObjects();
    const xref = PDFCrossRefSection.create();
    // The page tree's root was numbered first and written last: the table lists objects in order.
    for (const [ref, offset] of this.offsets.sort(([a], [b]) => a.objectNumber - b.objectNumber)) xref.addEntry(ref, offset);
    const xrefAt = this.written;
    const trailerDict = PDFTrailerDict.of(context.obj({ Size: context.largestObjectNumber + 1, Root: root, Info: infoRef }));
    const trailer = PDFTrailer.forLastCrossRefSectionOffset(xrefAt);
    const tail = new Uint8Array(xref.sizeInBytes() + 1 + trailerDict.sizeInBytes() + 2 + trailer.sizeInBytes());
    let at = xref.copyBytesInto(tail, 0);
    tail[at++] = 0x0a;
    at += trailerDict.copyBytesInto(tail, at);
    tail[at++] = 0x0a;
    tail[at++] = 0x0a;
    trailer.copyBytesInto(tail, at);
    this.push(tail);
    const whole = new Uint8Array(this.written);
    let offset = 0;
    for (const chunk of this.chunks) {
      whole.set(chunk, offset);
      offset += chunk.length;
    }
    this.chunks.length = 0;
    return whole;
  }

  /** Writes every object the context holds as `n g obj … endobj` and removes it from the context. */
  private writeObjects(): void {
    for (const [ref, object] of this.context.enumerateIndirectObjects()) {
      this.offsets.push([ref, this.written]);
      this.push(indirectObjectBytes(ref, object));
      this.context.delete(ref);
    }
  }

  private push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.written += bytes.length;
  }
}

const encoder = new TextEncoder();
const END_OBJ = encoder.encode('\nendobj\n\n');

/** An indirect object as pdf-lib's writer writes it. */
function indirectObjectBytes(ref: PDFRef, object: PDFObject): Uint8Array {
  const head = encoder.encode(`${ref.objectNumber} ${ref.generationNumber} obj\n`);
  const bytes = new Uint8Array(head.length + object.sizeInBytes() + END_OBJ.length);
  bytes.set(head, 0);
  const end = head.length + object.copyBytesInto(bytes, head.length);
  bytes.set(END_OBJ, end);
  return bytes;
}
