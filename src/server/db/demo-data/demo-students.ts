import { STUDENT_FLAG_COLUMNS, STUDENT_TEXT_COLUMNS } from '../migrations/0001-initial.js';
import { YES_NO_COLUMNS } from '../migrations/0019-yes-no-answers.js';
import type { StudentRow } from '../schema.js';
import { DEMO_FAMILY, DEMO_STUDENTS } from './demo-accounts.js';
import { addDays, earlierDate } from '../../../shared/school-days.js';
import { DEMO_ACADEMIC_YEAR, momentBetween, pad2 } from './demo-calendar.js';
import {
  ACHIEVEMENTS,
  ALLERGIES,
  BIRTHPLACES,
  EMPLOYER_ADDRESSES,
  HERITAGES,
  JOBS,
  RELATIONS,
  STREETS,
  TRANSPORT,
  type Heritage,
} from './demo-people.js';
import type { Random } from './random.js';

/**
 * The demo school's students: one registration record each, filled up to a drawn stage of the six
 * registration steps with values that pass docs/requirements.md R5, and the documented demo
 * accounts pinned in.
 */

export const FORM_LEVELS = [1, 2, 3, 4, 5] as const;
const CLASS_LETTERS = ['A', 'B', 'C', 'D'] as const;
/** The 20 form classes, '1A' … '5D'. */
export const DEMO_CLASS_IDS: readonly string[] = FORM_LEVELS.flatMap((form) => CLASS_LETTERS.map((l) => `${form}${l}`));

/** The record's enumerations (R4); the seeder fills only these values. */
export const BLOOD_TYPES = ['O+', 'O-', 'A+', 'A-', 'B+', 'B-', 'AB+', 'AB-'] as const;
export const LIVING_STATUSES = ['Both Parents', 'Father Only', 'Mother Only', 'Guardian', 'Other'] as const;
export const MARITAL_STATUSES = ['Married', 'Single', 'Divorced', 'Widowed', 'Common Law', 'Other'] as const;
export const DEVICE_TYPES = ['None', 'Phone', 'Laptop', 'Desktop', 'Tablet', 'Other'] as const;
type LivingStatus = (typeof LIVING_STATUSES)[number];
type MaritalStatus = (typeof MARITAL_STATUSES)[number];

/** How far a student got with the six registration steps. */
const STAGES = ['identity', 'student', 'family', 'health', 'other', 'complete'] as const;
export type Stage = (typeof STAGES)[number];

/** Upper forms have had longer to finish; form 1 has just been admitted (D13). */
function stageWeights(formLevel: number): (readonly [Stage, number])[] {
  if (formLevel === 1)
    return [
      ['identity', 30],
      ['student', 20],
      ['family', 18],
      ['health', 10],
      ['other', 10],
      ['complete', 12],
    ];
  if (formLevel === 5)
    return [
      ['identity', 4],
      ['student', 6],
      ['family', 8],
      ['health', 10],
      ['other', 12],
      ['complete', 60],
    ];
  return [
    ['identity', 8],
    ['student', 10],
    ['family', 15],
    ['health', 15],
    ['other', 15],
    ['complete', 37],
  ];
}

function reaches(stage: Stage, step: Stage): boolean {
  return STAGES.indexOf(stage) >= STAGES.indexOf(step);
}

/** What a demo account pins down; everything else is drawn like any other student. */
export interface DemoOverride {
  id: string;
  classId: string;
  first_name: string;
  last_name: string;
  sex: 'Female' | 'Male';
  heritage: string;
  stage: Stage;
  date_of_birth: string;
  birth_certificate_no?: string;
  sea_no?: string;
  livingStatus?: LivingStatus;
  user: { first_login: 0 | 1; password_reset: 0 | 1; password: 'demo' | 'date-of-birth' | null };
}

