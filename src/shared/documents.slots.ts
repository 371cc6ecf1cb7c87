import type { RecordValues } from './registration.fields.js';

/**
 * The document slots of the Documents step (SPEC §2 "Documents", §3 "Uploaded file", §4
 * "Document slot") and which of them a record needs, without zod: the registration step's first
 * screen reads them through the progress rules, and loads no schema library for that
 * (docs/performance.md, web). documents.schemas.ts re-exports all of it beside the file calls'
 * schemas, so the rest of the code imports one module.
 */

// ---------------------------------------------------------------------------------------------
// Kinds of file

/** The kinds of file a slot may hold (SPEC §9: PDF or jpeg/png). Decided from the bytes. */
export const DOCUMENT_KINDS = {
  pdf: { mime: 'application/pdf', extension: 'pdf', label: 'PDF' },
  jpeg: { mime: 'image/jpeg', extension: 'jpg', label: 'JPEG' },
  png: { mime: 'image/png', extension: 'png', label: 'PNG' },
} as const;
export type DocumentKind = keyof typeof DOCUMENT_KINDS;

// ---------------------------------------------------------------------------------------------
// Slots

/** The document types of SPEC §3, in screen order. */
export const DOCUMENT_TYPES = ['birth_certificate', 'immunization_card', 'sea_slip', 'picture', 'passport', 'student_permit'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/**
 * When a slot must be filled for the Documents step to be done:
 * - `always`: every student;
 * - `nonNational`: students who hold an immigration permit or whose nationality is not Trinidad
 *   and Tobago's (a non-national child needs a passport and a student permit to attend school).
 */
export type SlotRequirement = 'always' | 'nonNational';

export interface DocumentSlot {
  readonly type: DocumentType;
  readonly label: string;
  /** What to upload, in a parent's words. */
  readonly hint: string;
  readonly accepts: readonly DocumentKind[];
  readonly requirement: SlotRequirement;
}

export const DOCUMENT_SLOTS: readonly DocumentSlot[] = [
  { type: 'birth_certificate', label: 'Birth Certificate', hint: "A scan of the student's birth certificate.", accepts: ['pdf'], requirement: 'always' },
  { type: 'immunization_card', label: 'Immunization Card', hint: 'A scan of every page of the immunization card.', accepts: ['pdf'], requirement: 'always' },
  { type: 'sea_slip', label: 'SEA Slip', hint: 'The SEA placement slip.', accepts: ['pdf'], requirement: 'always' },
  { type: 'picture', label: 'Picture', hint: 'A recent passport-style photo of the student.', accepts: ['jpeg', 'png'], requirement: 'always' },
  { type: 'passport', label: 'Passport', hint: "The passport's photo page.", accepts: ['jpeg', 'png'], requirement: 'nonNational' },
  { type: 'student_permit', label: 'Student Permit', hint: 'The student permit issued by the Immigration Division.', accepts: ['jpeg', 'png'], requirement: 'nonNational' },
];

const SLOTS_BY_TYPE: ReadonlyMap<string, DocumentSlot> = new Map(DOCUMENT_SLOTS.map((slot) => [slot.type, slot]));

/** The slot of a document type, or undefined. */
export function findSlot(type: string): DocumentSlot | undefined {
  return SLOTS_BY_TYPE.get(type);
}

/** "PDF", "JPEG or PNG": what a slot takes, for messages. */
export function acceptedKindsLabel(slot: DocumentSlot): string {
  const labels = slot.accepts.map((kind) => DOCUMENT_KINDS[kind].label);
  return labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`;
}

/** The `accept` attribute of a slot's file input: images let phones offer the camera. */
export function acceptAttribute(slot: DocumentSlot): string {
  return slot.accepts.includes('pdf') ? 'application/pdf,.pdf' : 'image/*';
}

/** Nationalities written for Trinidad and Tobago ("Trinidadian", "Trinbagonian", "T&T", …). */
const NATIONAL_PATTERN = /trinidad|tobago|trini|trinbago|\bt\s*&\s*t\b|\btt\b/i;

/**
 * Whether the record belongs to a non-national student: the immigration permit switch is on, or
 * a nationality is written and it is not Trinidad and Tobago's. No nationality yet = national
 * (the Student Data step asks for it; the slots follow once it is filled).
 */
export function isNonNational(record: RecordValues): boolean {
  if (Number(record.immigration_permit) === 1) return true;
  const nationality = typeof record.nationality === 'string' ? record.nationality.trim() : '';
  return nationality !== '' && !NATIONAL_PATTERN.test(nationality);
}

/** Whether a slot must be filled for this record (a pure function of the record). */
export function isSlotRequired(slot: DocumentSlot, record: RecordValues): boolean {
  return slot.requirement === 'always' || isNonNational(record);
}

/** The document types this record must have for the Documents step to be done. */
export function requiredDocumentTypes(record: RecordValues): DocumentType[] {
  return DOCUMENT_SLOTS.filter((slot) => isSlotRequired(slot, record)).map((slot) => slot.type);
}
