import type { FastifyReply } from 'fastify';
import { runInWorker } from '../workers/worker-pool.js';
import type { PdfDocument } from './pdf-document.js';

export type { PdfDocument, PdfImage } from './pdf-document.js';

/**
 * Every document of the portal (report card, registration form, attendance report, registration
 * report, parents contact) is rendered here: features build a PdfDocument from the pieces in
 * pieces.ts and hand it to `renderPdf`, which lays it out on a thread of the worker pool
 * (pdf-printer.ts), so a 2,000-student report never holds other users' requests (D33).
 */

/** Page sizes in PDF points (1/72 in). Legal is the spec's registration form paper (SPEC §9). */
export const PAGE_SIZES = {
  legal: { width: 612, height: 1008 },
  letter: { width: 612, height: 792 },
} as const;

/** Renders a document to PDF bytes, off the event loop. */
export async function renderPdf(doc: PdfDocument): Promise<Buffer> {
  const answer = await runInWorker({ kind: 'render-pdf', doc });
  return Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
}

/** Joins rendered PDFs into one, their pages in order, off the event loop (the parts are handed over, not copied). */
export async function joinPdfParts(parts: readonly Buffer[]): Promise<Buffer> {
  // Each part gets a buffer of its own to hand to the thread (a Buffer may share a pooled one).
  const owned = parts.map((part) => new Uint8Array(part));
  const answer = await runInWorker({ kind: 'join-pdfs', parts: owned }, owned.map((part) => part.buffer));
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
