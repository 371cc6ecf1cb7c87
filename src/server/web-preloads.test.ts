import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STUDENTS } from './db/demo-data/demo-accounts.js';
import { buildApp } from './app.js';
import { indexHtmlWithPreloads, manifestKeyOf, preloadFilesFor, type BuildManifest, type PageViewer } from './web-preloads.js';
import { createTestDatabase, type TestDatabase } from '../../tests/support/test-database.js';
import { testConfig } from '../../tests/support/test-config.js';
import { TestClient } from '../../tests/support/test-app.js';

/** A build's manifest in miniature: an entry, a lazily loaded frame and screen, a shared chunk. */
const MANIFEST: BuildManifest = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_vendor-1.js'] },
  '_vendor-1.js': { file: 'assets/vendor-1.js', name: 'vendor' },
  'components/app-shell.tsx': { file: 'assets/app-shell-1.js', src: 'components/app-shell.tsx', imports: ['_vendor-1.js', '_student-area-1.js'] },
  '_student-area-1.js': { file: 'assets/student-area-1.js', name: 'student-area', imports: ['_vendor-1.js'] },
  // Imported statically by another screen too, so a shared chunk named after the module.
  '_registration-routes-1.js': { file: 'assets/registration-routes-1.js', name: 'registration-routes', imports: ['_student-area-1.js', '_schemas-1.js'] },
  '_schemas-1.js': { file: 'assets/schemas-1.js', name: 'schemas' },
  'registration/registration.api.ts': { file: 'assets/registration.api-1.js', src: 'registration/registration.api.ts', imports: ['_schemas-1.js'] },
  'dashboard/dashboard-page.tsx': { file: 'assets/dashboard-page-1.js', src: 'dashboard/dashboard-page.tsx', imports: ['_vendor-1.js'] },
};

const INDEX = '<html><head><title>Portal</title></head><body></body></html>';
/** The built page's shape: the session asked for in the head, then the title and the entry. */
const INDEX_WITH_SESSION =
  '<html><head>\n    <link rel="preload" href="/api/session" as="fetch" crossorigin="use-credentials" />\n    <title>Portal</title>\n    <script type="module" crossorigin src="/assets/index-1.js"></script>\n  </head><body></body></html>';

const student = (studentId: string, pending: Partial<PageViewer & object> = {}): PageViewer => ({
  role: 'student',
  studentId,
  firstLogin: false,
  passwordReset: false,
  ...pending,
});
const ADMIN: PageViewer = { role: 'admin', studentId: null, firstLogin: false, passwordReset: false };

/** What the page of a registration step asks for, for the student `id`. */
const stepCalls = (id: string) => ['/api/session', `/api/student-record/${id}`, '/api/registration-status'];

/** The `<link rel="preload" as="fetch">` URLs of a page, in order. */
const fetchPreloads = (html: string) =>
  [...html.matchAll(/<link rel="preload" href="([^"]+)" as="fetch" crossorigin="use-credentials" \/>/g)].map((match) => match[1]);

describe('route preloads', () => {
  it('finds a module by its key, or the shared chunk named after it', () => {
    expect(manifestKeyOf(MANIFEST, 'components/app-shell.tsx')).toBe('components/app-shell.tsx');
    expect(manifestKeyOf(MANIFEST, 'registration/registration-routes.tsx')).toBe('_registration-routes-1.js');
    expect(manifestKeyOf(MANIFEST, 'registration/nowhere.tsx')).toBeUndefined();
  });

  it("names the screens' files and what they import, but nothing the entry already loads", () => {
    expect(preloadFilesFor(MANIFEST, ['components/app-shell.tsx', 'registration/registration-routes.tsx'])).toEqual([
      '/assets/app-shell-1.js',
      '/assets/registration-routes-1.js',
      '/assets/schemas-1.js',
      '/assets/student-area-1.js',
    ]);
  });

  it("adds modulepreload links to a screen's path only", () => {
    const htmlFor = indexHtmlWithPreloads(INDEX, MANIFEST);
    const registration = htmlFor('/registration/student-data', null);
    expect(registration).toContain('<link rel="modulepreload" crossorigin href="/assets/registration-routes-1.js" />');
    expect(registration).toContain('<link rel="modulepreload" crossorigin href="/assets/registration.api-1.js" />');
    expect(registration).not.toContain('vendor-1.js');
    expect(registration.indexOf('modulepreload')).toBeLessThan(registration.indexOf('</head>'));
    expect(htmlFor('/registration', null)).toBe(registration);
    expect(htmlFor('/dashboard', null)).toContain('/assets/dashboard-page-1.js');
    // The sign-in pages, the admin area and look-alike paths get the page as built.
    for (const path of ['/', '/admin/dashboard', '/registrations', '/logout']) expect(htmlFor(path, null)).toBe(INDEX);
  });

  it('serves the page as built when the build has no manifest', () => {
    expect(indexHtmlWithPreloads(INDEX, undefined)('/registration/student-data', student('20220001'))).toBe(INDEX);
  });
});

