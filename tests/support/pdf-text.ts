import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfSummary {
  pages: number;
  /** [width, height] of each page in points. */
  pageSizes: Array<[number, number]>;
  /** All text, page by page, items joined by spaces. */
  text: string;
  pageTexts: string[];
  /** The text with all white space removed: for words that wrapped or split across items. */
  compact: string;
}

/** Reads a PDF back (text and page sizes), so tests check content, never bytes (docs/architecture.md "PDFs"). */
export async function readPdf(bytes: Uint8Array | Buffer): Promise<PdfSummary> {
  const data = new Uint8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const doc = await getDocument({ data, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  const pageSizes: Array<[number, number]> = [];
  const pageTexts: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const [x0, y0, x1, y1] = page.view as [number, number, number, number];
    pageSizes.push([Math.round(x1 - x0), Math.round(y1 - y0)]);
    const content = await page.getTextContent();
    pageTexts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' ').replace(/\s+/g, ' '));
  }
  await doc.destroy();
  const text = pageTexts.join('\n');
  return { pages: doc.numPages, pageSizes, text, pageTexts, compact: text.replace(/\s+/g, '') };
}
