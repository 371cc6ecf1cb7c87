import { createRequire } from 'node:module';
import type { FastifyReply } from 'fastify';
import type { TDocumentDefinitions, TFontDictionary } from 'pdfmake/interfaces.js';

/**
 * pdfmake on the server with the Roboto TTFs it ships, embedded in every document (DESIGN §2:
 * documents described as data). Features build a TDocumentDefinitions from the pieces in
 * pieces.ts and hand it here; nothing is written to disk.
 *
 * pdfmake and its fonts load with the first document, not when the server starts: 27 MB that a
 * process which never prints does not hold (docs/performance.md).
 */

type Printer = {
  createPdfKitDocument(doc: TDocumentDefinitions): NodeJS.ReadableStream & { end(): void };
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
 * A printer per document lets each go with its reply; making one costs nothing (the fonts are
 * loaded once).
 */
function newPrinter(): Printer {
  const { PdfPrinter, fonts } = loadPdfmake();
  return new PdfPrinter(fonts);
}

/** Page sizes in PDF points (1/72 in). Legal is the spec's registration form paper (SPEC §9). */
export const PAGE_SIZES = {
  legal: { width: 612, height: 1008 },
  letter: { width: 612, height: 792 },
} as const;

/** Renders a document definition to PDF bytes. */
export function renderPdf(doc: TDocumentDefinitions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const pdf = newPrinter().createPdfKitDocument({ ...doc, defaultStyle: { font: 'Roboto', fontSize: 9, ...doc.defaultStyle } });
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    pdf.end();
  });
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
