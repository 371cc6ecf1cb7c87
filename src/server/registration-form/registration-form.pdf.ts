import type { Content, ContentTable } from 'pdfmake/interfaces.js';
import { DOCUMENT_SLOTS, isSlotRequired } from '../../shared/documents.schemas.js';
import {
  fieldsOfStep,
  formatPhone,
  isFieldVisible,
  visibleSections,
  type FieldSection,
  type RecordValues,
  type RegistrationField,
} from '../../shared/registration.fields.js';
import { TERMS_DECLARATION, TERMS_PARAGRAPHS, TERMS_TITLE } from '../../shared/terms.js';
import { checklist, COLORS, keyValueGrid, pageFooter, photoBox, schoolHeader, sectionTitle as band, signatureLines } from '../pdf/pieces.js';
import { PAGE_SIZES, type PdfDocument, type PdfImage } from '../pdf/renderer.js';

/**
 * The printable registration form (SPEC §1 "print the registration form (Legal paper, 8 1/2 x
 * 14)", §7 `/api/registration-form/{studentId}`): a school's form on one Legal page for a usual
 * record: header, the student with the picture, every section of the record in the catalogue's
 * order (family by living status), the documents received, the terms with the date agreed, and
 * lines to sign. A record filled to every maximum length flows onto a second page.
 */

export interface RegistrationFormData {
  schoolName: string;
  studentId: string;
  /** Column → stored value, as the catalogue reads it. */
  record: RecordValues;
  /** Readable names of lookup codes: religion_code, ethnic_group_code, house_code → code → name. */
  lookupLabels: Readonly<Record<string, ReadonlyMap<string, string>>>;
  /** Document types uploaded. */
  uploaded: ReadonlySet<string>;
  /** The office's review of each uploaded document: submitted, accepted or returned. */
  reviewStates: ReadonlyMap<string, 'submitted' | 'accepted' | 'returned'>;
  /** The student's picture (PNG or JPEG bytes), or null. */
  picture: PdfImage | null;
  /** 'yyyy-MM-dd' or null. */
  agreedOn: string | null;
  /** 'yyyy-MM-dd HH:mm' in the school's time zone. */
  printedAt: string;
}

export const FORM_TITLE = 'Student Registration Form';

/** A stored value as printed: switches Yes/No, phones with the area prefix, codes by name. */
function printable(field: RegistrationField, data: RegistrationFormData): string | null {
  const raw = data.record[field.name];
  if (field.control === 'switch') return Number(raw) === 1 ? 'Yes' : 'No';
  if (raw === null || raw === undefined || String(raw).trim() === '') return null;
  const text = String(raw);
  if (field.control === 'phone') return formatPhone(text);
  const label = data.lookupLabels[field.name]?.get(text);
  return breakLongRuns(label ?? text);
}

/**
 * Lets a long unbroken run (an e-mail address, a note typed without spaces) wrap inside its
 * column instead of running off the page: a zero-width space (Roboto draws it with no width)
 * after every 24 characters of a run.
 */
function breakLongRuns(text: string): string {
  return text.replace(/\S{24}(?=\S)/gu, '$&\u200B');
}

