import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { PageFooter } from './pieces.js';

/**
 * A document as plain data (docs/architecture.md "PDFs"): pdfmake's definition, with
 * the portal's page footer named rather than written as a function, table layouts named
 * (pieces.ts TABLE_LAYOUTS), and pictures as bytes. Being data, it crosses to the rendering
 * thread as it is; the renderer (pdf-printer.ts) turns the names back into what pdfmake needs.
 */
export interface PdfDocument extends Omit<TDocumentDefinitions, 'footer' | 'header' | 'background' | 'pageBreakBefore' | 'images'> {
  footer?: PageFooter;
  /** Pictures by name (`{ image: name }` in the content): PNG or JPEG bytes. */
  images?: Record<string, PdfImage>;
}

export interface PdfImage {
  mime: 'image/png' | 'image/jpeg';
  bytes: Uint8Array;
}

/**
 * What every part of a document made in parts shares (renderer.ts `renderPdfPart`,
 * `joinPdfParts`): the page, its margins, the foot and the title; each part adds its content.
 */
export type PdfFrame = Omit<PdfDocument, 'content'>;
