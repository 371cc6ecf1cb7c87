import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { REGISTRATION_FIELDS } from '../../shared/registration.fields.js';
import { TERMS_TITLE } from '../../shared/terms.js';
import { RegistrationFormContentSchema } from '../../shared/registration-form.schemas.js';
import { readPdf } from '../../../tests/support/pdf-text.js';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { DEMO_FAMILY, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { headerOnlyJpeg, ONE_PIXEL_JPEG, storeFileBody } from '../../../tests/support/test-files.js';
import { FORM_TITLE } from './registration-form.pdf.js';

/**
 * The printable registration form (docs/requirements.md R8; `/api/registration-form/{studentId}`):
 * Legal paper, the student's name and ID in its text, every section, the picture, the documents
 * checklist and the terms with the date agreed; who may print whose; a record filled to every
 * maximum length still lays out.
 */

const { registered, inProgress } = DEMO_STUDENTS;

let t: TestApp;
let ipCounter = 0;
const client = () => new TestClient(t.app, `10.5.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const formUrl = (id: string) => `/api/registration-form/${id}`;

async function fetchForm(c: TestClient, id: string) {
  const response = await c.get(formUrl(id));
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  expect(response.headers['content-type']).toBe('application/pdf');
  expect(response.headers['content-disposition']).toBe(`inline; filename="Registration Form ${id}.pdf"`);
  expect(response.headers['cache-control']).toBe('private, no-store');
  const pdf = await readPdf(response.rawPayload);
  // Long unbroken runs carry zero-width spaces (wrap points); read the text without them.
  return { bytes: response.rawPayload, pdf: { ...pdf, compact: pdf.compact.replaceAll('\u200B', '') } };
}

const squash = (text: string) => text.replace(/\s+/g, '');

describe('who may print whose form', () => {
  it('a visitor gets 401; a student 403 for another student; an administrator any', async () => {
    expect((await client().get(formUrl(registered.student_id))).statusCode).toBe(401);
    const student = await client().signInStudent(inProgress.student_id, inProgress.password);
    const denied = await student.get(formUrl(registered.student_id));
    expect(denied.statusCode).toBe(403);
    expect(ApiErrorSchema.parse(denied.json()).code).toBe('forbidden');
    await fetchForm(await client().signInAdmin(), registered.student_id);
    await fetchForm(await client().signInAdmin(), inProgress.student_id);
    const unknown = await (await client().signInAdmin()).get(formUrl('99999999'));
    expect(unknown.statusCode).toBe(404);
  });
});

describe('the registered student’s form', () => {
  it('is one Legal page with the header, the student, every section, the documents and the terms', async () => {
    const c = await client().signInStudent(registered.student_id, registered.password);
    const { pdf, bytes } = await fetchForm(c, registered.student_id);
    expect(pdf.pageSizes.every(([w, h]) => w === 612 && h === 1008)).toBe(true);
    expect(pdf.pages).toBe(1);
    const row = await t.database.db.selectFrom('students').selectAll().where('id', '=', registered.student_id).executeTakeFirstOrThrow();
    for (const text of [
      'St. Andrew’s Secondary School',
      FORM_TITLE,
      `${registered.first_name}`,
      `${registered.last_name}`,
      registered.student_id,
      'Home Address',
      'Nationality',
      'Family',
      `Living Status: ${row.living_status}`,
      'Health',
      'Immunisations',
      'Other Data',
      'Documents Received',
      'Birth Certificate',
      TERMS_TITLE,
      `Agreed online by ${DEMO_FAMILY.name} (parent or guardian) on ${row.agree_terms_date}`,
      'Parent or Guardian',
      'Received by (School Office)',
    ]) {
      expect(pdf.compact, text).toContain(squash(text));
    }
    // Phones print as every export prints them: the area prefix and a hyphen after three digits.
    const phone = row.mobile_phone_mother!;
    expect(pdf.compact).toContain(squash(`(868) ${phone.slice(0, 3)}-${phone.slice(3)}`));
    // The picture the seeder uploaded is on the form.
    expect(bytes.toString('latin1')).toContain('/Subtype /Image');
  });
});

describe('the student in progress', () => {
  it('prints lookup names, marks missing documents, shows the agreement date once agreed, and the picture once uploaded', async () => {
    const id = inProgress.student_id;
    const c = await client().signInStudent(id, inProgress.password);
    let { pdf, bytes } = await fetchForm(c, id);
    expect(pdf.compact).toContain(inProgress.first_name);
    expect(pdf.compact).toContain(inProgress.last_name);
    expect(pdf.compact).toContain('missing');
    expect(pdf.compact).toContain(squash('Not yet agreed online'));
    expect(bytes.toString('latin1')).not.toContain('/Subtype /Image');

    const religion = await t.database.db
      .selectFrom('students')
      .innerJoin('religions', 'religions.code', 'students.religion_code')
      .select('religions.religion')
      .where('students.id', '=', id)
      .executeTakeFirst();
    if (religion) expect(pdf.compact).toContain(squash(religion.religion));

    // Questions nobody answered print as Not answered, never as No (D75).
    await t.database.db
      .updateTable('students')
      .set({ hepatitis: 1, polio: 0, measles: null, internet_access: null, immigration_permit: null, asthma: null, diabetes: 0 })
      .where('id', '=', id)
      .execute();
    ({ pdf } = await fetchForm(c, id));
    // The conditions and the immigration permit too (D84).
    expect(pdf.compact).toContain(squash('Immigration Permit Not answered'));
    expect(pdf.compact).toMatch(new RegExp(`${squash('Has not had:')}[^·]*Diabetes`));
    expect(pdf.compact).toMatch(new RegExp(`${squash('Not answered:')}[^·]*Asthma`));
    expect(pdf.compact).toContain(squash('Immunised against: Hepatitis'));
    expect(pdf.compact).toContain(squash('Not immunised: Polio'));
    expect(pdf.compact).toMatch(new RegExp(`${squash('Not answered:')}[^·]*Measles`));
    expect(pdf.compact).toContain(squash('Internet Access Not answered'));
    // The family account linked to the child agrees; the form names them and the day.
    const family = client();
    expect((await family.post('/api/family/login', { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password })).statusCode).toBe(200);
    const agreed = await family.post('/api/student', { id, agree_terms_conditions: 1 });
    expect(agreed.statusCode, agreed.body).toBe(200);
    const { agree_terms_date } = await t.database.db.selectFrom('students').select('agree_terms_date').where('id', '=', id).executeTakeFirstOrThrow();
    expect(agree_terms_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const upload = storeFileBody(id, 'picture', { filename: 'face.jpg', bytes: ONE_PIXEL_JPEG });
    expect((await c.post('/api/store-file', upload.body, { headers: upload.headers })).statusCode).toBe(200);
    ({ pdf, bytes } = await fetchForm(c, id));
    expect(pdf.compact).toContain(squash(`Agreed online by ${DEMO_FAMILY.name} (parent or guardian) on ${agree_terms_date}`));
    // The phone's view reads the same content, as data (D75).
    const content = RegistrationFormContentSchema.parse((await c.get(`/api/registration-form/${id}/content`)).json());
    expect(content.terms.agreement).toBe(`Agreed online by ${DEMO_FAMILY.name} (parent or guardian) on ${agree_terms_date}.`);
    const rows = content.sections.flatMap((section) => section.blocks.flatMap((block) => block.rows));
    expect(rows.find((row) => row.label === 'Internet Access')?.value).toBe('Not answered');
    expect((await client().get(`/api/registration-form/${id}/content`)).statusCode).toBe(401);
    expect((await (await client().signInStudent(registered.student_id, registered.password)).get(`/api/registration-form/${id}/content`)).statusCode).toBe(403);
    expect(bytes.toString('latin1')).toContain('/Subtype /Image');

    // A picture whose header is right but whose data is not is refused at upload (D74); one stored
    // before photos were decoded on upload still gives a form (empty photo box).
    const broken = storeFileBody(id, 'picture', { filename: 'broken.jpg', bytes: headerOnlyJpeg() });
    expect((await c.post('/api/store-file', broken.body, { headers: broken.headers })).statusCode).toBe(415);
    await t.database.db.updateTable('documents').set({ bytes: headerOnlyJpeg() }).where('student_id', '=', id).where('file_type', '=', 'picture').execute();
    ({ pdf, bytes } = await fetchForm(c, id));
    expect(pdf.compact).toContain('Affixphoto');

    await family.post('/api/student', { id, agree_terms_conditions: 0 });
    ({ pdf } = await fetchForm(c, id));
    expect(pdf.compact).toContain(squash('Not yet agreed online'));
  });
});

describe('a record filled to every maximum length', () => {
  it('still lays out on Legal pages with the name, the ID and the last section', async () => {
    const id = inProgress.student_id;
    const words = (max: number) => 'Wide Words Make Long Lines '.repeat(20).slice(0, max).trimEnd().padEnd(max, 'W');
    const values: Record<string, string | number> = {};
    for (const field of REGISTRATION_FIELDS) {
      if (field.serverManaged || field.readOnlyForStudents || field.lookup) continue;
      if (field.control === 'switch' || field.control === 'yesno') values[field.name] = 1;
      else if (field.control === 'phone') values[field.name] = '9999999';
      else if (field.control === 'email') values[field.name] = `${'w'.repeat((field.maxLength ?? 50) - 12)}@example.com`;
      else if (field.control === 'number') values[field.name] = field.format === 'year' ? '1999' : '99';
      else if (field.control === 'date') values[field.name] = '2010-12-28';
      else if (field.options) values[field.name] = [...field.options].sort((a, b) => b.length - a.length)[0]!;
      else if (field.maxLength) values[field.name] = words(field.maxLength);
    }
    // One unbroken string at the longest length: it must wrap, not push the page wider.
    values.medical_history = 'W'.repeat(255);
    values.living_status = 'Both Parents';
    values.first_name = 'W'.repeat(20);
    values.last_name = 'Maximilian-Wolfgang';
    await t.database.db.updateTable('students').set(values).where('id', '=', id).execute();

    const admin = await client().signInAdmin();
    const { pdf } = await fetchForm(admin, id);
    expect(pdf.pages).toBeGreaterThanOrEqual(1);
    expect(pdf.pages).toBeLessThanOrEqual(3);
    expect(pdf.pageSizes.every(([w, h]) => w === 612 && h === 1008)).toBe(true);
    expect(pdf.compact).toContain(id);
    expect(pdf.compact).toContain('Maximilian-Wolfgang');
    expect(pdf.compact).toContain(squash(values.mother_home_address as string));
    expect(pdf.compact).toContain('W'.repeat(255));
    expect(pdf.compact).toContain(squash('Received by (School Office)'));
    expect(pdf.compact).toContain(`Page${pdf.pages}of${pdf.pages}`);
  });
});
