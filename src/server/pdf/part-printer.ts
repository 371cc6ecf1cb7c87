import type { Content } from 'pdfmake/interfaces.js';
import { sectionContent } from '../admin/document-sections.js';
import type { PdfFrame } from './pdf-document.js';
import { printPdf } from './pdf-printer.js';
import type { PartSection, SectionStart } from './renderer.js';

/**
 * Lays out a part of a document made in parts (renderer.ts PdfInParts, D63) on a pool thread: its
 * sections' rows become content here, so the main thread only ever holds rows. Inside a part a
 * section starts with a page break. A part starts on a new page by itself: its first section gets
 * the empty line the page break stands on, so its rows fall on the pages they would in one whole
 * document. The document's opening stands at the top of page 1.
 */
function startOf(start: SectionStart): Content[] {
  // New objects each time: pdfmake writes its measurements into the content it lays out.
  if (start === 'part') return [{ text: '' }];
  if (start === 'page') return [{ text: '', pageBreak: 'before' }];
  return [];
}

export function printPart(frame: PdfFrame, sections: readonly PartSection[]): Promise<Buffer> {
  const content = sections.flatMap(({ start, section }) => [...startOf(start), sectionContent(section)]);
  return printPdf({ ...frame, content }, 'small-print');
}
