import { isIsoDate, schoolToday } from './dates.js';
import type { LookupName } from './lookups.schemas.js';
import { ownNameProblems, PERSON_NAME_MESSAGES, personNameProblems } from './person-name.js';

export type { LookupName };

/**
 * The field catalogue of the registration record (docs/requirements.md R4) with every rule of R5, in one
 * place: the server's validation (`POST /api/student`), the screens, the progress rules, the
 * printable form and the exports all read it. `name` is the column of the `students` table.
 */

// ---------------------------------------------------------------------------------------------
// Enumerations (R4)

const SEXES = ['Female', 'Male'] as const;
const SEX_ABBREVIATIONS: Readonly<Record<string, (typeof SEXES)[number]>> = { F: 'Female', M: 'Male' };
/** O, A, B, AB, each positive or negative: 8 values. */
export const BLOOD_TYPES = ['O+', 'O-', 'A+', 'A-', 'B+', 'B-', 'AB+', 'AB-'] as const;
export const LIVING_STATUSES = ['Both Parents', 'Father Only', 'Mother Only', 'Guardian', 'Other'] as const;
export const MARITAL_STATUSES = ['Married', 'Single', 'Divorced', 'Widowed', 'Common Law', 'Other'] as const;
export const DEVICE_TYPES = ['None', 'Phone', 'Laptop', 'Desktop', 'Tablet', 'Other'] as const;
export type Sex = (typeof SEXES)[number];
export type LivingStatus = (typeof LIVING_STATUSES)[number];
export type MaritalStatus = (typeof MARITAL_STATUSES)[number];

/** The fixed country-area prefix shown before every 7-digit phone number (R5); not stored. */
export const PHONE_PREFIX = '(868)';
export const PHONE_DIGITS = 7;
export const PHONE_PATTERN = new RegExp(`^\\d{${PHONE_DIGITS}}$`);
/** What people put between a phone number's digits: spaces, hyphens, dots, brackets. */
const PHONE_SEPARATORS = /[\s\-.()]/g;
/** The area code written before the 7 digits, as '868', '1868' or '+1 868'. */
const PHONE_AREA_CODE = /^\+?1?868(?=\d{7}$)/;

/**
 * A phone number as people type it → the 7 digits stored: '471-3674', '471 3674',
 * '(868) 471-3674' and '+1 868 471 3674' all become '4713674' (the prefix is shown, not stored).
 * Anything else comes back without its separators, for the digit rules to judge.
 */
export function normalizePhone(text: string): string {
  return text.replace(PHONE_SEPARATORS, '').replace(PHONE_AREA_CODE, '');
}

/**
 * A stored phone number as every document and export prints it: '4713674' → '(868) 471-3674'.
 * Anything else stored (a number from before the 7-digit rule) prints as it is; empty is null.
 */
export function formatPhone(stored: string | null | undefined): string | null {
  const text = stored?.trim() ?? '';
  if (text === '') return null;
  return PHONE_PATTERN.test(text) ? `${PHONE_PREFIX} ${text.slice(0, 3)}-${text.slice(3)}` : text;
}

// ---------------------------------------------------------------------------------------------
// Messages (the fixed words of docs/requirements.md R5 where it gives them)

export const FIELD_MESSAGES = {
  required: 'This field is required.',
  email: 'Enter a valid e-mail address, like name@example.com.',
  phoneLength: 'Enter 7 digits.',
  onlyNumbers: 'Use numbers only.',
  maxLength: (max: number) => `Maximum ${max} characters.`,
  date: 'Enter a valid date (yyyy-MM-dd).',
  futureDate: 'The date cannot be in the future.',
  beforeMinDate: (min: string) => `The date cannot be before ${min}.`,
  option: 'Choose one of the listed values.',
  /** A select with its own values lists them (and their short forms), so a file's author sees what to write (D79). */
  optionOf: (options: readonly string[], abbreviations: Readonly<Record<string, string>> = {}) => {
    const short = Object.keys(abbreviations);
    return `Choose one of: ${options.join(', ')}${short.length > 0 ? ` (or ${short.join(', ')})` : ''}.`;
  },
  flag: 'Must be 0 or 1.',
  yesNo: 'Answer Yes (1) or No (0), or null to clear the answer.',
  year: 'Enter a 4-digit year.',
  futureYear: 'The year cannot be in the future.',
  text: 'Enter text.',
  bidiControl: PERSON_NAME_MESSAGES.bidiControl,
} as const;

