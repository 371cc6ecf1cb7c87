import { PDFDocument } from 'pdf-lib';

/**
 * Joins PDFs into one, their pages in order, keeping the first part's title (a class's report
 * cards rendered a part at a time, D59). Runs on a thread of the worker pool (tasks.ts
 * 'join-pdfs'): copying pages and writing the joined file is CPU work the event loop should not
 * do. pdf-lib copies each part's fonts with its pages, which is why a part holds several cards.
 */
export async function joinPdfs(parts: readonly Uint8Array[]): Promise<Uint8Array> {
  const joined = await PDFDocument.create();
  for (const [index, part] of parts.entries()) {
    const source = await PDFDocument.load(part, { updateMetadata: false });
    if (index === 0) {
      joined.setTitle(source.getTitle() ?? '');
      joined.setAuthor(source.getAuthor() ?? '');
      joined.setSubject(source.getSubject() ?? '');
    }
    for (const page of await joined.copyPages(source, source.getPageIndices())) joined.addPage(page);
  }
  return joined.save();
}