export const DEMO_OVERRIDES: readonly DemoOverride[] = [
  {
    id: DEMO_STUDENTS.registered.student_id,
    classId: '5A',
    first_name: DEMO_STUDENTS.registered.first_name,
    last_name: DEMO_STUDENTS.registered.last_name,
    sex: 'Female',
    heritage: 'indian-muslim',
    stage: 'complete',
    date_of_birth: '2010-02-14',
    livingStatus: 'Both Parents',
    user: { first_login: 0, password_reset: 0, password: 'demo' },
  },
  {
    id: DEMO_STUDENTS.inProgress.student_id,
    classId: '1A',
    first_name: DEMO_STUDENTS.inProgress.first_name,
    last_name: DEMO_STUDENTS.inProgress.last_name,
    sex: 'Male',
    heritage: 'indian-hindu',
    stage: 'family',
    date_of_birth: '2014-05-23',
    livingStatus: 'Both Parents',
    user: { first_login: 0, password_reset: 0, password: 'demo' },
  },
  {
    id: DEMO_STUDENTS.firstLogin.student_id,
    classId: '1B',
    first_name: DEMO_STUDENTS.firstLogin.first_name,
    last_name: DEMO_STUDENTS.firstLogin.last_name,
    sex: 'Female',
    heritage: 'african',
    stage: 'identity',
    date_of_birth: DEMO_STUDENTS.firstLogin.date_of_birth,
    birth_certificate_no: DEMO_STUDENTS.firstLogin.birth_certificate_no,
    sea_no: DEMO_STUDENTS.firstLogin.sea_no,
    user: { first_login: 1, password_reset: 0, password: null },
  },
  {
    id: DEMO_STUDENTS.passwordReset.student_id,
    classId: '3A',
    first_name: DEMO_STUDENTS.passwordReset.first_name,
    last_name: DEMO_STUDENTS.passwordReset.last_name,
    sex: 'Male',
    heritage: 'african',
    stage: 'health',
    date_of_birth: DEMO_STUDENTS.passwordReset.date_of_birth,
    livingStatus: 'Mother Only',
    user: { first_login: 0, password_reset: 1, password: 'date-of-birth' },
  },
];

const EMAIL_DOMAINS = ['gmail.com', 'yahoo.com', 'hotmail.com', 'outlook.com'] as const;

function emailFor(random: Random, first: string, last: string): string {
  const clean = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const domain = random.pick(EMAIL_DOMAINS);
  const suffix = random.chance(0.6) ? String(random.int(1, 99)) : '';
  const full = `${clean(first)}.${clean(last)}${suffix}@${domain}`;
  // R5: at most 50 characters; long names fall back to an initial.
  return full.length <= 50 ? full : `${clean(first).slice(0, 1)}${clean(last).slice(0, 30)}${suffix}@${domain}`;
}

/** A Trinidad landline: 7 digits starting with 6 (the country-area prefix is shown, not stored). */
function landline(random: Random): string {
  return `6${random.int(22, 79)}${random.digits(4)}`;
}

/** A mobile number: 7 digits on the bmobile and Digicel ranges. */
function mobile(random: Random): string {
  return `${random.pick(['3', '4', '7'])}${random.int(0, 9)}${random.digits(5)}`;
}

function streetAddress(random: Random): string {
  const street = random.pick(STREETS);
  const kind = random.next();
  // 'LP' (lamp pole) numbers are how many rural Trinidad addresses are written.
  if (kind < 0.25) return `LP ${random.int(1, 150)} ${street}`;
  if (kind < 0.4) return `#${random.int(1, 99)} ${street}`;
  return `${random.int(1, 120)} ${street}`;
}

/** A national ID card number: the holder's birth date and a 3-digit sequence. */
function idCardNumber(random: Random, birthYear: number): string {
  return `${birthYear}${pad2(random.int(1, 12))}${pad2(random.int(1, 28))}${random.digits(3)}`;
}

function weightedCode(
  random: Random,
  weights: Readonly<Record<string, number>>,
  available: ReadonlySet<string>,
): string {
  const entries = Object.entries(weights).filter(([code]) => available.has(code));
  return entries.length > 0 ? random.weighted(entries) : random.pick([...available]);
}

export interface Lookups {
  religions: ReadonlySet<string>;
  ethnicGroups: ReadonlySet<string>;
  houses: readonly string[];
  towns: readonly { name: string; corporation: string }[];
  primarySchools: readonly string[];
}

export interface GeneratedStudent {
  row: StudentRow;
  formLevel: number;
  stage: Stage;
  user: DemoOverride['user'];
}

function createBlankStudent(id: string): StudentRow {
  const row: Record<string, string | number | null> = { id, house_code: null, class_id: null };
  for (const column of STUDENT_TEXT_COLUMNS) row[column] = null;
  for (const column of STUDENT_FLAG_COLUMNS) row[column] = 0;
  // A yes/no question the family has not reached is not answered (D75).
  for (const column of YES_NO_COLUMNS) row[column] = null;
  for (const column of ['agreed_by_user_id', 'agreed_by_name', 'agreed_by_kind', 'agreed_at']) row[column] = null;
  // Every column present: Kysely writes DEFAULT for a key missing from one row of a batch, and
  // SQLite has no DEFAULT in VALUES.
  return row as StudentRow;
}

export interface StudentContext {
  random: Random;
  lookups: Lookups;
  today: string;
  usedPins: Set<string>;
  usedSeaNumbers: Set<string>;
}

