import { createRequire } from 'node:module';
import type { FastifyReply } from 'fastify';
import type { TDocumentDefinitions, TFontDictionary } from 'pdfmake/interfaces.js';

/**
 * pdfmake on the server with the Roboto TTFs it ships, embedded in every document (DESIGN §2:
 * documents described as data). Features build a TDocumentDefinitions from the pieces in
 * pieces.ts and hand it here; nothing is written to disk.
 */

const require = createRequire(import.meta.url);
type PrinterClass = new (fonts: TFontDictionary) => {
  createPdfKitDocument(doc: TDocumentDefinitions): NodeJS.ReadableStream & { end(): void };
};
const PdfPrinter = require('pdfmake') as PrinterClass;
const vfs = require('pdfmake/build/vfs_fonts.js') as Record<string, string>;

const font = (file: string) => Buffer.from(vfs[file] ?? '', 'base64');
const FONTS: TFontDictionary = {
  Roboto: {
    normal: font('Roboto-Regular.ttf'),
    bold: font('Roboto-Medium.ttf'),
    italics: font('Roboto-Italic.ttf'),
    bolditalics: font('Roboto-MediumItalic.ttf'),
  },
} as unknown as TFontDictionary;

const printer = new PdfPrinter(FONTS);

/** Page sizes in PDF points (1/72 in). Legal is the spec's registration form paper (SPEC §9). */
export const PAGE_SIZES = {
  legal: { width: 612, height: 1008 },
  letter: { width: 612, height: 792 },
} as const;

/** Renders a document definition to PDF bytes. */
export function renderPdf(doc: TDocumentDefinitions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const pdf = printer.createPdfKitDocument({ ...doc, defaultStyle: { font: 'Roboto', fontSize: 9, ...doc.defaultStyle } });
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