/** A standard e-mail pattern: one @, no spaces, a dotted domain. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// ---------------------------------------------------------------------------------------------
// The catalogue

export type RegistrationStep = 'student' | 'family' | 'health' | 'other' | 'complete';
/**
 * `yesno`: a question of the record answered Yes (1), No (0) or not yet (null), offered as two
 * choices with neither chosen at first (D75). `switch`: the terms' own 0/1 marks.
 */
export type FieldControl = 'text' | 'select' | 'switch' | 'yesno' | 'date' | 'phone' | 'email' | 'number' | 'textarea';
/**
 * Groups of fields shown or hidden together: the parent sections and demographics/emergency by
 * living status (R4), the permit dates by the permit switch, the sibling's class and the
 * parent's year by their switches. Fields without a section are always shown.
 */
export type FieldSection =
  | 'identity'
  | 'address'
  | 'contact'
  | 'school'
  | 'background'
  | 'permit'
  | 'mother'
  | 'father'
  | 'guardian'
  | 'demographics'
  | 'emergency'
  | 'immunisation'
  | 'conditions'
  | 'notes'
  | 'sibling'
  | 'parentAttended'
  | 'terms';

export interface RegistrationField {
  /** The column of the `students` table. */
  readonly name: string;
  readonly label: string;
  readonly step: RegistrationStep;
  readonly control: FieldControl;
  /** Required when its section is shown; a hidden field is never required. */
  readonly required: boolean;
  readonly maxLength?: number;
  /** The literal values of a select. */
  readonly options?: readonly string[];
  /**
   * Short forms a select also takes, any case, stored as the option they name (Sex: F and M, as
   * placement lists and spreadsheets write them; D79).
   */
  readonly abbreviations?: Readonly<Record<string, string>>;
  /**
   * The lookup a select's values come from (the server checks the value exists). On a `text`
   * control the lookup only suggests values (free text allowed, e.g. a school not in the list).
   */
  readonly lookup?: LookupName;
  readonly section?: FieldSection;
  /** Shown to students but only administrators may change it (house, class). */
  readonly readOnlyForStudents?: boolean;
  /** Dates: registration date pickers cannot pick future dates (R5) unless this is set. */
  readonly allowFuture?: boolean;
  /** Dates: earliest accepted date, yyyy-MM-dd. */
  readonly minDate?: string;
  /** Numbers: 'year' = a 4-digit year not after this one. */
  readonly format?: 'year';
  /** Set by the server, never sent by a client (e.g. the date the terms were agreed). */
  readonly serverManaged?: boolean;
  /**
   * A person's name (src/shared/person-name.ts): `any` holds every person's name rule; `own`, a
   * student's own name, also has no digits (D77).
   */
  readonly personName?: 'any' | 'own';
  /** Yes/no fields: the question in words, for the control's group name (D75). */
  readonly question?: string;
}

const NAME_MAX = 20;
const PARENT_NAME_MAX = 35;
const GUARDIAN_NAME_MAX = 30;
const PARENT_ADDRESS_MAX = 255;
const WORK_MAX = 50;
const ID_CARD_MAX = 20;
const EMAIL_MAX = 50;
/** Free-text answers (health notes, achievements) are capped here (R5). */
const NOTE_MAX = 255;
/** The earliest birth or permit date accepted (R5). */
const EARLIEST_DATE = '1950-01-01';

type Parent = 'mother' | 'father' | 'guardian';

