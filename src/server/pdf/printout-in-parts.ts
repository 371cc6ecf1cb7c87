// What makes a printout too large to lay out at once: its sections printed a part at a time, then joined.
import { runInWorker } from '../workers/worker-pool.js';
import type { PartSection, PrintoutFrame, PrintoutSection } from './printout.js';
import { asBuffer } from './render-on-pool.js';

/** Rows (a table's rows, roughly) a part of a printout made in parts holds at most: whole sections. */
export const ROWS_PER_PART = 1_000;

/**
 * A printout too large to lay out at once (a school-wide report), made a part at a time (D63).
 * The caller adds sections (a class each, as rows: `S`, whose layouts the thread's entry knows,
 * students/report-sections.ts) in order; each starts on a new page. Whole sections are gathered into
 * a part until the next would take it past `rowsPerPart` rows; the part's rows are then sent to
 * the pool, which lays it out and writes it while the caller gathers the next sections, and
 * `finish` joins the parts and numbers every page (join-parts.ts). A class larger than a part is
 * added in pieces of at most a part, each piece after the first `continued` (D94). Memory is one
 * part's layout and the finished parts' bytes, however large the school or a class; each part
 * costs ~25 ms of font set-up, hence parts of many small classes rather than one part a class.
 * Every part and the join are long work to the pool: a person's own document goes first.
 */
export class PdfInParts<S extends PrintoutSection = PrintoutSection> {
  private readonly parts: Promise<Uint8Array>[] = [];
  private batch: PartSection<S>[] = [];
  private batchRows = 0;
  private readonly rowsPerPart: number;
  private readonly openingLater: boolean;
  private sections = 0;

  /**
   * `openingLater`: the printout's first page is given to `finish`, after every section (a summary
   * that needs them all); otherwise the first section added opens the printout.
   */
  constructor(
    private readonly frame: PrintoutFrame,
    options: { rowsPerPart?: number; openingLater?: boolean } = {},
  ) {
    this.rowsPerPart = options.rowsPerPart ?? ROWS_PER_PART;
    this.openingLater = options.openingLater ?? false;
  }

  /**
   * Adds a section of about `rows` rows, starting on a new page. `continued`: the section goes on
   * with the one before (a piece of a class larger than a part, D94), and starts a part of its own.
   */
  async add(section: S, rows: number, options: { continued?: boolean } = {}): Promise<void> {
    if (this.batch.length > 0 && (options.continued || this.batchRows + rows > this.rowsPerPart)) await this.flush();
    const opensPrintout = this.sections === 0 && !this.openingLater;
    this.batch.push({ start: opensPrintout ? 'document' : this.batch.length > 0 ? 'page' : 'part', section });
    this.batchRows += rows;
    this.sections++;
  }

  /** The whole printout: the opening (with `openingLater`), the parts in order, every page numbered. */
  async finish(opening?: S): Promise<Buffer> {
    await this.flush();
    const first = this.openingLater && opening !== undefined ? [this.render([{ start: 'document', section: opening }])] : [];
    const parts = await Promise.all([...first, ...this.parts]);
    const answer = await runInWorker(
      { kind: 'join-pdfs', frame: this.frame, parts },
      { transferList: parts.map((part) => part.buffer as ArrayBuffer), batch: true },
    );
    return asBuffer(answer);
  }

  /** Sends the gathered sections as a part, once the part before it is done (one waits at a time). */
  private async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    await Promise.allSettled(this.parts.slice(-1));
    this.parts.push(this.render(this.batch));
    this.batch = [];
    this.batchRows = 0;
  }

  private render(sections: PartSection<S>[]): Promise<Uint8Array> {
    const rendering = runInWorker({ kind: 'render-pdf-part', frame: this.frame, sections }, { batch: true });
    // A failure surfaces in finish(); until then the promise must not count as unhandled.
    rendering.catch(() => undefined);
    return rendering;
  }
}