/** Form 1 of 2026-2027 entered in 2026, form 5 in 2022. */
export function entryYearOf(formLevel: number): number {
  return DEMO_ACADEMIC_YEAR - (formLevel - 1);
}

/** Born so that they were 11–12 at SEA: Sept (E-13) … Aug (E-12), a few a year younger. */
function dateOfBirthFor(random: Random, entryYear: number): string {
  const start = `${entryYear - (random.chance(0.08) ? 12 : 13)}-09-01`;
  return addDays(start, random.int(0, 364));
}

function uniqueCode(used: Set<string>, make: () => string): string {
  for (;;) {
    const code = make();
    if (!used.has(code)) {
      used.add(code);
      return code;
    }
  }
}

/** Draws one student (or pins a demo account) and fills the record up to the drawn stage. */
export function generateStudent(
  ctx: StudentContext,
  id: string,
  classId: string,
  formLevel: number,
  override: DemoOverride | undefined,
): GeneratedStudent {
  const { random, lookups } = ctx;
  const entryYear = entryYearOf(formLevel);
  const heritage: Heritage = override
    ? HERITAGES.find((h) => h.key === override.heritage)!
    : random.weighted(HERITAGES.map((h) => [h, h.weight] as const));
  const sex = override?.sex ?? (random.chance(0.5) ? 'Female' : 'Male');
  const firstNames = sex === 'Female' ? heritage.girls : heritage.boys;
  const stage = override?.stage ?? random.weighted(stageWeights(formLevel));

  const row = createBlankStudent(id);
  row.class_id = classId;
  row.house_code = random.pick(lookups.houses);
  row.first_name = override?.first_name ?? random.pick(firstNames);
  row.last_name = override?.last_name ?? random.pick(heritage.surnames);
  row.sex = sex;
  row.date_of_birth = override?.date_of_birth ?? dateOfBirthFor(random, entryYear);
  const yy = String(entryYear).slice(2);
  row.birth_certificate_no =
    override?.birth_certificate_no ?? uniqueCode(ctx.usedPins, () => `B${yy}-${random.digits(7)}`);
  row.sea_no = override?.sea_no ?? uniqueCode(ctx.usedSeaNumbers, () => `SEA${entryYear}-${random.digits(4)}`);

  // Drawn before the stage decides what is filled: the family section reuses the address and phone.
  const town = random.pick(lookups.towns);
  const homeAddress = streetAddress(random);
  const homePhone = random.chance(0.6) ? landline(random) : mobile(random);
  const birthplace = random.weighted(BIRTHPLACES.map((b) => [b, b.weight] as const));
  const livingStatus: LivingStatus =
    override?.livingStatus ??
    random.weighted<LivingStatus>([
      ['Both Parents', 52],
      ['Mother Only', 27],
      ['Father Only', 5],
      ['Guardian', 11],
      ['Other', 5],
    ]);
  const hasSibling = random.chance(0.18);
  const siblingFirst = random.pick(random.chance(0.5) ? heritage.girls : heritage.boys);

  if (reaches(stage, 'student')) {
    if (random.chance(0.4)) {
      const middle = random.pick(firstNames);
      if (middle !== row.first_name) row.middle_name = middle;
    }
    row.home_address = homeAddress;
    row.address_line_2 = town.name;
    row.regional_corporation = town.corporation;
    row.phone_home = homePhone;
    row.email = emailFor(random, row.first_name, row.last_name);
    row.blood_type = random.weighted<string>([
      ['O+', 46],
      ['A+', 24],
      ['B+', 18],
      ['AB+', 4],
      ['O-', 4],
      ['A-', 2],
      ['B-', 1.5],
      ['AB-', 0.5],
    ]);
    row.previous_school = random.pick(lookups.primarySchools);
    row.religion_code = weightedCode(random, heritage.religions, lookups.religions);
    row.ethnic_group_code = weightedCode(random, heritage.ethnicGroups, lookups.ethnicGroups);
    row.place_of_birth = birthplace.country;
    row.nationality = birthplace.nationality;
    row.immigration_permit = 0;
    if (!birthplace.isNational) {
      // A student permit for non-nationals (Immigration Act); issued within the last two years.
      row.immigration_permit = 1;
      const issued = addDays('2025-01-15', random.int(0, 500));
      row.permit_issue_date = issued;
      row.permit_expiry_date = addDays(issued, 730);
    }
  }

  if (reaches(stage, 'family')) {
    fillFamily(
      random,
      row,
      heritage,
      livingStatus,
      `${homeAddress}, ${town.name}`,
      homePhone,
      hasSibling,
      siblingFirst,
    );
  }
  if (reaches(stage, 'health')) fillHealth(random, row);
  if (reaches(stage, 'other')) fillOther(random, row, hasSibling);

  // Timestamps: admitted in July of the entry year; last edited during this registration period.
  row.created_at = momentBetween(`${entryYear}-07-13`, `${entryYear}-07-24`, random.next());
  const editFraction = random.next();
  const lastEditDay = earlierDate(ctx.today, '2026-11-20');
  row.updated_at = stage === 'identity' ? row.created_at : momentBetween('2026-08-24', lastEditDay, editFraction);
  if (row.updated_at < row.created_at) row.updated_at = row.created_at;
  if (stage === 'complete') {
    row.terms_and_conditions = 1;
    row.agree_terms_conditions = 1;
    row.agree_terms_date = row.updated_at.slice(0, 10);
    // A parent agreed online (D75): the demo family's own name for its children.
    const parent = (DEMO_FAMILY.childIds as readonly string[]).includes(row.id) ? DEMO_FAMILY.name : (row.mother_name ?? row.father_name ?? row.guardian_name);
    // Living status Other names no parent: an agreement from before who agreed was recorded.
    if (parent) {
      row.agreed_by_name = parent;
      row.agreed_by_kind = 'guardian';
      row.agreed_at = row.updated_at;
    }
  }

  const user: DemoOverride['user'] =
    override?.user ??
    (formLevel === 1 && stage === 'identity' && random.chance(0.75)
      ? { first_login: 1, password_reset: 0, password: null }
      : { first_login: 0, password_reset: 0, password: 'demo' });
  return { row, formLevel, stage, user };
}

