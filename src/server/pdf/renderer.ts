import type { FastifyReply } from 'fastify';
import type { DocumentSection } from '../admin/document-sections.js';
import { runInWorker } from '../workers/worker-pool.js';
import type { PdfDocument, PdfFrame } from './pdf-document.js';

export type { PdfDocument, PdfFrame, PdfImage } from './pdf-document.js';

/**
 * Every document of the portal (report card, registration form, attendance report, registration
 * report, parents contact) is rendered here: features build a PdfDocument from the pieces in
 * pieces.ts and hand it to `renderPdf`, which lays it out on a thread of the worker pool
 * (pdf-printer.ts), so a 2,000-student report never holds other users' requests (D33).
 */

/** Page sizes in PDF points (1/72 in). Legal is the registration form's paper (docs/requirements.md R8). */
export const PAGE_SIZES = {
  legal: { width: 612, height: 1008 },
  letter: { width: 612, height: 792 },
} as const;

/** Renders a document to PDF bytes, off the event loop. */
export async function renderPdf(doc: PdfDocument): Promise<Buffer> {
  const answer = await runInWorker({ kind: 'render-pdf', doc });
  return Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
}

/** Rows (a table's rows, roughly) a part of a document made in parts holds at most: whole sections. */
export const ROWS_PER_PART = 1_000;

/** Where a section of a part starts: the top of the part, a new page, or the top of page 1. */
export type SectionStart = 'part' | 'page' | 'document';

/** A section of a part, as the thread lays it out (part-printer.ts `printPart`). */
export interface PartSection {
  start: SectionStart;
  section: DocumentSection;
}

/**
 * A document too large to lay out at once (a school-wide report), made a part at a time (D63).
 * The caller adds sections (a class each, as rows: admin/document-sections.ts) in order; each
 * starts on a new page. Whole sections are gathered into a part until the next would take it past
 * `rowsPerPart` rows; the part's rows are then sent to the pool, which lays it out and writes it
 * while the caller gathers the next sections, and `finish` joins the parts and numbers every page
 * (pdf-parts.ts). Memory is one part's layout and the finished parts' bytes, however large the
 * school; each part costs ~25 ms of font set-up, hence parts of many small classes rather than one
 * part a class.
 */
export class PdfInParts {
  private readonly parts: Promise<Uint8Array>[] = [];
  private batch: PartSection[] = [];
  private batchRows = 0;
  private readonly rowsPerPart: number;
  private readonly openingLater: boolean;
  private sections = 0;

  /**
   * `openingLater`: the document's first page is given to `finish`, after every section (a summary
   * that needs them all); otherwise the first section added opens the document.
   */
  constructor(
    private readonly frame: PdfFrame,
    options: { rowsPerPart?: number; openingLater?: boolean } = {},
  ) {
    this.rowsPerPart = options.rowsPerPart ?? ROWS_PER_PART;
    this.openingLater = options.openingLater ?? false;
  }

  /** Adds a section of about `rows` rows, starting on a new page. */
  async add(section: DocumentSection, rows: number): Promise<void> {
    if (this.batch.length > 0 && this.batchRows + rows > this.rowsPerPart) await this.flush();
    const opensDocument = this.sections === 0 && !this.openingLater;
    this.batch.push({ start: opensDocument ? 'document' : this.batch.length > 0 ? 'page' : 'part', section });
    this.batchRows += rows;
    this.sections++;
  }

  /** The whole document: the opening (with `openingLater`), the parts in order, every page numbered. */
  async finish(opening?: DocumentSection): Promise<Buffer> {
    await this.flush();
    const first = this.openingLater && opening !== undefined ? [this.render([{ start: 'document', section: opening }])] : [];
    const parts = await Promise.all([...first, ...this.parts]);
    const answer = await runInWorker(
      { kind: 'join-pdfs', frame: this.frame, parts },
      parts.map((part) => part.buffer as ArrayBuffer),
    );
    return Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
  }

  /** Sends the gathered sections as a part, once the part before it is done (one waits at a time). */
  private async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    await Promise.allSettled(this.parts.slice(-1));
    this.parts.push(this.render(this.batch));
    this.batch = [];
    this.batchRows = 0;
  }

  private render(sections: PartSection[]): Promise<Uint8Array> {
    const rendering = runInWorker({ kind: 'render-pdf-part', frame: this.frame, sections });
    // A failure surfaces in finish(); until then the promise must not count as unhandled.
    rendering.catch(() => undefined);
    return rendering;
  }
}

/**
 * Joins rendered PDFs into one, their pages in order, off the event loop (a class's report cards
 * rendered a part at a time, D59): the same join as a document made in parts, without page numbers.
 */
export async function joinRenderedPdfs(parts: readonly Buffer[]): Promise<Buffer> {
  // Each part gets a buffer of its own to hand to the thread (a Buffer may share a pooled one).
  const owned = parts.map((part) => new Uint8Array(part));
  const answer = await runInWorker({ kind: 'join-pdfs', frame: null, parts: owned }, owned.map((part) => part.buffer));
  return Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
}

/** Sends PDF bytes to be shown in a frame (inline) or saved (attachment), never cached by proxies. */
export function sendPdf(reply: FastifyReply, bytes: Buffer, fileName: string, disposition: 'inline' | 'attachment' = 'inline') {
  const safeName = fileName.replace(/[^\w .()-]/g, '_');
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `${disposition}; filename="${safeName}"`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(bytes);
}
