import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { DEMO_FAMILY, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { TestClient } from '../support/test-app.js';
import { testConfig } from '../support/test-config.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/**
 * The first page of a visit as the server renders it (docs/decisions.md D99), from the built
 * client the browser suite drives, asked for without a browser: what the HTML holds, who is sent
 * where before anything renders, and what it never holds. The browser suite hydrates the same
 * pages (javascript-off.spec.ts and every journey).
 */

let database: TestDatabase;
let app: FastifyInstance;
const { registered, inProgress, passwordReset } = DEMO_STUDENTS;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp(testConfig({ schoolName: 'St. <Jude>’s' }), { db: database.db }, { logger: { level: 'error' }, webRoot: inject('webRoot'), pageRenderer: inject('pageRenderer') });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.destroy();
});

/** The markup React rendered into #root, and the state that follows it. */
function partsOf(html: string): { root: string; state: string | null } {
  const root = /<div id="root">([\s\S]*)<\/div><script type="application\/json" id="page-state">/.exec(html)?.[1] ?? '';
  const state = /<script type="application\/json" id="page-state">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? null;
  return { root, state };
}

describe('a page rendered on the server', () => {
  it('is the sign-in page with its CSS and its state, never stored by a cache', async () => {
    const visitor = new TestClient(app, '10.3.0.1');
    const page = await visitor.get('/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    const { root, state } = partsOf(page.body);
    expect(root).toContain('Student sign in');
    expect(root).toContain('St. &lt;Jude&gt;’s');
    // MUI's CSS for what the page shows is in the head; the scripts stay the built files only.
    expect(page.body.slice(0, page.body.indexOf('</head>'))).toMatch(/<style data-emotion="css [^"]+">/);
    expect(page.body).not.toMatch(/<script(?![^>]*(type="module"|type="application\/json"))[^>]*>/);
    expect(JSON.parse(state!)).toMatchObject({ queries: { queries: [{ queryKey: ['session'], state: { data: { user: null } } }] } });
  });

  it("is a registration step with the student's own record in it, for that student only", async () => {
    const student = await new TestClient(app, '10.3.0.2').signInStudent(inProgress.student_id, inProgress.password);
    // Another student's ID in the address changes nothing: a student's step is always their own.
    const page = await student.get(`/registration/student-data?student=${registered.student_id}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    const { root, state } = partsOf(page.body);
    expect(root).toContain('Student Data');
    expect(root).toContain(`value="${inProgress.first_name}"`);
    expect(page.body).not.toContain(registered.last_name);
    expect(state).toContain(`"student-record","${inProgress.student_id}"`);
  });

  it('keeps what a family typed from closing the state script or the page', async () => {
    const hostile = '</script><script>alert(1)</script><!--';
    await database.db.updateTable('students').set({ middle_name: hostile }).where('id', '=', inProgress.student_id).execute();
    try {
      const student = await new TestClient(app, '10.3.0.3').signInStudent(inProgress.student_id, inProgress.password);
      const page = await student.get('/registration/student-data');
      const { root, state } = partsOf(page.body);
      expect(page.body).not.toContain('<script>alert(1)');
      expect(root).toContain('value="&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--"');
      expect(state).toContain('\\u003c/script>\\u003cscript>alert(1)\\u003c/script>\\u003c!--');
      expect(JSON.stringify(JSON.parse(state!))).toContain(JSON.stringify(hostile).slice(1, -1));
    } finally {
      await database.db.updateTable('students').set({ middle_name: null }).where('id', '=', inProgress.student_id).execute();
    }
  });

  it('sends each person where the guards would, before anything renders', async () => {
    const visitor = new TestClient(app, '10.3.0.4');
    const student = await new TestClient(app, '10.3.0.5').signInStudent(inProgress.student_id, inProgress.password);
    const owingPassword = await new TestClient(app, '10.3.0.6').signInStudent(passwordReset.student_id, passwordReset.date_of_birth.replaceAll('-', ''));
    const admin = await new TestClient(app, '10.3.0.7').signInAdmin();
    const cases: [TestClient, string, string][] = [
      [visitor, '/registration/student-data', '/'],
      [visitor, '/dashboard', '/'],
      [visitor, '/admin/dashboard', '/admin'],
      [student, '/', '/dashboard'],
      [student, '/admin', '/dashboard'],
      [student, '/admin/dashboard', '/dashboard'],
      // An invitation opened before signing in goes on to its page, never to another site.
      [student, '/family/sign-in?next=%2Fnotices', '/notices'],
      [student, '/family/sign-in?next=%2F%2Fevil.example', '/dashboard'],
      [owingPassword, '/dashboard', '/'],
      [owingPassword, '/registration/student-data', '/'],
      [admin, '/', '/admin/dashboard'],
      [student, '/registration', '/registration/student-data'],
      [student, '/registration/no-such-step', '/registration/student-data'],
    ];
    for (const [client, from, to] of cases) {
      const answer = await client.get(from);
      expect(answer.statusCode, from).toBe(302);
      expect(answer.headers.location, from).toBe(to);
      expect(answer.headers['cache-control'], from).toBe('no-store');
    }
    // Where the guards let them in, each gets the page.
    expect((await owingPassword.get('/')).statusCode).toBe(200);
  });

  it('is the Complete step with the registration form as a page for a phone, and no PDF loaded by the markup', async () => {
    const student = await new TestClient(app, '10.3.0.8').signInStudent(registered.student_id, registered.password);
    const page = await student.get('/registration/complete');
    expect(page.statusCode).toBe(200);
    const { root, state } = partsOf(page.body);
    expect(root).toContain('Registration Form');
    // The form's content, for a phone (CSS shows it below 600 px): the student's own name in it.
    expect(root).toContain(registered.last_name);
    expect(state).toContain(`"registration-form-content","${registered.student_id}"`);
    // The PDF's frame comes once the page runs on a wider screen: the markup loads no PDF.
    expect(root).not.toMatch(/<iframe/);
  });

  it('is an admin report with room for its PDF, which the page loads only once it runs and knows the screen', async () => {
    const admin = await new TestClient(app, '10.3.0.10').signInAdmin();
    const page = await admin.get('/admin/dashboard?view=reports');
    expect(page.statusCode).toBe(200);
    const { root, state } = partsOf(page.body);
    expect(root).toContain('Registration Report');
    expect(state).not.toBeNull();
    // A phone shows a PDF as page images, a wider screen in a frame: neither is decided in the markup.
    expect(root).not.toMatch(/<iframe/);
  });

  it("leaves to the browser a family account's page whose child the address does not name: the app shell, not an error", async () => {
    const parent = new TestClient(app, '10.3.0.9');
    expect((await parent.post('/api/family/login', { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password })).statusCode).toBe(200);
    // The child is chosen in the tab, which the server cannot see (D99).
    const page = await parent.get('/registration/student-data');
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<div id="root"></div>');
    expect(page.body).not.toContain('id="page-state"');
  });
});
