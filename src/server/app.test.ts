import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STUDENTS } from './db/demo-data/demo-accounts.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { ApiErrorSchema } from '../shared/api-error.js';
import { createTestDatabase, type TestDatabase } from '../../tests/support/test-database.js';
import { testConfig } from '../../tests/support/test-config.js';
import { TestClient } from '../../tests/support/test-app.js';

const INDEX =
  '<html><head>\n    <meta name="application-name" content="Built" />\n    <title>Student Portal</title>\n    <script type="module" crossorigin src="/assets/index-1.js"></script>\n  </head><body></body></html>';

describe('the page the server answers for a client path', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let webRoot: string;
  const { registered, inProgress } = DEMO_STUDENTS;

  beforeAll(async () => {
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-client-'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), INDEX);
    database = await createTestDatabase();
    app = await buildApp(testConfig({ schoolName: `St. <Jude>'s & "Co"` }), { db: database.db }, { logger: false, webRoot });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.destroy();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('is one page for everyone on every client path, revalidated and never varied by cookie', async () => {
    const visitor = new TestClient(app, '10.1.0.3');
    const first = await visitor.get('/');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/^text\/html/);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers.vary ?? '').not.toMatch(/cookie/i);
    // The school's name, escaped, is the only change to the page as built.
    expect(first.body).toContain('<meta name="application-name" content="St. &#60;Jude&#62;&#39;s &#38; &#34;Co&#34;" />');
    expect(first.body).not.toContain('<Jude>');

    const student = await new TestClient(app, '10.1.0.4').signInStudent(registered.student_id, registered.password);
    const other = await new TestClient(app, '10.1.0.5').signInStudent(inProgress.student_id, inProgress.password);
    const admin = await new TestClient(app, '10.1.0.6').signInAdmin();
    for (const path of ['/registration/student-data', '/dashboard', '/term-reports', '/admin/dashboard', '/no/such/screen']) {
      for (const client of [visitor, student, other, admin]) {
        const page = await client.get(path);
        expect(page.statusCode, path).toBe(200);
        expect(page.body, path).toBe(first.body);
        expect(page.headers['cache-control'], path).toBe('no-cache');
      }
    }
  });

  it('answers the JSON 404 for an unknown API path or a missing file', async () => {
    const visitor = new TestClient(app, '10.1.0.7');
    for (const path of ['/api/no-such-call', '/assets/missing.js']) {
      const answer = await visitor.get(path);
      expect(answer.statusCode, path).toBe(404);
      expect(answer.json(), path).toMatchObject({ code: 'not_found' });
    }
  });

  it('validates, answers and documents the sign-in calls with their shared zod/mini schemas', async () => {
    const visitor = new TestClient(app, '10.1.0.8');
    const refused = await visitor.post('/api/login-student', { student_id: '  ', password: '' });
    expect(refused.statusCode).toBe(400);
    expect(ApiErrorSchema.parse(refused.json()).errors).toMatchObject({
      student_id: ['Student ID is required.', 'Student ID has only letters, digits and dashes.'],
      password: ['This field is required.'],
    });
    expect((await visitor.get('/api/session')).json()).toEqual({ user: null });

    const doc = (await visitor.get('/api/docs/json')).json<{
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } }>>;
    }>();
    const login = doc.paths['/api/login-student']?.['post']?.requestBody?.content['application/json']?.schema.properties;
    expect(login?.['student_id']).toMatchObject({ type: 'string', maxLength: 20, pattern: '^[A-Za-z0-9-]{1,20}$' });
    expect(JSON.stringify(doc.paths['/api/session'])).toContain('"enum":["student","staff","guardian"]');
  });
});

describe('the API documentation page (API_DOCS)', () => {
  const env = { LOG_LEVEL: 'silent', DATA_DIR: '/tmp/school-portal-tests' };
  const docsStatus = async (config: ReturnType<typeof loadConfig>) => {
    const database = await createTestDatabase();
    const app = await buildApp(config, { db: database.db }, { logger: false, webRoot: '/nonexistent' });
    try {
      const visitor = new TestClient(app, '10.1.0.9');
      return await Promise.all(['/api/docs', '/api/docs/json', '/api/docs/static/index.html'].map(async (url) => (await visitor.get(url)).statusCode));
    } finally {
      await app.close();
      await database.destroy();
    }
  };

  it('is served in development and when API_DOCS=true, and is gone (404) with API_DOCS=false', async () => {
    expect(await docsStatus(loadConfig({ ...env, NODE_ENV: 'development' }))).toEqual([200, 200, 302]);
    expect(await docsStatus(loadConfig({ ...env, NODE_ENV: 'production', API_DOCS: 'true' }))).toEqual([200, 200, 302]);
    expect(await docsStatus(loadConfig({ ...env, NODE_ENV: 'development', API_DOCS: 'false' }))).toEqual([404, 404, 404]);
  });

  it('is off by default in production (npm start), where nobody but a developer needs it', async () => {
    expect(await docsStatus(loadConfig({ ...env, NODE_ENV: 'production' }))).toEqual([404, 404, 404]);
  });
});