/** In a parent's own block "Mother's Occupation" reads "Occupation". */
const shortLabel = (label: string) => label.replace(/^(Mother|Father|Guardian)'s /, '').replace(/^./, (c) => c.toUpperCase());

const pairsOf = (fields: readonly RegistrationField[], data: RegistrationFormData, short = false) =>
  fields.map((field) => [short ? shortLabel(field.label) : field.label, printable(field, data)] as const);

/** The shown fields of a step, optionally only those of some sections. */
function shown(step: RegistrationField['step'], data: RegistrationFormData, sections?: readonly (FieldSection | undefined)[]): RegistrationField[] {
  return fieldsOfStep(step).filter(
    (field) => isFieldVisible(field, data.record) && (sections === undefined || sections.includes(field.section)),
  );
}

const subTitle = (text: string): Content => ({ text, bold: true, fontSize: 8, color: COLORS.accent, margin: [0, 2, 0, 1] });
const COMPACT = { compact: true } as const;
/** The shared section band with less space around it (one page of Legal for a usual record). */
const sectionTitle = (text: string): Content => ({ ...(band(text) as ContentTable), margin: [0, 5, 0, 2] });

/** Long answers (health notes, achievements) get the full width. */
const isLong = (field: RegistrationField) => field.control === 'textarea';

function grid(fields: readonly RegistrationField[], data: RegistrationFormData, options: { columns?: number; shortLabels?: boolean } = {}): Content[] {
  const brief = fields.filter((field) => !isLong(field));
  const long = fields.filter(isLong);
  return [
    ...(brief.length > 0 ? [keyValueGrid(pairsOf(brief, data, options.shortLabels), options.columns ?? 3, COMPACT)] : []),
    ...(long.length > 0 ? [keyValueGrid(pairsOf(long, data), 1, COMPACT)] : []),
  ];
}

function studentName(record: RecordValues, studentId: string): string {
  const name = [record.first_name, record.middle_name, record.last_name].filter((part) => typeof part === 'string' && part.trim() !== '').join(' ');
  return name || studentId;
}

function studentSection(data: RegistrationFormData): Content[] {
  // Who the student is and where they live, beside the photo; the rest below in three columns.
  const beside = shown('student', data, ['identity', 'school', 'address', 'contact']);
  return [
    sectionTitle('Student'),
    {
      columns: [
        { width: '*', stack: [keyValueGrid([['Student ID', data.studentId], ...pairsOf(beside, data)], 2, COMPACT)] },
        { width: 90, stack: [photoBox(data.picture ? 'picture' : null, { width: 88, height: 110, caption: 'Affix photo' })] },
      ],
      columnGap: 10,
    },
    ...grid(shown('student', data, ['background', 'permit']), data),
  ];
}

const PARENT_TITLES: Partial<Record<FieldSection, string>> = { mother: 'Mother', father: 'Father', guardian: 'Guardian' };

/** A titled block of one-column label/value rows (a parent, the family size, the emergency contact). */
function block(title: string, fields: readonly RegistrationField[], data: RegistrationFormData, shortLabels = false): Content {
  return { stack: [subTitle(title), keyValueGrid(pairsOf(fields, data, shortLabels), 1, COMPACT)] };
}

/**
 * Living status, then the sections it shows (SPEC §2): parents side by side in two columns; a
 * single parent or guardian beside the family size and emergency contact; Other shows neither.
 */
function familySection(data: RegistrationFormData): Content[] {
  const sections = visibleSections(data.record.living_status as string | null | undefined);
  const parents = (['mother', 'father', 'guardian'] as const)
    .filter((section) => sections.includes(section))
    .map((section) => block(PARENT_TITLES[section] ?? section, shown('family', data, [section]), data, true));
  const others: Content[] = [];
  if (sections.includes('demographics')) others.push(block('Family Size', shown('family', data, ['demographics']), data));
  if (sections.includes('emergency')) others.push(block('Emergency Contact', shown('family', data, ['emergency']), data));

  const rows: Content[][] =
    parents.length === 1 ? [[parents[0]!, { stack: others }]] : [parents, others].filter((row) => row.length > 0);
  // The living status heads the section (it decides what follows).
  const status = shown('family', data, [undefined]).map((field) => `${field.label}: ${printable(field, data) ?? '—'}`);
  return [
    sectionTitle(['Family', ...status].join('   ·   ')),
    ...rows.map((row): Content => ({
      columns: row.length === 1 ? [row[0]!, { text: '' }] : row,
      columnGap: 16,
    })),
  ];
}

/** Health switches as two lines: those answered Yes, then those answered No. */
function flagSummary(fields: readonly RegistrationField[], data: RegistrationFormData): string {
  const yes = fields.filter((field) => Number(data.record[field.name]) === 1).map((field) => field.label);
  const no = fields.filter((field) => Number(data.record[field.name]) !== 1).map((field) => field.label);
  return `Yes: ${yes.length > 0 ? yes.join(', ') : 'none'}   ·   No: ${no.length > 0 ? no.join(', ') : 'none'}`;
}

function healthSection(data: RegistrationFormData): Content[] {
  return [
    sectionTitle('Health'),
    keyValueGrid(
      [
        ['Immunised Against', flagSummary(shown('health', data, ['immunisation']), data)],
        ['Conditions', flagSummary(shown('health', data, ['conditions']), data)],
        ...pairsOf(shown('health', data, ['notes']), data),
      ],
      1,
      COMPACT,
    ),
  ];
}

function otherSection(data: RegistrationFormData): Content[] {
  return [sectionTitle('Other Data'), ...grid(shown('other', data), data)];
}

function documentsSection(data: RegistrationFormData): Content[] {
  const items = DOCUMENT_SLOTS.map((slot) => {
    // The office's word on each document: a returned one does not count as received.
    const state = data.uploaded.has(slot.type) ? (data.reviewStates.get(slot.type) ?? 'submitted') : null;
    const note =
      state === 'accepted' ? 'accepted' : state === 'returned' ? 'returned' : state === 'submitted' ? 'received' : isSlotRequired(slot, data.record) ? 'missing' : 'not required';
    return { label: slot.label, checked: state === 'accepted' || state === 'submitted', note };
  });
  const half = Math.ceil(items.length / 2);
  return [
    sectionTitle('Documents Received'),
    {
      columns: [checklist(items.slice(0, half)), checklist(items.slice(half))],
      columnGap: 24,
    },
  ];
}

function termsSection(data: RegistrationFormData): Content[] {
  const half = Math.ceil(TERMS_PARAGRAPHS.length / 2);
  const agreed = data.agreedOn
    ? `Agreed online on ${data.agreedOn}.`
    : 'Not yet agreed online: the parent or guardian signs below to agree.';
  return [
    sectionTitle(TERMS_TITLE),
    {
      // Two columns of small print keep the terms, the declaration and the signatures on page one.
      columns: [0, 1].map((column) => ({
        ol: TERMS_PARAGRAPHS.map((text) => ({ text, fontSize: 7, margin: [0, 0, 0, 1] as [number, number, number, number] })).slice(
          column === 0 ? 0 : half,
          column === 0 ? half : undefined,
        ),
        start: column === 0 ? 1 : half + 1,
      })),
      columnGap: 14,
      margin: [4, 0, 4, 3],
    },
    {
      // The declaration and the lines to sign stay together on one page.
      unbreakable: true,
      stack: [
        { text: [{ text: `${TERMS_DECLARATION} ` }, { text: agreed, bold: true }], margin: [4, 2, 4, 0] },
        signatureLines(['Parent or Guardian', 'Student', 'Received by (School Office)']),
      ],
    },
  ];
}

/** The document definition of the registration form (tests read its text back from the PDF). */
export function buildRegistrationForm(data: RegistrationFormData): PdfDocument {
  const name = studentName(data.record, data.studentId);
  return {
    pageSize: PAGE_SIZES.legal,
    pageMargins: [36, 24, 36, 36],
    info: { title: `${FORM_TITLE} – ${name} (${data.studentId})`, author: data.schoolName, subject: FORM_TITLE },
    defaultStyle: { fontSize: 8 },
    footer: pageFooter(`${data.schoolName} · ${FORM_TITLE} · ${name} (${data.studentId}) · printed ${data.printedAt}`),
    ...(data.picture ? { images: { picture: data.picture } } : {}),
    content: [
      schoolHeader(data.schoolName, FORM_TITLE, `${name} · Student ID ${data.studentId}`),
      ...studentSection(data),
      ...familySection(data),
      ...healthSection(data),
      ...otherSection(data),
      ...documentsSection(data),
      ...termsSection(data),
    ],
  };
}