/** The eleven fields of one parent section; guardian columns follow their own naming (R4). */
function parentFields(parent: Parent): RegistrationField[] {
  const Title = parent === 'mother' ? "Mother's" : parent === 'father' ? "Father's" : "Guardian's";
  const g = parent === 'guardian';
  const common = { step: 'family', section: parent } as const;
  return [
    { ...common, name: `${parent}_name`, label: `${Title} Name`, control: 'text', required: true, maxLength: g ? GUARDIAN_NAME_MAX : PARENT_NAME_MAX, personName: 'any' },
    { ...common, name: `${parent}_marital_status`, label: `${Title} Marital Status`, control: 'select', required: true, options: MARITAL_STATUSES },
    { ...common, name: g ? 'home_address_guardian' : `${parent}_home_address`, label: `${Title} Home Address`, control: 'text', required: true, maxLength: PARENT_ADDRESS_MAX },
    { ...common, name: `${parent}_occupation`, label: `${Title} Occupation`, control: 'text', required: true, maxLength: g ? 50 : 35 },
    { ...common, name: `${parent}_business_place`, label: `${Title} Place of Employment`, control: 'text', required: false, maxLength: WORK_MAX },
    { ...common, name: `${parent}_business_address`, label: `${Title} Work Address`, control: 'text', required: false, maxLength: WORK_MAX },
    { ...common, name: g ? 'home_phone_guardian' : `${parent}_home_phone`, label: `${Title} Home Phone`, control: 'phone', required: false },
    { ...common, name: g ? 'business_phone_guardian' : `${parent}_business_phone`, label: `${Title} Work Phone`, control: 'phone', required: false },
    { ...common, name: `mobile_phone_${parent}`, label: `${Title} Mobile Phone`, control: 'phone', required: true },
    { ...common, name: `email_${parent}`, label: `${Title} E-mail`, control: 'email', required: false, maxLength: EMAIL_MAX },
    { ...common, name: `id_card_${parent}`, label: `${Title} ID Card Number`, control: 'text', required: false, maxLength: ID_CARD_MAX },
  ];
}

const HEALTH_FLAGS: readonly (readonly [string, string, 'immunisation' | 'conditions'])[] = [
  ['hepatitis', 'Hepatitis', 'immunisation'],
  ['polio', 'Polio', 'immunisation'],
  ['diphtheria', 'Diphtheria', 'immunisation'],
  ['tetanus', 'Tetanus', 'immunisation'],
  ['yellow_fever', 'Yellow Fever', 'immunisation'],
  ['measles', 'Measles', 'immunisation'],
  ['tb', 'TB', 'immunisation'],
  ['chicken_pox', 'Chicken Pox', 'conditions'],
  ['typhoid', 'Typhoid', 'conditions'],
  ['rheumatic_fever', 'Rheumatic Fever', 'conditions'],
  ['poor_eyesight', 'Poor Eyesight', 'conditions'],
  ['poor_hearing', 'Poor Hearing', 'conditions'],
  ['diabetes', 'Diabetes', 'conditions'],
  ['asthma', 'Asthma', 'conditions'],
  ['epilepsy', 'Epilepsy', 'conditions'],
];

