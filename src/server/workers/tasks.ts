import { move } from 'piscina';
import type { PdfVerdict } from '../documents/pdf-inspection.js';
import type { PdfDocument, PdfFrame } from '../pdf/pdf-document.js';
import type { PartSection } from '../pdf/renderer.js';
import type { FooterPart } from '../pdf/pieces.js';
import type { SheetAnswer, SheetRequest } from '../spreadsheets/sheet-reader.js';

/**
 * What the worker pool's threads do (worker-pool.ts): one entry point, one kind of task each.
 * Inputs and answers are plain data (structured clone); PDF bytes come back transferred, not
 * copied. Each kind loads its libraries on first use, so a thread that only prints never loads
 * the PDF parser, and one that only reads spreadsheets never loads pdfmake.
 */

export type TaskRequest =
  | { kind: 'render-pdf'; doc: PdfDocument; footerPart?: FooterPart }
  | { kind: 'render-pdf-part'; frame: PdfFrame; sections: PartSection[] }
  | { kind: 'join-pdfs'; frame: PdfFrame | null; parts: Uint8Array[] }
  | { kind: 'inspect-pdf'; bytes: Uint8Array }
  | { kind: 'read-spreadsheet'; bytes: Uint8Array; request: SheetRequest };

interface Answers {
  'render-pdf': Uint8Array;
  'render-pdf-part': Uint8Array;
  'join-pdfs': Uint8Array;
  'inspect-pdf': PdfVerdict;
  'read-spreadsheet': SheetAnswer;
}
export type TaskAnswer<T extends TaskRequest> = Answers[T['kind']];

/** Bytes to hand back without a copy: the view must own its whole buffer to be transferred. */
function transferable(bytes: Uint8Array): Uint8Array {
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
  return move(owned) as Uint8Array;
}

export default async function runTask(task: TaskRequest): Promise<Answers[TaskRequest['kind']]> {
  switch (task.kind) {
    case 'render-pdf': {
      const { printPdf } = await import('../pdf/pdf-printer.js');
      return transferable(await printPdf(task.doc, task.footerPart));
    }
    case 'render-pdf-part': {
      const { printPart } = await import('../pdf/part-printer.js');
      return transferable(await printPart(task.frame, task.sections));
    }
    case 'join-pdfs': {
      const { joinPdfParts } = await import('../pdf/pdf-parts.js');
      return transferable(await joinPdfParts(task.frame, task.parts));
    }
    case 'inspect-pdf': {
      const { inspectPdf } = await import('../documents/pdf-inspection.js');
      return inspectPdf(task.bytes);
    }
    case 'read-spreadsheet': {
      const { readSheet } = await import('../spreadsheets/sheet-reader.js');
      return readSheet(task.bytes, task.request);
    }
  }
}