interface ParentDraw {
  name: string;
  marital: MaritalStatus;
  occupation: string | null;
  employer: string | null;
  employerAddress: string | null;
  email: string;
  idCard: string;
  mobile: string;
  workPhone: string | null;
}

function drawParent(
  random: Random,
  first: string,
  last: string,
  marital: MaritalStatus,
  homeAddress: string,
  isWoman: boolean,
): ParentDraw {
  const birthYear = random.int(1972, 1992);
  // Homemakers are mothers or guardians in the demo; a homemaker has no workplace fields.
  const atHome = isWoman && random.chance(0.14);
  const job = random.pick(JOBS.filter((j) => !(isWoman && j.mostlyMen)));
  const employer = atHome ? null : random.pick(job.employers);
  const employerAddress =
    employer === null ? null : (EMPLOYER_ADDRESSES[employer] ?? homeAddress.slice(0, 50).replace(/,\s*$/, ''));
  return {
    name: `${first} ${last}`,
    marital,
    occupation: atHome ? 'Homemaker' : job.occupation,
    employer,
    employerAddress,
    email: emailFor(random, first, last),
    idCard: idCardNumber(random, birthYear),
    mobile: mobile(random),
    workPhone: employer === null || employer === 'Self-employed' ? null : landline(random),
  };
}