describe("a signed-in student's first calls", () => {
  const htmlFor = indexHtmlWithPreloads(INDEX_WITH_SESSION, MANIFEST);

  it("asks for the student's own record and the window's status, after the scripts", () => {
    const html = htmlFor('/registration/student-data', student('20220001'));
    expect(fetchPreloads(html)).toEqual(stepCalls('20220001'));
    expect(html.indexOf('/api/student-record/')).toBeGreaterThan(html.indexOf('modulepreload'));
    expect(html.indexOf('/api/registration-status')).toBeLessThan(html.indexOf('</head>'));
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/registration-routes-1.js" />');
    // The page of one student never names another's record, whatever was answered before.
    expect(fetchPreloads(htmlFor('/registration/family-data', student('20260001')))).toEqual(stepCalls('20260001'));
  });

  it('asks for nothing more for a visitor, an administrator, a pending password change or another screen', () => {
    const none = ['/api/session'];
    expect(fetchPreloads(htmlFor('/registration/student-data', null))).toEqual(none);
    expect(fetchPreloads(htmlFor('/registration/student-data', ADMIN))).toEqual(none);
    expect(fetchPreloads(htmlFor('/registration/student-data', student('20240001', { passwordReset: true })))).toEqual(none);
    expect(fetchPreloads(htmlFor('/registration/student-data', student('20260002', { firstLogin: true })))).toEqual(none);
    for (const path of ['/', '/dashboard', '/registration/change-password', '/term-reports', '/registrations']) {
      expect(fetchPreloads(htmlFor(path, student('20220001'))), path).toEqual(none);
    }
  });

  it('writes the URL the web client asks for, escaped for the attribute', () => {
    const html = htmlFor('/registration/student-data', student(`1"/><script>'&`));
    expect(fetchPreloads(html)[1]).toBe('/api/student-record/1%22%2F%3E%3Cscript%3E&#39;%26');
    expect(html).not.toContain('<script>');
  });
});

describe('the page the server answers for a client path', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let webRoot: string;
  const { registered, inProgress, passwordReset } = DEMO_STUDENTS;

  beforeAll(async () => {
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-preloads-'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), INDEX_WITH_SESSION);
    fs.mkdirSync(path.join(webRoot, '.vite'));
    fs.writeFileSync(path.join(webRoot, '.vite/manifest.json'), JSON.stringify(MANIFEST));
    database = await createTestDatabase();
    app = await buildApp(testConfig(), { db: database.db }, { logger: false, webRoot });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.destroy();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it("names exactly the signed-in student's own record, in a page no shared cache keeps", async () => {
    const client = await new TestClient(app).signInStudent(registered.student_id, registered.password);
    const page = await client.get('/registration/student-data');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(String(page.headers.vary).toLowerCase()).toContain('cookie');
    expect(fetchPreloads(page.body)).toEqual(stepCalls(registered.student_id));
    expect(page.body).not.toContain(inProgress.student_id);
    // Every preloaded call is one the student may make, answered.
    for (const call of stepCalls(registered.student_id)) expect((await client.get(call)).statusCode, call).toBe(200);

    const other = await new TestClient(app, '10.1.0.2').signInStudent(inProgress.student_id, inProgress.password);
    expect(fetchPreloads((await other.get('/registration/other-data')).body)[1]).toBe(`/api/student-record/${inProgress.student_id}`);
    // Another screen's page asks for nothing more.
    expect(fetchPreloads((await client.get('/dashboard')).body)).toEqual(['/api/session']);
  });

  it('names no record for a visitor, an administrator or a student who must change their password', async () => {
    const visitor = new TestClient(app, '10.1.0.3');
    expect(fetchPreloads((await visitor.get('/registration/student-data')).body)).toEqual(['/api/session']);
    const admin = await new TestClient(app, '10.1.0.4').signInAdmin();
    expect(fetchPreloads((await admin.get('/registration/student-data')).body)).toEqual(['/api/session']);
    const reset = await new TestClient(app, '10.1.0.5').signInStudent(passwordReset.student_id, passwordReset.date_of_birth.replaceAll('-', ''));
    expect(fetchPreloads((await reset.get('/registration/student-data')).body)).toEqual(['/api/session']);
  });
});
