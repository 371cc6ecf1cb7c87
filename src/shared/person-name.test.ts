import { describe, expect, it } from 'vitest';
import { FamilyNameSchema } from './family.schemas.js';
import { ownNameProblems, PERSON_NAME_MESSAGES, personNameProblems } from './person-name.js';
import { checkFieldRules, findField, REGISTRATION_FIELDS } from './registration.fields.js';
import { StaffNameSchema } from './staff.schemas.js';

describe('personNameProblems: the one rule of every person’s name', () => {
  it('passes names in any script, with accents, apostrophes, hyphens and initials', () => {
    for (const name of ["O'Brien", 'Ramdass-Lee', 'Zoë', 'محمد', 'אברהם', 'José María', 'St. John', 'A. B. Charles', 'Mary-Ann St.Clair', 'Li Na 李娜']) {
      expect(personNameProblems(name), name).toEqual([]);
    }
  });

  it('names each problem: text-direction controls, line breaks and control characters, web addresses', () => {
    for (const control of ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069']) {
      expect(personNameProblems(`Ann${control}eve`)).toEqual([PERSON_NAME_MESSAGES.bidiControl]);
    }
    for (const control of ['\n', '\r', '\t', '\u0000', '\u007F', '\u0085', '\u2028', '\u2029']) {
      expect(personNameProblems(`Ann${control}Smith`), JSON.stringify(control)).toEqual([PERSON_NAME_MESSAGES.lineBreak]);
    }
    for (const link of ['https://evil.example', 'HTTP://x.y', 'www.school-fees.tt', 'pay.com', 'mailto:a@b', 'javascript:alert(1)', 'portal.school.tt']) {
      expect(personNameProblems(`Ann ${link}`), link).toEqual([PERSON_NAME_MESSAGES.link]);
    }
    expect(personNameProblems('Ann\u202E\nwww.x.com')).toEqual([PERSON_NAME_MESSAGES.bidiControl, PERSON_NAME_MESSAGES.lineBreak, PERSON_NAME_MESSAGES.link]);
  });

  it('the registration catalogue, the family account and the staff account all apply it', () => {
    const bad = 'Al\nwww.x.com';
    const expected = [PERSON_NAME_MESSAGES.lineBreak, PERSON_NAME_MESSAGES.link];
    expect(checkFieldRules(findField('first_name')!, bad)).toEqual({ ok: false, messages: expected });
    for (const schema of [FamilyNameSchema, StaffNameSchema]) {
      const parsed = schema.safeParse(bad);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((issue) => issue.message)).toEqual(expected);
      expect(schema.safeParse("  Mrs. O'Brien  ").data).toBe("Mrs. O'Brien");
    }
  });
});

describe("a student's own name: the rule above and no digits (D77)", () => {
  it('refuses digits in any script, alongside the other problems', () => {
    for (const name of ['J4den', 'Jaden2', '١Ali', 'Ann\u0967']) expect(ownNameProblems(name), name).toEqual([PERSON_NAME_MESSAGES.digit]);
    expect(ownNameProblems('Al\nwww.x2.com')).toEqual([PERSON_NAME_MESSAGES.lineBreak, PERSON_NAME_MESSAGES.link, PERSON_NAME_MESSAGES.digit]);
    for (const name of ["O'Brien", 'Zoë', 'St. John', 'Li Na 李娜', 'محمد']) expect(ownNameProblems(name), name).toEqual([]);
  });

  it("holds for the student's first, middle and last name only", () => {
    const own = REGISTRATION_FIELDS.filter((field) => field.personName === 'own').map((field) => field.name);
    expect(own).toEqual(['first_name', 'middle_name', 'last_name']);
    for (const name of own) expect(checkFieldRules(findField(name)!, 'J4den')).toEqual({ ok: false, messages: [PERSON_NAME_MESSAGES.digit] });
  });

  it('leaves digits to the names that hold more than a name: the emergency contact, the relative in school, the parents', () => {
    expect(checkFieldRules(findField('relative_in_school')!, 'Maria Ali 3B')).toEqual({ ok: true, value: 'Maria Ali 3B' });
    expect(checkFieldRules(findField('emergency_contact')!, 'Aunt Jo, apt 2')).toEqual({ ok: true, value: 'Aunt Jo, apt 2' });
    expect(checkFieldRules(findField('mother_name')!, 'Mary Smith 2nd')).toEqual({ ok: true, value: 'Mary Smith 2nd' });
    // They still keep every person's name rule.
    expect(checkFieldRules(findField('relative_in_school')!, 'Maria www.x.com')).toEqual({ ok: false, messages: [PERSON_NAME_MESSAGES.link] });
  });
});