/** Every field of the registration record, in screen order. */
export const REGISTRATION_FIELDS: readonly RegistrationField[] = [
  // Student Data (R4): identity, address, contact, school, religion, ethnic group, birth and
  // nationality, immigration permit.
  { name: 'first_name', label: 'First Name', step: 'student', section: 'identity', control: 'text', required: true, maxLength: NAME_MAX, personName: 'own' },
  { name: 'middle_name', label: 'Middle Name', step: 'student', section: 'identity', control: 'text', required: false, maxLength: NAME_MAX, personName: 'own' },
  { name: 'last_name', label: 'Last Name', step: 'student', section: 'identity', control: 'text', required: true, maxLength: NAME_MAX, personName: 'own' },
  { name: 'sex', label: 'Sex', step: 'student', section: 'identity', control: 'select', required: true, options: SEXES, abbreviations: SEX_ABBREVIATIONS },
  { name: 'date_of_birth', label: 'Date of Birth', step: 'student', section: 'identity', control: 'date', required: true, minDate: EARLIEST_DATE },
  { name: 'birth_certificate_no', label: 'Birth Certificate Pin', step: 'student', section: 'identity', control: 'text', required: true, maxLength: 15 },
  { name: 'blood_type', label: 'Blood Type', step: 'student', section: 'identity', control: 'select', required: false, options: BLOOD_TYPES },
  { name: 'home_address', label: 'Home Address', step: 'student', section: 'address', control: 'text', required: true, maxLength: 100 },
  { name: 'address_line_2', label: 'Town', step: 'student', section: 'address', control: 'select', required: true, lookup: 'towns', maxLength: 100 },
  { name: 'regional_corporation', label: 'Regional Corporation', step: 'student', section: 'address', control: 'select', required: true, lookup: 'regionalCorporations' },
  { name: 'phone_home', label: 'Home Phone', step: 'student', section: 'contact', control: 'phone', required: true },
  { name: 'email', label: 'E-mail', step: 'student', section: 'contact', control: 'email', required: false, maxLength: EMAIL_MAX },
  { name: 'previous_school', label: 'Previous School', step: 'student', section: 'school', control: 'text', required: true, maxLength: 50, lookup: 'primarySchools' },
  { name: 'sea_no', label: 'SEA Number', step: 'student', section: 'school', control: 'text', required: false, maxLength: 15 },
  { name: 'class_id', label: 'Class', step: 'student', section: 'school', control: 'select', required: false, lookup: 'formClasses', readOnlyForStudents: true },
  { name: 'house_code', label: 'House', step: 'student', section: 'school', control: 'select', required: false, lookup: 'houses', readOnlyForStudents: true },
  { name: 'religion_code', label: 'Religion', step: 'student', section: 'background', control: 'select', required: true, lookup: 'religions' },
  { name: 'ethnic_group_code', label: 'Ethnic Group', step: 'student', section: 'background', control: 'select', required: true, lookup: 'ethnicGroups' },
  { name: 'place_of_birth', label: 'Country of Birth', step: 'student', section: 'background', control: 'text', required: true, maxLength: 25 },
  { name: 'nationality', label: 'Nationality', step: 'student', section: 'background', control: 'text', required: true, maxLength: 25 },
  { name: 'immigration_permit', label: 'Immigration Permit', question: 'Does the student hold an immigration permit?', step: 'student', section: 'background', control: 'yesno', required: false },
  { name: 'permit_issue_date', label: 'Permit Issue Date', step: 'student', section: 'permit', control: 'date', required: true, minDate: EARLIEST_DATE },
  // An expiry date lies in the future by nature: the only registration date allowed to (docs/decisions.md).
  { name: 'permit_expiry_date', label: 'Permit Expiry Date', step: 'student', section: 'permit', control: 'date', required: true, minDate: EARLIEST_DATE, allowFuture: true },

  // Family Data: living status, parent or guardian sections, demographics, emergency contact.
  { name: 'living_status', label: 'Living Status', step: 'family', control: 'select', required: true, options: LIVING_STATUSES },
  ...parentFields('mother'),
  ...parentFields('father'),
  ...parentFields('guardian'),
  { name: 'no_in_family', label: 'Number in Family', step: 'family', section: 'demographics', control: 'number', required: true, maxLength: 2 },
  { name: 'no_at_home', label: 'Number at Home', step: 'family', section: 'demographics', control: 'number', required: true, maxLength: 2 },
  { name: 'place_in_family', label: 'Place in Family', step: 'family', section: 'demographics', control: 'number', required: true, maxLength: 2 },
  { name: 'emergency_contact', label: 'Emergency Contact', step: 'family', section: 'emergency', control: 'text', required: true, maxLength: 50, personName: 'any' },
  { name: 'emergency_home_phone', label: 'Emergency Contact Phone', step: 'family', section: 'emergency', control: 'phone', required: true },
  { name: 'relation_to_child', label: 'Relation to Child', step: 'family', section: 'emergency', control: 'text', required: true, maxLength: 50 },
  { name: 'relative_in_school', label: 'Relative in School', step: 'family', section: 'emergency', control: 'text', required: false, maxLength: 50, personName: 'any' },

  // Health Data: flags and text fields.
  ...HEALTH_FLAGS.map(([name, label, section]): RegistrationField => ({
    name,
    label,
    question: section === 'immunisation' ? `Is the student immunised against ${label}?` : `Has the student had, or does the student have, ${label}?`,
    step: 'health',
    section,
    control: 'yesno',
    required: false,
  })),
  { name: 'medical_history', label: 'Medical History', step: 'health', section: 'notes', control: 'textarea', required: true, maxLength: NOTE_MAX },
  { name: 'other_illness', label: 'Other Illness', step: 'health', section: 'notes', control: 'textarea', required: true, maxLength: NOTE_MAX },
  { name: 'allergy', label: 'Allergies', step: 'health', section: 'notes', control: 'textarea', required: true, maxLength: NOTE_MAX },

  // Other Data: special consideration, achievements, device and internet, feeding, transport,
  // siblings, parent attendance.
  { name: 'special_consideration', label: 'Special Consideration', step: 'other', control: 'textarea', required: true, maxLength: NOTE_MAX },
  { name: 'achievements', label: 'Achievements', step: 'other', control: 'textarea', required: true, maxLength: NOTE_MAX },
  { name: 'device_type', label: 'Device Type', step: 'other', control: 'select', required: true, options: DEVICE_TYPES },
  { name: 'internet_access', label: 'Internet Access', question: 'Does the student have internet access at home?', step: 'other', control: 'yesno', required: false },
  { name: 'school_feeding', label: 'School Feeding', question: 'Will the student take part in the school feeding programme?', step: 'other', control: 'yesno', required: false },
  { name: 'transport', label: 'Transport to School', step: 'other', control: 'text', required: true, maxLength: 50 },
  { name: 'sibling_attending', label: 'Sibling Attending', question: 'Does a brother or sister attend this school?', step: 'other', control: 'yesno', required: false },
  // The sibling's class: the school's classes (A–D in each form) from the form classes
  // lookup, so the value names a real class such as 3B (docs/decisions.md D16).
  { name: 'sibling_class', label: "Sibling's Class", step: 'other', section: 'sibling', control: 'select', required: true, lookup: 'formClasses' },
  { name: 'parent_attended', label: 'Parent Attended This School', question: 'Did a parent attend this school?', step: 'other', control: 'yesno', required: false },
  { name: 'parent_attended_year', label: 'Year Parent Attended', step: 'other', section: 'parentAttended', control: 'number', required: true, maxLength: 4, format: 'year' },

  // Complete: terms (R8: agree_terms_conditions is saved as 1 or 0).
  { name: 'terms_and_conditions', label: 'Terms and Conditions Read', step: 'complete', section: 'terms', control: 'switch', required: false },
  { name: 'agree_terms_conditions', label: 'I Agree to the Terms and Conditions', step: 'complete', section: 'terms', control: 'switch', required: false },
  { name: 'agree_terms_date', label: 'Date Terms Agreed', step: 'complete', section: 'terms', control: 'date', required: false, serverManaged: true },
];

