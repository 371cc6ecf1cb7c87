import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { schoolToday } from '../../shared/dates.js';
import { StoreFileAnswerSchema } from '../../shared/documents.schemas.js';
import { pdfDownloadUrl } from '../../shared/pdf.schemas.js';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { storeFileBody, tinyPdf } from '../../../tests/support/test-files.js';
import { DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';

/**
 * Every PDF the portal shows can be saved with the same "Download PDF" action (D45): the same
 * `?download=1` on every PDF route answers `Content-Disposition: attachment` with the file's
 * name, the address without it stays inline (the page shows it), and any other value is a 400
 * with a message, not a 500 and not silently inline.
 */

const { registered } = DEMO_STUDENTS;

let t: TestApp;
let ip = 0;
const client = () => new TestClient(t.app, `10.7.0.${++ip}`);
let student: TestClient;
let admin: TestClient;
let documentUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  student = await client().signInStudent(registered.student_id, registered.password);
  admin = await client().signInAdmin();
  const { body, headers } = storeFileBody(registered.student_id, 'birth_certificate', { filename: 'certificate.pdf', bytes: await tinyPdf() });
  const stored = await student.post('/api/store-file', body, { headers });
  expect(stored.statusCode, stored.body).toBe(200);
  documentUrl = StoreFileAnswerSchema.parse(stored.json()).file.url;
});
afterAll(async () => {
  await t?.close();
});

const id = () => registered.student_id;
const today = schoolToday();
const cases: { what: string; who: () => TestClient; url: () => string; fileName: () => string }[] = [
  { what: 'a report card', who: () => student, url: () => `/api/report-card/${id()}/2025/1`, fileName: () => `Report Card ${id()} 2025 Term 1.pdf` },
  { what: 'the registration form', who: () => student, url: () => `/api/registration-form/${id()}?v=2025-01-01`, fileName: () => `Registration Form ${id()}.pdf` },
  { what: 'an attendance report', who: () => student, url: () => `/api/student-attendance-report/${id()}/${today}/${today}`, fileName: () => `Attendance ${id()} ${today} to ${today}.pdf` },
  { what: 'the registration report', who: () => admin, url: () => '/api/registration-report/all', fileName: () => 'Registration Report - All classes.pdf' },
  { what: 'the parents contact', who: () => admin, url: () => '/api/parents-contact/all', fileName: () => 'Parents Contact - All classes.pdf' },
  { what: 'an uploaded PDF document', who: () => student, url: () => documentUrl, fileName: () => 'certificate.pdf' },
];

describe.each(cases)('$what', ({ who, url, fileName }) => {
  it('is shown inline by default and saved as an attachment with its name for download=1', async () => {
    const shown = await who().get(url());
    expect(shown.statusCode, shown.body.slice(0, 200)).toBe(200);
    expect(shown.headers['content-disposition']).toMatch(/^inline; filename="/);

    const saved = await who().get(pdfDownloadUrl(url()));
    expect(saved.statusCode, saved.body.slice(0, 200)).toBe(200);
    expect(saved.headers['content-type']).toBe('application/pdf');
    expect(saved.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="${fileName().replace(/[.()]/g, '\\$&')}"`));
    expect(saved.rawPayload.subarray(0, 4).toString('latin1')).toBe('%PDF');

    const explicit = await who().get(`${url()}${url().includes('?') ? '&' : '?'}download=0`);
    expect(explicit.headers['content-disposition']).toMatch(/^inline; /);
  });

  it('refuses any other download value with a 400 and a message', async () => {
    for (const value of ['yes', 'true', '2', '']) {
      const response = await who().get(`${url()}${url().includes('?') ? '&' : '?'}download=${value}`);
      expect(response.statusCode, `${value}: ${response.body.slice(0, 200)}`).toBe(400);
      const body = ApiErrorSchema.parse(response.json());
      expect(body.code).toBe('validation_failed');
      expect(JSON.stringify(body)).toContain('download must be 1 (save the PDF) or 0 (show it).');
    }
  });
});

describe('pdfDownloadUrl', () => {
  it('adds download=1 and keeps the query the address has', () => {
    expect(pdfDownloadUrl('/api/report-card/20220001/2025/1')).toBe('/api/report-card/20220001/2025/1?download=1');
    expect(pdfDownloadUrl('/api/registration-form/20220001?v=2025-01-01%2010%3A00')).toBe('/api/registration-form/20220001?v=2025-01-01+10%3A00&download=1');
    expect(pdfDownloadUrl('/api/x?download=0')).toBe('/api/x?download=1');
  });
});
