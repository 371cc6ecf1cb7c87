import type { Content } from 'pdfmake/interfaces.js';
import { COLORS, dataTable, keyValueGrid, pageFooter, schoolHeader, sectionTitle } from '../pdf/pieces.js';
import { PAGE_SIZES, type Printout } from '../pdf/printout.js';

/**
 * The printable notice of the office's decisions (docs/decisions.md D81): a letter for the family
 * saying what to fix — the returned registration's note and steps, each returned document and its
 * reason — for the families no e-mail reaches, or for the office to hand over.
 */

export const FAMILY_NOTICE_TITLE = 'What to fix in your registration';

export interface FamilyNoticeInput {
  schoolName: string;
  /** Where families open the portal (PUBLIC_URL). */
  portalUrl: string;
  student: { id: string; name: string; className: string };
  /** The returned registration's note and the steps it names; null when the record is not returned. */
  registration: { note: string; steps: readonly string[] } | null;
  /** Each returned document: its slot's label and the reason. */
  returnedDocuments: ReadonlyArray<{ label: string; reason: string }>;
  /** 'yyyy-MM-dd HH:mm' in the school's time zone. */
  printedAt: string;
}

function whatToFix(input: FamilyNoticeInput): Content[] {
  const parts: Content[] = [];
  if (input.registration) {
    parts.push(sectionTitle('The registration was returned'));
    parts.push({ text: input.registration.note, margin: [0, 2, 0, 4] });
    parts.push({ text: `Steps to correct: ${input.registration.steps.join(', ')}.`, margin: [0, 0, 0, 6] });
  }
  if (input.returnedDocuments.length > 0) {
    parts.push(sectionTitle('Documents to upload again'));
    parts.push(dataTable(['Document', 'Why it was returned'], input.returnedDocuments.map((doc) => [doc.label, doc.reason]), ['35%', '*']));
  }
  if (parts.length === 0) {
    parts.push({ text: 'Nothing is waiting for you to fix at the moment: the office has returned nothing.', margin: [0, 8, 0, 8] });
  }
  return parts;
}

/** The notice as one page (or more, for a long list) on Letter paper. */
export function buildFamilyNotice(input: FamilyNoticeInput): Printout {
  return {
    info: { title: `${FAMILY_NOTICE_TITLE} — ${input.student.name}` },
    pageSize: PAGE_SIZES.letter,
    pageMargins: [50, 40, 50, 50],
    content: [
      schoolHeader(input.schoolName, FAMILY_NOTICE_TITLE, 'For the parent or guardian of'),
      keyValueGrid(
        [
          ['Student', input.student.name],
          ['Student ID', input.student.id],
          ['Class', input.student.className],
        ],
        3,
      ),
      ...whatToFix(input),
      sectionTitle('How to fix it'),
      {
        ol: [
          `Open ${input.portalUrl} on a phone or computer and sign in (the student's ID and password, or your family account).`,
          'Correct the steps named above and upload each returned document again on the Documents step.',
          'The school office checks it again; you can follow where it stands on the portal.',
        ],
        margin: [0, 4, 0, 10],
      },
      { text: 'No access to the portal? Bring the documents to the school office.', fontSize: 10, color: COLORS.muted },
    ],
    footer: pageFooter(`${input.schoolName} · Registration notice · printed ${input.printedAt}`),
    defaultStyle: { fontSize: 11 },
  };
}
