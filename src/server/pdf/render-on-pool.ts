// What hands a printout to the worker pool: renderPdf, and the join of printouts made apart.
import { runInWorker } from '../workers/worker-pool.js';
import type { PartSection, PrintoutFrame, Printout } from './printout.js';

declare module '../workers/worker-pool.js' {
  interface WorkerTasks {
    /** Lays out and writes a whole printout (thread-printer.ts `printPdf`). */
    'render-pdf': { request: { printout: Printout }; answer: Uint8Array };
    /** Lays out and writes a part of a printout made in parts (thread-printer.ts `printPart`). */
    'render-pdf-part': { request: { frame: PrintoutFrame; sections: PartSection[] }; answer: Uint8Array };
    /** Joins printed parts into one PDF, numbering its pages when framed (join-parts.ts). */
    'join-pdfs': { request: { frame: PrintoutFrame | null; parts: Uint8Array[] }; answer: Uint8Array };
  }
}

/**
 * Every printout of the portal (report card, registration form, attendance report, registration
 * report, parents contact) is rendered here: features build a Printout from the pieces in
 * pieces.ts and hand it to `renderPdf`, which lays it out on a thread of the worker pool
 * (thread-printer.ts), so a 2,000-student report never holds other users' requests (D33).
 */

/** The bytes a thread hands back, as a Buffer over the same memory. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Renders a printout to PDF bytes, off the event loop. `batch`: the printout is a piece of long
 * work (a part of a class's report cards), queued after the documents a person is waiting on
 * (worker-pool.ts).
 */
export async function renderPdf(printout: Printout, options: { batch?: boolean } = {}): Promise<Buffer> {
  return asBuffer(await runInWorker({ kind: 'render-pdf', printout }, options));
}

/**
 * Joins rendered PDFs into one, their pages in order, off the event loop (a class's report cards
 * rendered a part at a time, D59): the same join as a printout made in parts, without page numbers;
 * queued as long work.
 */
export async function joinRenderedPdfs(parts: readonly Buffer[]): Promise<Buffer> {
  // Each part gets a buffer of its own to hand to the thread (a Buffer may share a pooled one).
  const owned = parts.map((part) => new Uint8Array(part));
  return asBuffer(await runInWorker({ kind: 'join-pdfs', frame: null, parts: owned }, { transferList: owned.map((part) => part.buffer), batch: true }));
}
