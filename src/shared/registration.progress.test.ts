import { describe, expect, it } from 'vitest';
import { fieldsOfStep, isFieldVisible, REGISTRATION_FIELDS, visibleSections, type RecordValues } from './registration.fields.js';
import { computeProgress, DEFAULT_REQUIRED_DOCUMENT_TYPES, isStepComplete, missingFields } from './registration.progress.js';

const TODAY = '2026-11-22';

/** A record where every step is done (mother-only family, no permit, no sibling). */
const COMPLETE: RecordValues = {
  first_name: 'Jaden',
  last_name: 'Ramdass',
  sex: 'Male',
  date_of_birth: '2014-01-15',
  birth_certificate_no: 'B26-1234567',
  home_address: 'LP 12 Cocorite Road',
  address_line_2: 'Arima',
  regional_corporation: 'Arima Borough Corporation',
  phone_home: '6221234',
  previous_school: 'Arima Boys RC',
  religion_code: 'HIN',
  ethnic_group_code: 'EIN',
  place_of_birth: 'Trinidad and Tobago',
  nationality: 'Trinidadian',
  immigration_permit: 0,
  living_status: 'Mother Only',
  mother_name: 'Indira Ramdass',
  mother_marital_status: 'Single',
  mother_home_address: 'LP 12 Cocorite Road, Arima',
  mother_occupation: 'Nurse',
  mobile_phone_mother: '3001234',
  no_in_family: '4',
  no_at_home: '3',
  place_in_family: '2',
  emergency_contact: 'Savitri Maharaj',
  emergency_home_phone: '6457788',
  relation_to_child: 'Grandmother',
  medical_history: 'None',
  other_illness: 'None',
  allergy: 'None',
  special_consideration: 'None',
  achievements: 'None',
  device_type: 'Laptop',
  transport: 'Maxi taxi',
  sibling_attending: 0,
  parent_attended: 0,
  agree_terms_conditions: 0,
  terms_and_conditions: 0,
};

describe('visible sections (requirements R4)', () => {
  it.each([
    ['Both Parents', ['mother', 'father', 'demographics', 'emergency']],
    ['Father Only', ['father', 'demographics', 'emergency']],
    ['Mother Only', ['mother', 'demographics', 'emergency']],
    ['Guardian', ['guardian', 'demographics', 'emergency']],
    ['Other', []],
  ])('%s shows %j', (status, sections) => {
    expect(visibleSections(status)).toEqual(sections);
  });

  it('shows the permit dates only with the permit switch on', () => {
    const issue = REGISTRATION_FIELDS.find((f) => f.name === 'permit_issue_date')!;
    expect(isFieldVisible(issue, { immigration_permit: 0 })).toBe(false);
    expect(isFieldVisible(issue, { immigration_permit: 1 })).toBe(true);
  });
});

describe('progress rules', () => {
  it('marks every data step done for a complete record', () => {
    expect(computeProgress(COMPLETE, DEFAULT_REQUIRED_DOCUMENT_TYPES, { today: TODAY })).toEqual({
      studentData: 1,
      familyData: 1,
      healthData: 1,
      otherData: 1,
      documents: 1,
      submit: 0,
      termsAndConditions: 0,
    });
  });

  it('leaves every step undone for an empty record', () => {
    expect(computeProgress({}, [], { today: TODAY })).toEqual({
      studentData: 0, familyData: 0, healthData: 0, otherData: 0, documents: 0, submit: 0, termsAndConditions: 0,
    });
  });

  it.each(['student', 'family', 'health', 'other'] as const)('%s: each required field alone undoes the step', (step) => {
    for (const field of fieldsOfStep(step).filter((f) => f.required && isFieldVisible(f, COMPLETE))) {
      expect(isStepComplete(step, { ...COMPLETE, [field.name]: null }, { today: TODAY }), field.name).toBe(false);
      expect(missingFields(step, { ...COMPLETE, [field.name]: null }, { today: TODAY })).toEqual([field.name]);
    }
  });

  it('counts an invalid stored value as missing (a future birth date, a 6-digit phone)', () => {
    expect(isStepComplete('student', { ...COMPLETE, date_of_birth: '2027-01-01' }, { today: TODAY })).toBe(false);
    expect(isStepComplete('student', { ...COMPLETE, phone_home: '622123' }, { today: TODAY })).toBe(false);
  });

  it('requires the sections the switches and the living status show', () => {
    expect(isStepComplete('student', { ...COMPLETE, immigration_permit: 1 }, { today: TODAY })).toBe(false);
    expect(isStepComplete('student', { ...COMPLETE, immigration_permit: 1, permit_issue_date: '2025-01-01', permit_expiry_date: '2027-01-01' }, { today: TODAY })).toBe(true);
    expect(isStepComplete('family', { ...COMPLETE, living_status: 'Both Parents' }, { today: TODAY })).toBe(false);
    expect(isStepComplete('family', { ...COMPLETE, living_status: 'Other' }, { today: TODAY })).toBe(true);
    expect(isStepComplete('other', { ...COMPLETE, sibling_attending: 1 }, { today: TODAY })).toBe(false);
    expect(isStepComplete('other', { ...COMPLETE, sibling_attending: 1, sibling_class: '2B' }, { today: TODAY })).toBe(true);
    expect(isStepComplete('other', { ...COMPLETE, parent_attended: 1, parent_attended_year: '1999' }, { today: TODAY })).toBe(true);
  });

  it('needs every required document slot, and agreement for submit', () => {
    const missingOne = DEFAULT_REQUIRED_DOCUMENT_TYPES.slice(1);
    expect(computeProgress(COMPLETE, missingOne, { today: TODAY }).documents).toBe(0);
    expect(computeProgress(COMPLETE, ['passport'], { today: TODAY, requiredDocumentTypes: ['passport'] }).documents).toBe(1);
    const agreed = computeProgress({ ...COMPLETE, agree_terms_conditions: 1 }, [], { today: TODAY });
    expect([agreed.submit, agreed.termsAndConditions]).toEqual([1, 1]);
    expect(computeProgress({ ...COMPLETE, terms_and_conditions: 1 }, [], { today: TODAY }).termsAndConditions).toBe(1);
  });
});
