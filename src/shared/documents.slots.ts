import type { RecordValues } from './registration.fields.js';

/**
 * The document slots of the Documents step (docs/requirements.md R7) and which of them a record
 * needs, without zod: the registration step's first screen reads them through the progress
 * rules, and loads no schema library for that (docs/performance.md, web). documents.schemas.ts re-exports all of it beside the file calls'
 * schemas, so the rest of the code imports one module.
 */

// ---------------------------------------------------------------------------------------------
// Kinds of file

/** The kinds of file a slot may hold (R7: PDF, JPEG or PNG). Decided from the bytes. */
export const DOCUMENT_KINDS = {
  pdf: { mime: 'application/pdf', extension: 'pdf', label: 'PDF' },
  jpeg: { mime: 'image/jpeg', extension: 'jpg', label: 'JPEG' },
  png: { mime: 'image/png', extension: 'png', label: 'PNG' },
} as const;
export type DocumentKind = keyof typeof DOCUMENT_KINDS;

// ---------------------------------------------------------------------------------------------
// Slots

/** The document types (R7), in screen order. */
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

/**
 * Every paper slot takes a PDF or a photo (docs/decisions.md D74): a parent with only a phone
 * photographs the paper. A photo is scaled in the browser and again on the server (PHOTO_MAX_SIDE_PX).
 */
const ANY_KIND: readonly DocumentKind[] = ['pdf', 'jpeg', 'png'];

export const DOCUMENT_SLOTS: readonly DocumentSlot[] = [
  { type: 'birth_certificate', label: 'Birth Certificate', hint: "A photo or a scan (PDF) of the student's birth certificate.", accepts: ANY_KIND, requirement: 'always' },
  { type: 'immunization_card', label: 'Immunization Card', hint: 'A photo or a scan (PDF) of the immunization card. A PDF can hold every page.', accepts: ANY_KIND, requirement: 'always' },
  { type: 'sea_slip', label: 'SEA Slip', hint: 'A photo or a scan (PDF) of the SEA placement slip.', accepts: ANY_KIND, requirement: 'always' },
  // A photo only: it is printed on the registration form.
  { type: 'picture', label: 'Picture', hint: 'A recent passport-style photo of the student.', accepts: ['jpeg', 'png'], requirement: 'always' },
  { type: 'passport', label: 'Passport', hint: "A photo or a scan (PDF) of the passport's photo page.", accepts: ANY_KIND, requirement: 'nonNational' },
  { type: 'student_permit', label: 'Student Permit', hint: 'A photo or a scan (PDF) of the student permit issued by the Immigration Division.', accepts: ANY_KIND, requirement: 'nonNational' },
];

const SLOTS_BY_TYPE: ReadonlyMap<string, DocumentSlot> = new Map(DOCUMENT_SLOTS.map((slot) => [slot.type, slot]));

/** The slot of a document type, or undefined. */
export function findSlot(type: string): DocumentSlot | undefined {
  return SLOTS_BY_TYPE.get(type);
}

/** "PDF", "JPEG or PNG": what a slot takes, for messages. */
export function acceptedKindsLabel(slot: Pick<DocumentSlot, 'accepts'>): string {
  const labels = slot.accepts.map((kind) => DOCUMENT_KINDS[kind].label);
  return labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`;
}

/** The MIME types and extensions of a slot's kinds, as a file input's `accept` attribute lists them. */
export function acceptAttribute(slot: Pick<DocumentSlot, 'accepts'>): string {
  return slot.accepts.flatMap((kind) => [DOCUMENT_KINDS[kind].mime, `.${DOCUMENT_KINDS[kind].extension}`, ...(kind === 'jpeg' ? ['.jpeg'] : [])]).join(',');
}

/** Whether a slot takes photos, so a phone may offer its camera for it. */
export function takesPhotos(slot: DocumentSlot): boolean {
  return slot.accepts.includes('jpeg');
}

// ---------------------------------------------------------------------------------------------
// Photos (docs/decisions.md D74)

/**
 * The longest side a stored photo may have, in pixels: a document photographed at 2,000 px is
 * readable at A4 (about 240 dpi), and a phone's 12-megapixel shot is a tenth of the bytes. The
 * browser scales to it before the upload; the server scales again whatever comes bigger.
 */
export const PHOTO_MAX_SIDE_PX = 2000;

/** The thumbnail's longest side, in pixels: two device pixels per CSS pixel of the largest tile (72 × 88). */
export const THUMBNAIL_MAX_SIDE_PX = 176;

/**
 * The size a photo is scaled to: within `maxSide` on its longest side, the proportions kept,
 * never enlarged, at least one pixel each way.
 */
export function fitWithin(width: number, height: number, maxSide = PHOTO_MAX_SIDE_PX): { width: number; height: number } {
  const longest = Math.max(width, height);
  if (longest <= maxSide) return { width, height };
  const scale = maxSide / longest;
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
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
