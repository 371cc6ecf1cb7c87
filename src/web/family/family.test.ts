import { describe, expect, it } from 'vitest';
import { FamilyCodeSchema, FamilyLinkSchema } from '../../shared/family.schemas.js';
import { childLabel, childName, linkedPeople } from './family-children.js';
import { acceptPath, withNext } from './family-paths.js';
import { parentEmailsOf } from './family.api.js';

const jaden = {
  student_id: '20260001',
  first_name: 'Jaden',
  last_name: 'Ramdass',
  class_id: '1A',
  class_name: 'Form 1 1A',
  guardians: [{ name: 'Sandra Mohammed', is_you: true }],
};

describe('how the family screens name a child', () => {
  it('name and class, as the switcher lists them', () => {
    expect(childName(jaden)).toBe('Jaden Ramdass');
    expect(childLabel(jaden)).toBe('Jaden Ramdass · Form 1 1A');
  });

  it('the name alone for a child in no class, the Student ID for a child without a name', () => {
    expect(childLabel({ ...jaden, class_name: null })).toBe('Jaden Ramdass');
    expect(childName({ ...jaden, first_name: null, last_name: null })).toBe('20260001');
    expect(childName({ ...jaden, last_name: null })).toBe('Jaden');
  });

  it('who else reaches the record', () => {
    expect(linkedPeople(jaden)).toBe('You only');
    const two = [...jaden.guardians, { name: 'John Ramdass', is_you: false }];
    expect(linkedPeople({ guardians: two })).toBe('You and John Ramdass');
    expect(linkedPeople({ guardians: [...two, { name: 'Grace Ali', is_you: false }] })).toBe('You, John Ramdass and Grace Ali');
  });
});

describe('the invitation through a sign-in', () => {
  it('carries the invitation page, token and all, in ?next=', () => {
    const next = acceptPath('abc_DEF-123&x=1');
    expect(next).toBe('/family/accept?token=abc_DEF-123%26x%3D1');
    const signIn = withNext('/family/sign-in', next);
    expect(new URL(signIn, 'http://portal.test').searchParams.get('next')).toBe(next);
    expect(withNext('/family/sign-in', null)).toBe('/family/sign-in');
  });
});

describe('the parent e-mails an invitation offers', () => {
  it('mother, father, guardian, each address once, blanks left out', () => {
    expect(parentEmailsOf({ email_mother: ' Mum@Example.com ', email_father: '', email_guardian: 'mum@example.com' })).toEqual([{ who: 'Mother', email: 'mum@example.com' }]);
    expect(parentEmailsOf({ email_mother: null, email_father: 'dad@example.com', email_guardian: 'gran@example.com' })).toEqual([
      { who: 'Father', email: 'dad@example.com' },
      { who: 'Guardian', email: 'gran@example.com' },
    ]);
    expect(parentEmailsOf({})).toEqual([]);
  });
});

describe('the code a parent types', () => {
  it('is accepted with or without its dash, in any case, with the date of birth as typed (dd/MM/yyyy, D77) sent as yyyy-MM-dd', () => {
    expect(FamilyCodeSchema.parse('abcd-efgh')).toBe('ABCDEFGH');
    expect(FamilyCodeSchema.parse('ABCD EFGH')).toBe('ABCDEFGH');
    expect(FamilyCodeSchema.safeParse('ABCD-EFG0').success).toBe(false);
    for (const typed of ['09/03/2014', '2014-03-09', '20140309']) {
      expect(FamilyLinkSchema.parse({ code: 'ABCDEFGH', date_of_birth: typed }).date_of_birth, typed).toBe('2014-03-09');
    }
    expect(FamilyLinkSchema.safeParse({ code: 'ABCDEFGH', date_of_birth: '31/02/2014' }).success).toBe(false);
  });
});
