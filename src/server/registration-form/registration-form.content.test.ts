import { describe, expect, it } from 'vitest';
import { findField, REGISTRATION_FIELDS, type RecordValues } from '../../shared/registration.fields.js';
import { agreementLine } from '../../shared/registration.schemas.js';
import { TERMS_DECLARATION, TERMS_TITLE } from '../../shared/terms.js';
import { answerSummary, registrationFormContent, type RegistrationFormData } from './registration-form.content.js';
import { buildRegistrationForm } from './registration-form.pdf.js';

/**
 * The registration form's content model (D75): one definition of what the form says, which the
 * PDF lays out and the phone's view shows. Pure: no database, no PDF renderer.
 */

function formData(record: RecordValues, overrides: Partial<RegistrationFormData> = {}): RegistrationFormData {
  return {
    schoolName: 'Test School',
    studentId: '20260001',
    record,
    lookupLabels: {},
    uploaded: new Set(),
    reviewStates: new Map(),
    picture: null,
    agreedOn: null,
    agreement: null,
    printedAt: '2026-11-27 10:00',
    ...overrides,
  };
}

const IMMUNISATIONS = REGISTRATION_FIELDS.filter((field) => field.section === 'immunisation');

/** Every string a PDF document definition holds, in order (what pdfmake would draw). */
function textsOf(node: unknown, out: string[] = []): string[] {
  if (typeof node === 'string') out.push(node);
  else if (Array.isArray(node)) for (const item of node) textsOf(item, out);
  else if (node && typeof node === 'object') for (const [key, value] of Object.entries(node)) if (key !== 'info' && key !== 'footer') textsOf(value, out);
  return out;
}

describe('the yes/no summary', () => {
  it('names each answer once: yes, no, not answered, leaving out an empty group', () => {
    const record = { hepatitis: 1, polio: 1, diphtheria: 0, tetanus: null, yellow_fever: null, measles: 0, tb: null };
    expect(answerSummary(IMMUNISATIONS, record, { yes: 'Immunised against', no: 'Not immunised' })).toBe(
      'Immunised against: Hepatitis, Polio   ·   Not immunised: Diphtheria, Measles   ·   Not answered: Tetanus, Yellow Fever, TB',
    );
    expect(answerSummary(IMMUNISATIONS, {}, { yes: 'Immunised against', no: 'Not immunised' })).toBe(
      'Not answered: Hepatitis, Polio, Diphtheria, Tetanus, Yellow Fever, Measles, TB',
    );
  });
});

describe('the agreement line', () => {
  it('names who agreed and when, says when who is unknown, or asks for the signature', () => {
    expect(agreementLine('2026-11-20', { name: 'Sandra Mohammed', kind: 'guardian', at: '2026-11-20T14:00:00.000Z' })).toBe(
      'Agreed online by Sandra Mohammed (parent or guardian) on 2026-11-20.',
    );
    expect(agreementLine('2026-11-20', { name: null, kind: null, at: null })).toMatch(/^Agreed online on 2026-11-20; who agreed was not recorded/);
    expect(agreementLine(null, null)).toBe('Not yet agreed online: the parent or guardian signs below to agree.');
  });
});

describe('the content model', () => {
  const record: RecordValues = { first_name: 'Jaden', last_name: 'Ramdass', living_status: 'Mother Only', mother_name: 'Asha Ramdass', hepatitis: 1, internet_access: null, immigration_permit: 0 };
  const content = registrationFormContent(
    formData(record, { agreedOn: '2026-11-20', agreement: { name: 'Asha Ramdass', kind: 'guardian', at: '2026-11-20T14:00:00.000Z' } }),
  );
  const rows = content.sections.flatMap((section) => section.blocks.flatMap((block) => block.rows));
  const row = (label: string) => rows.find((r) => r.label === label);

  it('has the sections in print order, the shown fields only, and every unanswered question as Not answered', () => {
    expect(content.sections.map((section) => section.key)).toEqual(['student', 'family', 'health', 'other']);
    expect(content.studentName).toBe('Jaden Ramdass');
    expect(row('Student ID')?.value).toBe('20260001');
    expect(row('Immigration Permit')?.value).toBe('No');
    expect(row('Internet Access')?.value).toBe('Not answered');
    expect(row('Permit Issue Date')).toBeUndefined();
    expect(row('Immunisations')?.value).toMatch(/^Immunised against: Hepatitis {3}· {3}Not answered: Polio/);
    expect(content.sections[1]!.blocks.map((block) => block.title)).toEqual(['Mother', 'Family Size', 'Emergency Contact']);
    expect(content.terms).toMatchObject({ title: TERMS_TITLE, declaration: TERMS_DECLARATION, agreement: 'Agreed online by Asha Ramdass (parent or guardian) on 2026-11-20.', agreed: true });
  });

  it('is what the PDF draws: every row label and value, the terms and the agreement, from this one model', () => {
    const drawn = textsOf(buildRegistrationForm(formData(record, { agreedOn: '2026-11-20', agreement: { name: 'Asha Ramdass', kind: 'guardian', at: null } })).content).join('\n');
    for (const r of rows) {
      expect(drawn, r.label).toContain(r.label.replace(/^./, (c) => c.toUpperCase()));
      if (r.value !== null) expect(drawn, r.label).toContain(r.value);
    }
    for (const section of content.sections) expect(drawn).toContain(section.title);
    expect(drawn).toContain(content.terms.agreement);
    for (const document of content.documents) expect(drawn).toContain(document.label);
  });

  it('a switch of the terms stays Yes or No; the documents say what is missing', () => {
    const field = findField('agree_terms_conditions')!;
    expect(field.control).toBe('switch');
    expect(content.documents.find((document) => document.label === 'Birth Certificate')).toMatchObject({ received: false, note: 'missing' });
  });
});
