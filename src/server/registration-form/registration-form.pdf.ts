import type { Content, ContentTable } from 'pdfmake/interfaces.js';
import type { FormBlock, FormRow, FormSection, RegistrationFormContent } from '../../shared/registration-form.schemas.js';
import { checklist, COLORS, keyValueGrid, pageFooter, photoBox, schoolHeader, sectionTitle as band, signatureLines } from '../pdf/pieces.js';
import { PAGE_SIZES, type Printout } from '../pdf/printout.js';
import { FORM_TITLE, registrationFormContent, type RegistrationFormData } from './registration-form.content.js';

export { FORM_TITLE, type RegistrationFormData };

/**
 * The printable registration form (Legal paper, 8 1/2 x 14; `/api/registration-form/{studentId}`):
 * the content of `registration-form.content.ts`
 * (the phone's view shows the same, D75) laid out on one Legal page for a usual record: header,
 * the student beside the picture, every section in the catalogue's order, the documents received,
 * the terms with who agreed, and lines to sign. A record filled to every maximum length flows
 * onto a second page.
 */

/**
 * Lets a long unbroken run (an e-mail address, a note typed without spaces) wrap inside its
 * column instead of running off the page: a zero-width space (Roboto draws it with no width)
 * after every 24 characters of a run.
 */
function breakLongRuns(text: string): string {
  return text.replace(/\S{24}(?=\S)/gu, '$&\u200B');
}

const pairsOf = (rows: readonly FormRow[]) => rows.map((row) => [row.label, row.value === null ? null : breakLongRuns(row.value)] as const);
const subTitle = (text: string): Content => ({ text, bold: true, fontSize: 8, color: COLORS.accent, margin: [0, 2, 0, 1] });
const COMPACT = { compact: true } as const;
/** The shared section band with less space around it (one page of Legal for a usual record). */
const sectionTitle = (text: string): Content => ({ ...(band(text) as ContentTable), margin: [0, 5, 0, 2] });

/** A block in its printed place: columns for a grid, one row a line otherwise, with its heading. */
function blockContent(block: FormBlock, columns = block.place === 'grid' ? 3 : block.place === 'photo' ? 2 : 1): Content {
  const grid = keyValueGrid(pairsOf(block.rows), columns, COMPACT);
  return block.title === null ? grid : { stack: [subTitle(block.title), grid] };
}

function studentSection(section: FormSection, hasPicture: boolean): Content[] {
  const [beside, ...rest] = section.blocks;
  return [
    sectionTitle(section.title),
    {
      columns: [
        { width: '*', stack: beside ? [blockContent(beside)] : [] },
        { width: 90, stack: [photoBox(hasPicture ? 'picture' : null, { width: 88, height: 110, caption: 'Affix photo' })] },
      ],
      columnGap: 10,
    },
    ...rest.map((block) => blockContent(block)),
  ];
}

/** Parents side by side in two columns; a single parent beside the family size and emergency contact. */
function familySection(section: FormSection): Content[] {
  const parents = section.blocks.filter((block) => block.place === 'parent').map((block) => blockContent(block));
  const others = section.blocks.filter((block) => block.place !== 'parent').map((block) => blockContent(block));
  const rows: Content[][] = parents.length === 1 ? [[parents[0]!, { stack: others }]] : [parents, others].filter((row) => row.length > 0);
  return [
    sectionTitle(section.title),
    ...rows.map((row): Content => ({ columns: row.length === 1 ? [row[0]!, { text: '' }] : row, columnGap: 16 })),
  ];
}

function sectionContent(section: FormSection, hasPicture: boolean): Content[] {
  if (section.key === 'student') return studentSection(section, hasPicture);
  if (section.key === 'family') return familySection(section);
  return [sectionTitle(section.title), ...section.blocks.map((block) => blockContent(block))];
}

function documentsSection(content: RegistrationFormContent): Content[] {
  const items = content.documents.map((document) => ({ label: document.label, checked: document.received, note: document.note }));
  const half = Math.ceil(items.length / 2);
  return [sectionTitle(content.documentsTitle), { columns: [checklist(items.slice(0, half)), checklist(items.slice(half))], columnGap: 24 }];
}

function termsSection({ terms }: RegistrationFormContent): Content[] {
  const half = Math.ceil(terms.paragraphs.length / 2);
  return [
    sectionTitle(terms.title),
    {
      // Two columns of small print keep the terms, the declaration and the signatures on page one.
      columns: [0, 1].map((column) => ({
        ol: terms.paragraphs
          .map((text) => ({ text, fontSize: 7, margin: [0, 0, 0, 1] as [number, number, number, number] }))
          .slice(column === 0 ? 0 : half, column === 0 ? half : undefined),
        start: column === 0 ? 1 : half + 1,
      })),
      columnGap: 14,
      margin: [4, 0, 4, 3],
    },
    {
      // The declaration and the lines to sign stay together on one page.
      unbreakable: true,
      stack: [
        { text: [{ text: `${terms.declaration} ` }, { text: terms.agreement, bold: true }], margin: [4, 2, 4, 0] },
        signatureLines(terms.signatures),
      ],
    },
  ];
}

/** The document definition of the registration form (tests read its text back from the PDF). */
export function buildRegistrationForm(data: RegistrationFormData): Printout {
  const content = registrationFormContent(data);
  const name = content.studentName;
  return {
    pageSize: PAGE_SIZES.legal,
    pageMargins: [36, 24, 36, 36],
    info: { title: `${FORM_TITLE} – ${name} (${data.studentId})`, author: data.schoolName, subject: FORM_TITLE },
    defaultStyle: { fontSize: 8 },
    footer: pageFooter(`${data.schoolName} · ${FORM_TITLE} · ${name} (${data.studentId}) · printed ${data.printedAt}`),
    ...(data.picture ? { images: { picture: data.picture } } : {}),
    content: [
      schoolHeader(data.schoolName, content.title, `${name} · Student ID ${data.studentId}`),
      ...content.sections.flatMap((section) => sectionContent(section, data.picture !== null)),
      ...documentsSection(content),
      ...termsSection(content),
    ],
  };
}