function fillFamily(
  random: Random,
  row: StudentRow,
  heritage: Heritage,
  livingStatus: LivingStatus,
  parentAddress: string,
  homePhone: string,
  hasSibling: boolean,
  siblingFirst: string,
): void {
  const last = row.last_name!;
  row.living_status = livingStatus;
  const together = livingStatus === 'Both Parents';
  const coupleStatus: MaritalStatus = random.weighted<MaritalStatus>([
    ['Married', 72],
    ['Common Law', 25],
    ['Other', 3],
  ]);
  const aloneStatus = (): MaritalStatus =>
    random.weighted<MaritalStatus>([
      ['Single', 45],
      ['Divorced', 25],
      ['Widowed', 8],
      ['Married', 10],
      ['Common Law', 7],
      ['Other', 5],
    ]);

  if (together || livingStatus === 'Mother Only') {
    const marital = together ? coupleStatus : aloneStatus();
    const surname = marital === 'Married' || random.chance(0.3) ? last : random.pick(heritage.surnames);
    const mother = drawParent(random, random.pick(heritage.women), surname, marital, parentAddress, true);
    row.mother_name = mother.name;
    row.mother_marital_status = mother.marital;
    row.mother_home_address = parentAddress;
    row.mother_occupation = mother.occupation;
    row.mother_business_place = mother.employer;
    row.mother_business_address = mother.employerAddress;
    row.mother_home_phone = homePhone;
    row.mother_business_phone = mother.workPhone;
    row.mobile_phone_mother = mother.mobile;
    row.email_mother = mother.email;
    row.id_card_mother = mother.idCard;
  }
  if (together || livingStatus === 'Father Only') {
    const marital = together ? coupleStatus : aloneStatus();
    const father = drawParent(random, random.pick(heritage.men), last, marital, parentAddress, false);
    row.father_name = father.name;
    row.father_marital_status = father.marital;
    row.father_home_address = parentAddress;
    row.father_occupation = father.occupation;
    row.father_business_place = father.employer;
    row.father_business_address = father.employerAddress;
    row.father_home_phone = homePhone;
    row.father_business_phone = father.workPhone;
    row.mobile_phone_father = father.mobile;
    row.email_father = father.email;
    row.id_card_father = father.idCard;
  }
  if (livingStatus === 'Guardian') {
    // Usually a grandmother or an aunt, often with another surname.
    const guardian = drawParent(
      random,
      random.pick(heritage.women),
      random.chance(0.5) ? last : random.pick(heritage.surnames),
      aloneStatus(),
      parentAddress,
      true,
    );
    row.guardian_name = guardian.name.slice(0, 30);
    row.guardian_marital_status = guardian.marital;
    row.home_address_guardian = parentAddress;
    row.guardian_occupation = guardian.occupation;
    row.guardian_business_place = guardian.employer;
    row.guardian_business_address = guardian.employerAddress;
    row.home_phone_guardian = homePhone;
    row.business_phone_guardian = guardian.workPhone;
    row.mobile_phone_guardian = guardian.mobile;
    row.email_guardian = guardian.email;
    row.id_card_guardian = guardian.idCard;
  }
  // R4: 'Other' hides the demographics and emergency sections, so they stay empty.
  if (livingStatus === 'Other') return;
  const inFamily = random.int(2, 8);
  row.no_in_family = String(inFamily);
  row.no_at_home = String(random.int(2, inFamily));
  row.place_in_family = String(random.int(1, Math.max(1, inFamily - 1)));
  const relation = random.pick(RELATIONS);
  const contactFirst = relation.match(/mother|Aunt|Godmother/)
    ? random.pick(heritage.women)
    : random.pick(heritage.men);
  row.emergency_contact = `${contactFirst} ${random.chance(0.5) ? last : random.pick(heritage.surnames)}`;
  row.emergency_home_phone = random.chance(0.5) ? landline(random) : mobile(random);
  row.relative_in_school = hasSibling ? `${siblingFirst} ${last}` : 'None';
  row.relation_to_child = relation;
}

/** Immunisation flags are mostly set; illnesses are rare (school medical form). */
const HEALTH_RATES: readonly (readonly [(typeof YES_NO_COLUMNS)[number], number])[] = [
  ['hepatitis', 0.85],
  ['polio', 0.97],
  ['diphtheria', 0.96],
  ['tetanus', 0.96],
  ['yellow_fever', 0.8],
  ['measles', 0.95],
  ['tb', 0.7],
  ['chicken_pox', 0.3],
  ['typhoid', 0.01],
  ['rheumatic_fever', 0.01],
  ['poor_eyesight', 0.12],
  ['poor_hearing', 0.02],
  ['diabetes', 0.01],
  ['asthma', 0.11],
  ['epilepsy', 0.01],
];

function fillHealth(random: Random, row: StudentRow): void {
  for (const [flag, rate] of HEALTH_RATES) row[flag] = random.chance(rate) ? 1 : 0;
  row.medical_history = row.asthma ? 'Asthma; carries an inhaler' : row.diabetes ? 'Type 1 diabetes' : 'None';
  row.other_illness = random.chance(0.03) ? 'Sickle cell trait' : 'None';
  row.allergy = random.chance(0.12) ? random.pick(ALLERGIES) : 'None';
}

function fillOther(random: Random, row: StudentRow, hasSibling: boolean): void {
  row.special_consideration = row.poor_eyesight ? 'Please seat near the front (poor eyesight)' : 'None';
  row.achievements = random.chance(0.6) ? random.pick(ACHIEVEMENTS) : 'None';
  row.device_type = random.weighted<string>([
    ['Laptop', 40],
    ['Phone', 25],
    ['Tablet', 12],
    ['Desktop', 8],
    ['None', 10],
    ['Other', 5],
  ]);
  row.internet_access = random.chance(0.85) ? 1 : 0;
  row.school_feeding = random.chance(0.35) ? 1 : 0;
  row.transport = random.weighted(TRANSPORT);
  row.sibling_attending = hasSibling ? 1 : 0;
  row.sibling_class = hasSibling ? random.pick(DEMO_CLASS_IDS) : null;
  row.parent_attended = random.chance(0.12) ? 1 : 0;
  row.parent_attended_year = row.parent_attended ? String(random.int(1988, 2008)) : null;
}