const FIELDS_BY_NAME: ReadonlyMap<string, RegistrationField> = new Map(REGISTRATION_FIELDS.map((f) => [f.name, f]));

/** The catalogue entry of a column, or undefined for a name not in the catalogue. */
export function findField(name: string): RegistrationField | undefined {
  return FIELDS_BY_NAME.get(name);
}

/** Every progress computation asks for each step's fields: filtered once. */
const FIELDS_BY_STEP = new Map<RegistrationStep, readonly RegistrationField[]>();

/** The fields of one step, in screen order. */
export function fieldsOfStep(step: RegistrationStep): readonly RegistrationField[] {
  let fields = FIELDS_BY_STEP.get(step);
  if (!fields) FIELDS_BY_STEP.set(step, (fields = Object.freeze(REGISTRATION_FIELDS.filter((f) => f.step === step))));
  return fields;
}

/** Fields a client may send in `POST /api/student` (all but the server-managed ones). */
export const WRITABLE_FIELDS: readonly RegistrationField[] = REGISTRATION_FIELDS.filter((f) => !f.serverManaged);

// ---------------------------------------------------------------------------------------------
// Identity numbers (R3: the first login)

/**
 * The numbers a first login names a student by, with the date of birth. Each belongs to one
 * student at most, compared without regard to case (the first login ignores case too); a unique
 * index on `upper(column)` holds it in the database (docs/decisions.md D40).
 */
