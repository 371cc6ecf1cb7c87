import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { readPdf } from '../support/pdf-text.js';
import { createTestApp } from '../support/test-app.js';
import { testConfig } from '../support/test-config.js';
import { createTestDatabase, currentEngine } from '../support/test-database.js';
import { buildApp } from '../../src/server/app.js';
import {
  agentFor,
  errorShapeProblem,
  leakIn,
  OWN_STUDENT,
  routeRows,
  type Agent,
  type CallerKind,
  type RouteRow,
} from '../support/security/harness.js';
import { sampleFor } from '../support/security/route-samples.js';

/**
 * Headers and answers. CSP without inline scripts and with frame-ancestors for the
 * PDF frames; no stack trace or SQL in any error, even when the database itself fails; no hash,
 * token or other student's data in any answer of any GET route (walked from the route table),
 * PDFs and spreadsheets read back as text.
 */

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
// The headers are the HTTP layer's, whatever the engine: the policy and PDF-frame checks run on
// SQLite only; the answers' contents and the errors run on both (their SQL differs by engine).
const onPostgres = currentEngine() === 'postgres';
const t = await createTestApp();
afterAll(() => t.close());
const db = t.database.db;

function directives(header: string | string[] | number | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of String(header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

describe.skipIf(onPostgres)('Content-Security-Policy', () => {
  it('the app shell: scripts only from the portal, never inline or eval; frames only by the portal; no plugins', async () => {
    const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-csp-'));
    fs.copyFileSync(path.join(REPO_ROOT, 'src/web/index.html'), path.join(webRoot, 'index.html'));
    const database = await createTestDatabase();
    const app = await buildApp(testConfig(), { db: database.db }, { logger: false, webRoot });
    try {
      const response = await app.inject({ method: 'GET', url: '/dashboard' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      const csp = directives(response.headers['content-security-policy']);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      expect(csp.get('form-action')).toEqual(["'self'"]);
      expect([...csp.values()].flat()).not.toContain("'unsafe-eval'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
    } finally {
      await app.close();
      await database.destroy();
      fs.rmSync(webRoot, { recursive: true, force: true });
    }
  });

  it.each(['src/web/index.html', 'dist/web/index.html'])('%s has no inline script or event-handler attribute (the CSP would block it)', (file) => {
    const full = path.join(REPO_ROOT, file);
    if (!fs.existsSync(full)) return; // dist/web exists once built (npm run build, the e2e setup)
    const html = fs.readFileSync(full, 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes = '', body = ''] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(body.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/javascript:/i);
  });

  it('over plain HTTP (no proxy, or a listed proxy forwarding http) the CSP does not upgrade requests and no HSTS is sent', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/towns', headers: { 'x-forwarded-proto': 'https' } });
    expect(directives(plain.headers['content-security-policy']).has('upgrade-insecure-requests')).toBe(false);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const proxied = await createTestApp({ trustProxy: ['10.40.0.1'] });
    try {
      const overHttp = await proxied.app.inject({ method: 'GET', url: '/api/towns', remoteAddress: '10.40.0.1', headers: { 'x-forwarded-proto': 'http' } });
      expect(directives(overHttp.headers['content-security-policy']).has('upgrade-insecure-requests')).toBe(false);
      expect(overHttp.headers['strict-transport-security']).toBeUndefined();
      const noHeader = await proxied.app.inject({ method: 'GET', url: '/api/towns', remoteAddress: '10.40.0.1' });
      expect(directives(noHeader.headers['content-security-policy']).has('upgrade-insecure-requests')).toBe(false);
      // TLS in front: the listed proxy says https.
      const overTls = await proxied.app.inject({ method: 'GET', url: '/api/towns', remoteAddress: '10.40.0.1', headers: { 'x-forwarded-proto': 'https' } });
      const csp = directives(overTls.headers['content-security-policy']);
      expect(csp.has('upgrade-insecure-requests')).toBe(true);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(overTls.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      // A client that is not the proxy cannot claim it.
      const direct = await proxied.app.inject({ method: 'GET', url: '/api/towns', remoteAddress: '10.41.0.1', headers: { 'x-forwarded-proto': 'https' } });
      expect(directives(direct.headers['content-security-policy']).has('upgrade-insecure-requests')).toBe(false);
      expect(direct.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });

  it('API answers carry the same policy and nosniff', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/towns' });
    const csp = directives(response.headers['content-security-policy']);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

const rows = routeRows(t.app).filter((row) => row.method === 'GET' && row.access && sampleFor(row.method, row.url) && !row.url.startsWith('/api/docs'));

async function call(row: RouteRow, caller: CallerKind, agent?: Agent): Promise<{ response: LightMyRequestResponse; agent: Agent }> {
  const a = agent ?? (await agentFor(t.app, db, caller));
  const request = await sampleFor(row.method, row.url)!.request({ db, caller, student: OWN_STUDENT });
  return { response: await a.request('GET', request), agent: a };
}

describe.skipIf(onPostgres)('PDF answers (shown in frames of the portal only)', () => {
  const pdfRows = ['/api/registration-form/:studentId', '/api/report-card/:studentId/:year/:term', '/api/student-attendance-report/:studentId/:startDate/:endDate', '/api/registration-report/:classId'];

  it.each(pdfRows)('%s: application/pdf, frame-ancestors self, SAMEORIGIN, nosniff, not stored by caches', async (url) => {
    const row = rows.find((r) => r.url === url);
    expect(row, `${url} is in the route table`).toBeDefined();
    const { response } = await call(row!, 'admin');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(directives(response.headers['content-security-policy']).get('frame-ancestors')).toEqual(["'self'"]);
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(String(response.headers['cache-control'])).toMatch(/no-store|private/);
  });
});

/** The text of an answer: JSON and HTML as is, PDFs and spreadsheets read back. */
async function textOf(response: LightMyRequestResponse): Promise<string> {
  const type = String(response.headers['content-type'] ?? '');
  if (type.startsWith('application/pdf')) return (await readPdf(response.rawPayload)).text;
  if (type.includes('spreadsheetml')) {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    workbook.eachSheet((sheet) => sheet.eachRow((r) => r.eachCell((cell) => cells.push(String(cell.text)))));
    return cells.join('\n');
  }
  return response.body;
}

describe('no secret in any answer', async () => {
  const hashes = (await db.selectFrom('users').select('password_hash').execute()).map((r) => r.password_hash).filter((h): h is string => Boolean(h));
  const sessionHashes = async () => (await db.selectFrom('sessions').select('id_hash').execute()).map((r) => r.id_hash);
  const students = await db.selectFrom('students').select(['id', 'first_name', 'last_name', 'class_id']).execute();
  const own = students.find((s) => s.id === OWN_STUDENT)!;
  const classmates = students.filter((s) => s.class_id === own.class_id && s.id !== OWN_STUDENT);
  const otherIds = students.filter((s) => s.id !== OWN_STUDENT).map((s) => s.id);

  it('the secrets to look for are real (the scan can fail)', () => {
    expect(hashes.length).toBeGreaterThan(100);
    expect(hashes[0]).toMatch(/^\$argon2id\$/);
    expect(classmates.length).toBeGreaterThan(5);
  });

  describe.each(rows.map((row) => [row.key, row] as const))('%s', (_key, row) => {
    // A visitor's answers are the same 401s on either engine.
    it.each(onPostgres ? (['own', 'admin'] as const) : (['visitor', 'own', 'admin'] as const))('as %s', async (caller) => {
      const { response, agent } = await call(row, caller);
      const text = await textOf(response);
      const detail = `${caller} ${row.key} → ${response.statusCode}`;
      expect(response.statusCode, detail).toBeLessThan(500);
      expect(text, detail).not.toMatch(/\$argon2|password_hash|id_hash|key_hash/);
      for (const hash of hashes) expect(text.includes(hash), `${detail}: a password hash`).toBe(false);
      for (const hash of await sessionHashes()) expect(text.includes(hash), `${detail}: a session hash`).toBe(false);
      if (agent.sessionToken) expect(text.includes(agent.sessionToken), `${detail}: the session id`).toBe(false);
      expect(text.includes(agent.csrfToken), `${detail}: the CSRF token`).toBe(false);
      if (caller === 'own' && response.statusCode === 200) {
        const leakedIds = otherIds.filter((id) => new RegExp(`(^|\\D)${id}(\\D|$)`).test(text));
        expect(leakedIds, `${detail}: other students' ids`).toEqual([]);
        const leakedNames = classmates.filter((s) => text.includes(`${s.first_name} ${s.last_name}`) || text.includes(`${s.last_name}, ${s.first_name}`));
        expect(leakedNames.map((s) => s.id), `${detail}: classmates' names`).toEqual([]);
      }
    });
  });
});

describe('errors never show a stack trace or SQL', () => {
  it('4xx answers of every GET route are the error shape without internals', async () => {
    for (const row of rows) {
      const agent = await agentFor(t.app, db, 'other');
      const request = await sampleFor(row.method, row.url)!.request({ db, caller: 'other', student: '20220002' });
      const response = await agent.request('GET', request);
      if (response.statusCode < 400) continue;
      expect(errorShapeProblem(response), row.key).toBeNull();
      expect(leakIn(response.body), `${row.key}: ${response.body}`).toBeUndefined();
    }
  });

  it('when the database itself fails, every route answers 500 with the generic message only', async () => {
    const broken = await createTestApp();
    try {
      const bdb = broken.database.db;
      const admin = await agentFor(broken.app, bdb, 'admin');
      const student = await agentFor(broken.app, bdb, 'own');
      // Their CSRF tokens are issued while the session still loads.
      await Promise.all([admin.csrf(), student.csrf()]);
      // Break the tables every feature reads: sessions still load, then the feature's SQL fails.
      for (const table of ['students', 'documents', 'term_reports', 'attendance_records', 'registration_periods', 'towns', 'scanner_devices', 'school_holidays', 'settings', 'term_results']) {
        await sql.raw(`alter table ${table} rename to ${table}_broken`).execute(bdb);
      }
      let failures = 0;
      for (const row of routeRows(broken.app).filter((r) => r.access && !['HEAD', 'OPTIONS'].includes(r.method) && !r.url.startsWith('/api/docs'))) {
        for (const agent of [admin, student]) {
          const sample = sampleFor(row.method, row.url);
          if (!sample) continue;
          let request;
          try {
            request = await sample.request({ db: bdb, caller: agent === admin ? 'admin' : 'own', student: OWN_STUDENT });
          } catch {
            continue; // the sample itself needs the broken tables; nothing to send
          }
          const response = await agent.request(row.method, request);
          if (response.statusCode < 500) continue;
          failures++;
          expect(response.statusCode, row.key).toBe(500);
          expect(response.json(), row.key).toEqual({ message: 'Something went wrong on our side. Please try again.', code: 'internal' });
        }
      }
      // The database really failed under many routes (so the check above had something to check).
      expect(failures).toBeGreaterThan(20);
    } finally {
      await broken.close();
    }
  });
});
