import type { Content } from 'pdfmake/interfaces.js';
import type { PrintoutSection } from '../pdf/printout.js';
import { parentsContactHeader, parentsContactSection, type ContactClass } from './parents-contact.js';
import { registrationClassSection, registrationSummary, type ClassSummary, type ReportClass, type ReportHeading } from './registration-report.pdf.js';

/**
 * The sections of the school-wide reports as rows, not as layout (D63): the main thread reads a
 * class and sends its rows; the pool's thread turns them into pdfmake content here, beside the
 * layout. A class's content tree (several objects a cell) then lives only on the thread that lays
 * it out, instead of waiting on the main thread's heap for the part ahead of it. The thread's
 * entry (src/server/worker-tasks.ts) hands `reportSectionContent` to the printer: pdf/ knows no
 * feature's sections (D87).
 */
export type ReportSection =
  | { layout: 'registration-class'; group: ReportClass }
  | { layout: 'registration-summary'; heading: ReportHeading; classes: ClassSummary[] }
  /** `heading`: the school's header opens the section (the report's first). */
  | { layout: 'parents-contact-class'; group: ContactClass; heading?: ReportHeading }
  | { layout: 'parents-contact-header'; heading: ReportHeading };

/**
 * A section's content, laid out from its rows (on the pool's thread). The section comes from
 * another thread as plain data, so its layout's name is checked here rather than trusted.
 */
export function reportSectionContent(printoutSection: PrintoutSection): Content {
  const section = printoutSection as ReportSection;
  switch (section.layout) {
    case 'registration-class':
      return registrationClassSection(section.group);
    case 'registration-summary':
      return registrationSummary(section.heading, section.classes);
    case 'parents-contact-class':
      return parentsContactSection(section.group, section.heading && parentsContactHeader(section.heading));
    case 'parents-contact-header':
      return parentsContactHeader(section.heading);
    default:
      throw new Error(`No report section is laid out as '${printoutSection.layout}'.`);
  }
}
