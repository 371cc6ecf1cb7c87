import { DOCUMENT_SLOTS, isSlotRequired } from '../../shared/documents.schemas.js';
import {
  fieldsOfStep,
  formatPhone,
  isFieldVisible,
  visibleSections,
  yesNoAnswer,
  yesNoText,
  type FieldSection,
  type RecordValues,
  type RegistrationField,
} from '../../shared/registration.fields.js';
import type { FormBlock, FormRow, FormSection, RegistrationFormContent } from '../../shared/registration-form.schemas.js';
import { agreementLine, type Agreement } from '../../shared/registration.schemas.js';
import { TERMS_DECLARATION, TERMS_PARAGRAPHS, TERMS_TITLE } from '../../shared/terms.js';

/**
 * What the registration form says (`/api/registration-form/{studentId}`), built once
 * from the record (D75): the printed PDF (`registration-form.pdf.ts`) lays these sections out on
 * Legal paper and the phone's view shows the same JSON. Pure: the service reads the data.
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
  picture: { mime: 'image/png' | 'image/jpeg'; bytes: Buffer } | null;
  /** 'yyyy-MM-dd' or null: the day the declaration was agreed online. */
  agreedOn: string | null;
  /** Who agreed, while agreed (D75). */
  agreement: Agreement | null;
  /** 'yyyy-MM-dd HH:mm' in the school's time zone. */
  printedAt: string;
}

export const FORM_TITLE = 'Student Registration Form';
export const SIGNATURE_CAPTIONS = ['Parent or Guardian', 'Student', 'Received by (School Office)'] as const;

/** A stored value as printed: yes/no answers in words, phones with the area prefix, codes by name. */
function printable(field: RegistrationField, data: RegistrationFormData): string | null {
  const raw = data.record[field.name];
  if (field.control === 'yesno') return yesNoText(raw);
  if (field.control === 'switch') return Number(raw) === 1 ? 'Yes' : 'No';
  if (raw === null || raw === undefined || String(raw).trim() === '') return null;
  const text = String(raw);
  if (field.control === 'phone') return formatPhone(text);
  return data.lookupLabels[field.name]?.get(text) ?? text;
}

