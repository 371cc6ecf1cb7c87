import {
  checkFieldValue,
  crossFieldProblems,
  fieldsOfStep,
  isFieldVisible,
  type CheckOptions,
  type RegistrationField,
  type RecordValues,
} from './registration.fields.js';
import { requiredDocumentTypes } from './documents.slots.js';

/**
 * The registration progress flags (docs/requirements.md R6), computed from the record by the server and by the
 * header alike, so both always agree. The rules are (docs/decisions.md D16):
 * - a data step is done when every required field of it that is shown for the record's current
 *   values (living status, permit, sibling and parent-attended switches) holds a valid value;
 * - documents: every required document slot has a file;
 * - submit and termsAndConditions: the terms are agreed (agree_terms_conditions = 1);
 *   termsAndConditions also when terms_and_conditions = 1 (read them).
 */

/** The four steps whose completeness comes from the record's fields. */
export const DATA_STEPS = ['student', 'family', 'health', 'other'] as const;
export type DataStep = (typeof DATA_STEPS)[number];

export interface ProgressFlags {
  studentData: 0 | 1;
  familyData: 0 | 1;
  healthData: 0 | 1;
  otherData: 0 | 1;
  documents: 0 | 1;
  submit: 0 | 1;
  termsAndConditions: 0 | 1;
}

/**
 * The document slots every finished registration has (R7). `computeProgress`
 * asks `requiredDocumentTypes(record)` (documents.slots.ts), which adds passport and student
 * permit for non-nationals, unless a caller passes its own list.
 */
export const DEFAULT_REQUIRED_DOCUMENT_TYPES: readonly string[] = ['birth_certificate', 'immunization_card', 'sea_slip', 'picture'];

export interface ProgressOptions extends CheckOptions {
  requiredDocumentTypes?: readonly string[];
}

const bit = (value: boolean): 0 | 1 => (value ? 1 : 0);

/** The required fields of each data step, in screen order: every save walks them, so listed once. */
const REQUIRED_BY_STEP = new Map<DataStep, readonly RegistrationField[]>(
  DATA_STEPS.map((step) => [step, fieldsOfStep(step).filter((field) => field.required)]),
);

/** Whether a required field, shown for this record, still needs a valid value. */
function isMissing(field: RegistrationField, record: RecordValues, options: CheckOptions): boolean {
  if (!isFieldVisible(field, record)) return false;
  // A value that breaks a rule between fields (place in family, D77) is not done either.
  if (!checkFieldValue(field, record[field.name] ?? null, options).ok) return true;
  return field.name === 'place_in_family' && 'place_in_family' in crossFieldProblems(record);
}

/** True when every required, shown field of a data step holds a value that keeps its rules. */
export function isStepComplete(step: DataStep, record: RecordValues, options: CheckOptions = {}): boolean {
  for (const field of REQUIRED_BY_STEP.get(step)!) if (isMissing(field, record, options)) return false;
  return true;
}

/** The required fields of a step that still need a valid value (for hints on the screens). */
export function missingFields(step: DataStep, record: RecordValues, options: CheckOptions = {}): string[] {
  return REQUIRED_BY_STEP.get(step)!
    .filter((field) => isMissing(field, record, options))
    .map((field) => field.name);
}

/** The seven flags of a record, given the document types the student has uploaded. */
export function computeProgress(
  record: RecordValues,
  uploadedDocumentTypes: Iterable<string>,
  options: ProgressOptions = {},
): ProgressFlags {
  const uploaded = new Set(uploadedDocumentTypes);
  // The slots a record needs follow the record (passport and permit for non-nationals): documents.slots.ts.
  const required = options.requiredDocumentTypes ?? requiredDocumentTypes(record);
  const agreed = Number(record.agree_terms_conditions) === 1;
  return {
    studentData: bit(isStepComplete('student', record, options)),
    familyData: bit(isStepComplete('family', record, options)),
    healthData: bit(isStepComplete('health', record, options)),
    otherData: bit(isStepComplete('other', record, options)),
    documents: bit(required.every((type) => uploaded.has(type))),
    submit: bit(agreed),
    termsAndConditions: bit(agreed || Number(record.terms_and_conditions) === 1),
  };
}