export const IDENTITY_FIELDS = ['birth_certificate_no', 'sea_no'] as const;
export type IdentityField = (typeof IDENTITY_FIELDS)[number];

/** Whether a column is one of the identity numbers. */
export function isIdentityField(name: string): name is IdentityField {
  return (IDENTITY_FIELDS as readonly string[]).includes(name);
}

/** The form in which two identity numbers are compared: equal when equal ignoring case. */
export function identityKey(value: string): string {
  return value.toUpperCase();
}

/** What a save answers (409) when another student already has the number. */
export const IDENTITY_TAKEN_MESSAGES: Readonly<Record<IdentityField, string>> = {
  birth_certificate_no: 'Another student has this birth certificate pin.',
  sea_no: 'Another student has this SEA number.',
};

// ---------------------------------------------------------------------------------------------
// Visibility (R4)

const PARENT_SECTIONS_BY_STATUS: Record<LivingStatus, readonly FieldSection[]> = {
  'Both Parents': ['mother', 'father', 'demographics', 'emergency'],
  'Father Only': ['father', 'demographics', 'emergency'],
  'Mother Only': ['mother', 'demographics', 'emergency'],
  Guardian: ['guardian', 'demographics', 'emergency'],
  Other: [],
};

/**
 * The family sections shown for a living status: Both Parents → mother and father; Father Only,
 * Mother Only, Guardian → that one; Other → none, and no demographics or emergency contact.
 * Before a status is chosen no parent section shows, but demographics and emergency do.
 */
export function visibleSections(livingStatus: string | null | undefined): readonly FieldSection[] {
  if (livingStatus && livingStatus in PARENT_SECTIONS_BY_STATUS) {
    return PARENT_SECTIONS_BY_STATUS[livingStatus as LivingStatus];
  }
  return ['demographics', 'emergency'];
}

const FAMILY_SECTIONS: ReadonlySet<FieldSection> = new Set(['mother', 'father', 'guardian', 'demographics', 'emergency']);

/** A record as the catalogue reads it: column → stored value. */
export type RecordValues = Readonly<Record<string, string | number | null | undefined>>;