/** In a parent's own block "Mother's Occupation" reads "Occupation". */
const shortLabel = (label: string) => label.replace(/^(Mother|Father|Guardian)'s /, '').replace(/^./, (c) => c.toUpperCase());

const rowsOf = (fields: readonly RegistrationField[], data: RegistrationFormData, short = false): FormRow[] =>
  fields.map((field) => ({ label: short ? shortLabel(field.label) : field.label, value: printable(field, data) }));

/** The shown fields of a step, optionally only those of some sections. */
function shown(step: RegistrationField['step'], data: RegistrationFormData, sections?: readonly (FieldSection | undefined)[]): RegistrationField[] {
  return fieldsOfStep(step).filter((field) => isFieldVisible(field, data.record) && (sections === undefined || sections.includes(field.section)));
}

/** Brief answers in columns, long ones (notes, achievements) a row each. */
function gridBlocks(fields: readonly RegistrationField[], data: RegistrationFormData): FormBlock[] {
  const brief = fields.filter((field) => field.control !== 'textarea');
  const long = fields.filter((field) => field.control === 'textarea');
  return [
    ...(brief.length > 0 ? [{ title: null, rows: rowsOf(brief, data), place: 'grid' as const }] : []),
    ...(long.length > 0 ? [{ title: null, rows: rowsOf(long, data), place: 'wide' as const }] : []),
  ];
}

export function studentName(record: RecordValues, studentId: string): string {
  const name = [record.first_name, record.middle_name, record.last_name].filter((part) => typeof part === 'string' && part.trim() !== '').join(' ');
  return name || studentId;
}

function studentSection(data: RegistrationFormData): FormSection {
  return {
    key: 'student',
    title: 'Student',
    blocks: [
      // Who the student is and where they live, beside the photo on paper.
      { title: null, rows: [{ label: 'Student ID', value: data.studentId }, ...rowsOf(shown('student', data, ['identity', 'school', 'address', 'contact']), data)], place: 'photo' },
      ...gridBlocks(shown('student', data, ['background', 'permit']), data),
    ],
  };
}

const PARENT_TITLES = { mother: 'Mother', father: 'Father', guardian: 'Guardian' } as const;

/** Living status heads the section (it decides what follows), then the parents and the rest. */
function familySection(data: RegistrationFormData): FormSection {
  const sections = visibleSections(data.record.living_status as string | null | undefined);
  const status = shown('family', data, [undefined]).map((field) => `${field.label}: ${printable(field, data) ?? '—'}`);
  const blocks: FormBlock[] = (['mother', 'father', 'guardian'] as const)
    .filter((section) => sections.includes(section))
    .map((section) => ({ title: PARENT_TITLES[section], rows: rowsOf(shown('family', data, [section]), data, true), place: 'parent' }));
  if (sections.includes('demographics')) blocks.push({ title: 'Family Size', rows: rowsOf(shown('family', data, ['demographics']), data), place: 'aside' });
  if (sections.includes('emergency')) blocks.push({ title: 'Emergency Contact', rows: rowsOf(shown('family', data, ['emergency']), data), place: 'aside' });
  return { key: 'family', title: ['Family', ...status].join('   ·   '), blocks };
}

/**
 * Yes/no answers of a group in one line, by answer (D75): e.g. "Immunised against: Hepatitis,
 * Polio · Not immunised: Measles · Not answered: TB". An answer nobody gave is never printed as No.
 */
export function answerSummary(fields: readonly RegistrationField[], record: RecordValues, words: { yes: string; no: string }): string {
  const by = (answer: 0 | 1 | null) => fields.filter((field) => yesNoAnswer(record[field.name]) === answer).map((field) => field.label);
  const parts = [
    [words.yes, by(1)],
    [words.no, by(0)],
    ['Not answered', by(null)],
  ] as const;
  return parts
    .filter(([, labels]) => labels.length > 0)
    .map(([word, labels]) => `${word}: ${labels.join(', ')}`)
    .join('   ·   ');
}

function healthSection(data: RegistrationFormData): FormSection {
  return {
    key: 'health',
    title: 'Health',
    blocks: [
      {
        title: null,
        rows: [
          { label: 'Immunisations', value: answerSummary(shown('health', data, ['immunisation']), data.record, { yes: 'Immunised against', no: 'Not immunised' }) },
          { label: 'Conditions', value: answerSummary(shown('health', data, ['conditions']), data.record, { yes: 'Has or has had', no: 'Has not had' }) },
          ...rowsOf(shown('health', data, ['notes']), data),
        ],
        place: 'wide',
      },
    ],
  };
}

function documentRows(data: RegistrationFormData): RegistrationFormContent['documents'] {
  return DOCUMENT_SLOTS.map((slot) => {
    // The office's word on each document: a returned one does not count as received.
    const state = data.uploaded.has(slot.type) ? (data.reviewStates.get(slot.type) ?? 'submitted') : null;
    const note =
      state === 'accepted' ? 'accepted' : state === 'returned' ? 'returned' : state === 'submitted' ? 'received' : isSlotRequired(slot, data.record) ? 'missing' : 'not required';
    return { label: slot.label, received: state === 'accepted' || state === 'submitted', note };
  });
}

/** The whole form's content, in the order it is printed. */
export function registrationFormContent(data: RegistrationFormData): RegistrationFormContent {
  return {
    schoolName: data.schoolName,
    title: FORM_TITLE,
    studentName: studentName(data.record, data.studentId),
    studentId: data.studentId,
    sections: [studentSection(data), familySection(data), healthSection(data), { key: 'other', title: 'Other Data', blocks: gridBlocks(shown('other', data), data) }],
    documentsTitle: 'Documents Received',
    documents: documentRows(data),
    terms: {
      title: TERMS_TITLE,
      paragraphs: [...TERMS_PARAGRAPHS],
      declaration: TERMS_DECLARATION,
      agreement: agreementLine(data.agreedOn, data.agreement),
      agreed: data.agreedOn !== null && Boolean(data.agreement?.name),
      signatures: [...SIGNATURE_CAPTIONS],
    },
    printedAt: data.printedAt,
  };
}
