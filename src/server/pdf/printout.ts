// A printout as plain data: what a feature builds and the pool's threads lay out.
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { PageFooter } from './pieces.js';

/**
 * A printout as plain data (a generated PDF: report card, registration form, class reports):
 * pdfmake's definition, with the portal's page footer named rather than written as a function,
 * table layouts named (pieces.ts TABLE_LAYOUTS), and pictures as bytes. Being data, it crosses to
 * the printing thread as it is; thread-printer.ts turns the names back into what pdfmake needs.
 */
export interface Printout extends Omit<TDocumentDefinitions, 'footer' | 'header' | 'background' | 'pageBreakBefore' | 'images'> {
  footer?: PageFooter;
  /** Pictures by name (`{ image: name }` in the content): PNG or JPEG bytes. */
  images?: Record<string, PdfImage>;
}

export interface PdfImage {
  mime: 'image/png' | 'image/jpeg';
  bytes: Uint8Array;
}

/**
 * What every part of a printout made in parts shares (printout-in-parts.ts, join-parts.ts): the
 * page, its margins, the foot and the title; each part adds its content.
 */
export type PrintoutFrame = Omit<Printout, 'content'>;

/** Page sizes in PDF points (1/72 in). Legal is the registration form's paper. */
export const PAGE_SIZES = {
  legal: { width: 612, height: 1008 },
  letter: { width: 612, height: 792 },
} as const;

/**
 * A section of a printout made in parts, as rows rather than layout (D63): plain data naming the
 * layout that turns it into content on the thread. The feature that adds sections owns their
 * layouts, and the thread's entry (src/server/worker-tasks.ts) hands them to the printer (D87).
 */
export interface PrintoutSection {
  layout: string;
}

/** Where a section of a part starts: the top of the part, a new page, or the top of page 1. */
export type SectionStart = 'part' | 'page' | 'document';

/** A section of a part, as the thread lays it out (thread-printer.ts `printPart`). */
export interface PartSection<S extends PrintoutSection = PrintoutSection> {
  start: SectionStart;
  section: S;
}