/** Whether a field is shown for this record (living status, permit, sibling, parent switches). */
export function isFieldVisible(field: RegistrationField, record: RecordValues): boolean {
  const section = field.section;
  if (!section) return true;
  if (FAMILY_SECTIONS.has(section)) return visibleSections(record.living_status as string | null).includes(section);
  if (section === 'permit') return Number(record.immigration_permit) === 1;
  if (section === 'sibling') return Number(record.sibling_attending) === 1;
  if (section === 'parentAttended') return Number(record.parent_attended) === 1;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Rules across fields

export const PLACE_IN_FAMILY_MESSAGES = {
  place: (numberInFamily: number) => `Place in family cannot be more than the number in family (${numberInFamily}).`,
  number: (place: number) => `Number in family cannot be less than the place in family (${place}).`,
} as const;

/** The fields `crossFieldProblems` reads: a save that changes none of them cannot break its rules. */
export const CROSS_FIELD_NAMES: ReadonlySet<string> = new Set(['place_in_family', 'no_in_family']);

/**
 * The rules between two fields of a record (D77): the place in family is at most the number in
 * family ("7 of 5" is a slip). Answers field → messages, empty when the record keeps them or a
 * value is missing or not a number (each field's own rules say so). The message is on the place,
 * unless `saved` (the fields a save changes) names the number alone: a lowered number is told on
 * the field just typed. The server's save and the progress flags use it; a screen shows the
 * save's answer on the field.
 */
export function crossFieldProblems(record: RecordValues, saved?: readonly string[]): Record<string, string[]> {
  const place = wholeNumber(record.place_in_family);
  const inFamily = wholeNumber(record.no_in_family);
  if (place === null || inFamily === null || place <= inFamily) return {};
  if (saved && saved.includes('no_in_family') && !saved.includes('place_in_family')) return { no_in_family: [PLACE_IN_FAMILY_MESSAGES.number(place)] };
  return { place_in_family: [PLACE_IN_FAMILY_MESSAGES.place(inFamily)] };
}

function wholeNumber(value: string | number | null | undefined): number | null {
  if (typeof value === 'number') return Number.isInteger(value) ? value : null;
  const text = value?.trim() ?? '';
  return /^\d+$/.test(text) ? Number(text) : null;
}

// ---------------------------------------------------------------------------------------------
// Validation of one value

/** A stored value: text fields hold string or null, switches 0/1. */
export type FieldValue = string | number | null;

export type FieldCheck = { ok: true; value: FieldValue } | { ok: false; messages: string[] };

export interface CheckOptions {
  /** Today as yyyy-MM-dd (America/Port_of_Spain); defaults to the clock of the caller. */
  today?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const utcDateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Whether a date (yyyy-MM-dd) or a year (yyyy) lies after today: `options.today`, or the school's
 * day by the caller's clock. Every time zone's date is within a day of the UTC date, so a date
 * outside that window is answered without the school's time zone: building the first
 * `Intl.DateTimeFormat` costs a browser 15–25 ms (ICU's data), which a registration step would
 * otherwise spend on its first screen for dates of birth that are years old (docs/performance.md, web).
 */
export function isAfterToday(dateOrYear: string, options: CheckOptions = {}): boolean {
  const length = dateOrYear.length;
  if (options.today !== undefined) return dateOrYear > options.today.slice(0, length);
  const now = Date.now();
  if (dateOrYear < utcDateOf(now - DAY_MS).slice(0, length)) return false;
  if (dateOrYear > utcDateOf(now + DAY_MS).slice(0, length)) return true;
  return dateOrYear > schoolToday(new Date(now)).slice(0, length);
}

/**
 * Checks one raw value against its field's rules and answers the value to store: strings
 * trimmed, '' → null, switches 0/1, numbers as digit text. The one implementation of R5,
 * used by the screens before they save (web), the imports, the progress flags and, through
 * `SaveStudentBodySchema` and the registration service, `POST /api/student`: the rules that hold
 * whatever the day (`checkFieldRules`), then those that depend on it (`dayRuleMessages`).
 */
export function checkFieldValue(field: RegistrationField, raw: unknown, options: CheckOptions = {}): FieldCheck {
  const check = checkFieldRules(field, raw);
  if (!check.ok) return check;
  const messages = dayRuleMessages(field, check.value, options);
  return messages.length > 0 ? { ok: false, messages } : check;
}

/**
 * The rules of R5 that hold whatever the day: the value's type, required, digits and lengths,
 * the e-mail pattern, the listed options, a real calendar date and the earliest one. Answers the
 * value to store. A request's schema can apply these; the server's day is the service's business.
 */
export function checkFieldRules(field: RegistrationField, raw: unknown): FieldCheck {
  if (field.control === 'switch') {
    if (raw === 0 || raw === 1) return { ok: true, value: raw };
    if (raw === true || raw === false) return { ok: true, value: raw ? 1 : 0 };
    if (raw === '0' || raw === '1') return { ok: true, value: Number(raw) };
    return { ok: false, messages: [FIELD_MESSAGES.flag] };
  }
  if (field.control === 'yesno') return checkYesNo(raw);

  let text: string;
  if (raw === null || raw === undefined) text = '';
  else if (typeof raw === 'string') text = raw.trim();
  else if (typeof raw === 'number' && field.control === 'number' && Number.isInteger(raw) && raw >= 0) text = String(raw);
  else return { ok: false, messages: [FIELD_MESSAGES.text] };

  if (text === '') return field.required ? { ok: false, messages: [FIELD_MESSAGES.required] } : { ok: true, value: null };

  const messages: string[] = [];
  switch (field.control) {
    case 'phone':
      text = normalizePhone(text);
      // Letters in a phone are a mistake whatever the field: say so first (D42).
      if (!/^\d+$/.test(text)) messages.push(FIELD_MESSAGES.onlyNumbers);
      if (!PHONE_PATTERN.test(text)) messages.push(FIELD_MESSAGES.phoneLength);
      break;
    case 'email':
      if (!EMAIL_PATTERN.test(text)) messages.push(FIELD_MESSAGES.email);
      break;
    case 'number':
      if (!/^\d+$/.test(text)) messages.push(field.format === 'year' ? FIELD_MESSAGES.year : FIELD_MESSAGES.onlyNumbers);
      else if (field.format === 'year' && text.length !== 4) messages.push(FIELD_MESSAGES.year);
      break;
    case 'date':
      if (!isIsoDate(text)) messages.push(FIELD_MESSAGES.date);
      else if (field.minDate && text < field.minDate) messages.push(FIELD_MESSAGES.beforeMinDate(field.minDate));
      break;
    case 'select':
      if (field.options && !field.options.includes(text)) {
        const long = optionOfAbbreviation(field, text);
        if (long === null) messages.push(FIELD_MESSAGES.optionOf(field.options, field.abbreviations));
        else text = long;
      }
      break;
    default:
      break;
  }
  if (field.personName) messages.push(...(field.personName === 'own' ? ownNameProblems(text) : personNameProblems(text)));
  if (field.maxLength !== undefined && text.length > field.maxLength && field.format !== 'year') {
    messages.push(FIELD_MESSAGES.maxLength(field.maxLength));
  }
  return messages.length > 0 ? { ok: false, messages } : { ok: true, value: text };
}

/** The option a short form names (any case: 'f' → 'Female'), or null. */
export function optionOfAbbreviation(field: RegistrationField, text: string): string | null {
  if (!field.abbreviations) return null;
  const upper = text.toUpperCase();
  const match = Object.entries(field.abbreviations).find(([short]) => short.toUpperCase() === upper);
  return match?.[1] ?? null;
}

/** The three answers of a yes/no field (D75): 1 Yes, 0 No, null not answered. */
export type YesNoAnswer = 0 | 1 | null;

/** A yes/no value: 1/0, true/false or '1'/'0'; null or '' clears it (not answered). Nothing else. */
export function checkYesNo(raw: unknown): FieldCheck {
  if (raw === null || raw === '') return { ok: true, value: null };
  if (raw === 0 || raw === 1) return { ok: true, value: raw };
  if (raw === true || raw === false) return { ok: true, value: raw ? 1 : 0 };
  if (raw === '0' || raw === '1') return { ok: true, value: Number(raw) };
  return { ok: false, messages: [FIELD_MESSAGES.yesNo] };
}

/** A stored yes/no value as one of its three answers: anything but 0 and 1 is not answered. */
export function yesNoAnswer(stored: unknown): YesNoAnswer {
  const value = stored === null || stored === undefined || stored === '' ? null : Number(stored);
  return value === 1 ? 1 : value === 0 ? 0 : null;
}

/** Words of the three answers, as the screens and every printed or exported copy show them. */
export const YES_NO_WORDS: Readonly<Record<'1' | '0' | 'null', string>> = { '1': 'Yes', '0': 'No', null: 'Not answered' };

/** A stored yes/no value in words: 'Yes', 'No' or 'Not answered'. */
export function yesNoText(stored: unknown): string {
  return YES_NO_WORDS[String(yesNoAnswer(stored)) as '1' | '0' | 'null'];
}

/**
 * The rules of R5 that depend on the day, for a value `checkFieldRules` answered: dates
 * cannot lie in the future (except where the field allows it), years neither. Today is
 * `options.today`, else the school's day by the caller's clock.
 */
export function dayRuleMessages(field: RegistrationField, value: FieldValue, options: CheckOptions = {}): string[] {
  if (typeof value !== 'string') return [];
  if (field.control === 'date' && !field.allowFuture && isAfterToday(value, options)) return [FIELD_MESSAGES.futureDate];
  if (field.control === 'number' && field.format === 'year' && isAfterToday(value, options)) return [FIELD_MESSAGES.futureYear];
  return [];
}
