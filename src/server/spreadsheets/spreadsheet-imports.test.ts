import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StudentImportResultSchema } from '../../shared/students.schemas.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { farCornersXlsx, honestZipBomb, largeStudentsXlsx, lyingZipBomb } from '../../../tests/support/crafted-spreadsheets.js';
import { expectLoopKeptTurning, longestEventLoopDelay } from '../../../tests/support/event-loop.js';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.js';

/**
 * Issue 14 item 3: no import can exhaust memory or stall everyone. The three spreadsheet imports
 * (students, term results, attendance) read through one reader with the same limits, on the
 * worker pool. Through the real app, over HTTP only (so the same tests run against any version of
 * the server).
 */

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const IMPORTS = {
  students: '/api/students/import?dryRun=1',
  'term results': '/api/term-results/import?year=2026&term=1&dryRun=1',
  attendance: '/api/attendance/import?dryRun=1',
} as const;

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await new TestClient(t.app, '10.14.3.1').signInAdmin();
});
afterAll(async () => {
  await t?.close();
});

function upload(url: string, bytes: Buffer, fileName = 'upload.xlsx') {
  const boundary = `----import-${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${XLSX_MIME}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return admin.post(url, body, { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

function refusal(response: { statusCode: number; json(): unknown; body: string }, status: number) {
  expect(response.statusCode, response.body).toBe(status);
  return ApiErrorSchema.parse(response.json());
}

describe('a 1.5 kB workbook with cells at XFD1 and A1048576', () => {
  it.each(Object.entries(IMPORTS))('is refused by the %s import at once, with little memory', async (_name, url) => {
    const file = farCornersXlsx();
    expect(file.length).toBeLessThan(2048);
    const rssBefore = process.memoryUsage().rss;
    const body = refusal(await upload(url, file), 413);
    // Refused from its dimensions, before a cell is read: this reason is given only then. Reading
    // the sheet's 17 billion cells instead would end in the worker's time limit with another
    // answer, so no clock is needed to tell the two apart (a busy machine would blur one).
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
    expect(body.message).toBe('The sheet has values beyond column IV (the 256th). Keep the data in the first 256 columns.');
  });
});

describe('zip bombs', () => {
  it.each(Object.entries(IMPORTS))('are refused by the %s import, whether they declare their size or lie about it', async (_name, url) => {
    for (const bomb of [honestZipBomb(), lyingZipBomb()]) {
      expect(bomb.length).toBeLessThan(1024 * 1024);
      const body = refusal(await upload(url, bomb), 413);
      expect(body.message).toMatch(/too large once opened/);
    }
  });
});

describe('a large legal import', () => {
  it('is read off the event loop: other requests are answered while it parses', { timeout: 120_000 }, async () => {
    // About 60 MB of sheet XML in a file of a few MB: the office's export with everything in it.
    const file = largeStudentsXlsx();
    expect(file.length).toBeLessThan(10 * 1024 * 1024);
    let healthAnsweredMs = Number.NaN;
    const measure = await longestEventLoopDelay(async () => {
      const importing = upload(IMPORTS.students, file, 'students.xlsx');
      const asked = performance.now();
      // Asked while the import parses: answered long before it ends.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      healthAnsweredMs = performance.now() - asked - 50;
      expect(health.statusCode).toBe(200);
      return importing;
    });
    const { result } = measure;
    expect(result.statusCode, result.body.slice(0, 300)).toBe(200);
    expect(StudentImportResultSchema.parse(result.json()).rows).toHaveLength(5_000);
    expectLoopKeptTurning({ maxDelayMs: healthAnsweredMs, durationMs: measure.durationMs });
    expectLoopKeptTurning(measure);
  });
});
