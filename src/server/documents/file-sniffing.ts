import type { DocumentKind } from '../../shared/documents.schemas.js';
import { runInWorker, WorkerTaskFailed } from '../workers/worker-pool.js';
import type { PdfVerdict } from './pdf-inspection.js';

/**
 * What an uploaded file really is, decided from its bytes (magic numbers), never from its name
 * or the browser's Content-Type (OWASP File Upload cheat sheet: "validate the file type, don't
 * trust the Content-Type header"). Everything that is not a PDF, PNG or JPEG is refused, so an
 * executable, ZIP, HTML or SVG renamed to .pdf or .png never gets stored.
 */

const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_IHDR = Buffer.from('IHDR', 'latin1');
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

/** The kind of file the bytes are, or null for anything else. */
export function detectKind(bytes: Buffer): DocumentKind | null {
  // A PDF must start with its header: a polyglot with HTML in front is not a PDF here.
  if (bytes.length >= 8 && bytes.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC)) return 'pdf';
  // PNG: the signature, then the IHDR chunk the format requires first.
  if (bytes.length >= 33 && bytes.subarray(0, 8).equals(PNG_MAGIC) && bytes.subarray(12, 16).equals(PNG_IHDR)) return 'png';
  // JPEG: SOI followed by a marker.
  if (bytes.length >= 4 && bytes.subarray(0, 3).equals(JPEG_MAGIC)) return 'jpeg';
  return null;
}

declare module '../workers/worker-pool.js' {
  interface WorkerTasks {
    /** Parses an uploaded PDF on a thread (pdf-inspection.ts `inspectPdf`). */
    'inspect-pdf': { request: { bytes: Uint8Array }; answer: PdfVerdict };
  }
}

/** A PDF check's time limit: half a print's, a scan parses in well under a second. */
const INSPECT_TIME_LIMIT_MS = 30_000;

/** What keeps an uploaded PDF out (pdf-inspection.ts), or null when it may be stored. */
export type PdfProblem = 'active' | 'encrypted' | 'unreadable';

/**
 * Checks an uploaded PDF by parsing it (pdf-inspection.ts) on the worker pool: a 10 MiB scan takes
 * a few hundred milliseconds to parse, which no other request should wait for. A check that
 * times out or exhausts its thread's memory counts as a file that cannot be read. 503 (busy)
 * passes through.
 */
export async function findPdfProblem(bytes: Buffer): Promise<PdfProblem | null> {
  try {
    const verdict = await runInWorker({ kind: 'inspect-pdf', bytes }, { timeLimitMs: INSPECT_TIME_LIMIT_MS });
    return verdict.ok ? null : verdict.reason;
  } catch (error) {
    if (error instanceof WorkerTaskFailed) return 'unreadable';
    throw error;
  }
}
