import type { Content } from 'pdfmake/interfaces.js';
import { parentsContactHeader, parentsContactSection, type ContactClass } from './parents-contact.js';
import { registrationClassSection, registrationSummary, type ClassSummary, type ReportClass, type ReportHeading } from './registration-report.pdf.js';

/**
 * The sections of the school-wide documents as rows, not as layout (D63): the main thread reads a
 * class and sends its rows; the pool's thread turns them into pdfmake content here, beside the
 * layout. A class's content tree (several objects a cell) then lives only on the thread that lays
 * it out, instead of waiting on the main thread's heap for the part ahead of it.
 */
export type DocumentSection =
  | { layout: 'registration-class'; group: ReportClass }
  | { layout: 'registration-summary'; heading: ReportHeading; classes: ClassSummary[] }
  /** `heading`: the school's header opens the section (the document's first). */
  | { layout: 'parents-contact-class'; group: ContactClass; heading?: ReportHeading }
  | { layout: 'parents-contact-header'; heading: ReportHeading };

/** A section's content, laid out from its rows (on the pool's thread). */
export function sectionContent(section: DocumentSection): Content {
  switch (section.layout) {
    case 'registration-class':
      return registrationClassSection(section.group);
    case 'registration-summary':
      return registrationSummary(section.heading, section.classes);
    case 'parents-contact-class':
      return parentsContactSection(section.group, section.heading && parentsContactHeader(section.heading));
    case 'parents-contact-header':
      return parentsContactHeader(section.heading);
  }
}
