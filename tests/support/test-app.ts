import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { ApiErrorSchema, type ApiErrorBody } from '../../src/shared/api-error.js';
import { buildApp, type BuildOptions } from '../../src/server/app.js';
import type { Config } from '../../src/server/config.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { testConfig } from './test-config.js';
import { DEMO_ADMIN } from '../../src/server/db/demo-data/demo-accounts.js';

/** The app on a fresh copy of the seeded database, driven in-process with inject (fastify/demo). */
export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  close(): Promise<void>;
}

/**
 * The mail sender is built but not started unless `options.mailSender.start` asks for it: a suite
 * that sends mail starts a real SMTP server (smtp-inbox.ts), passes its `smtpUrl`, and either lets
 * the sender run or calls `app.mailSender.drain()`.
 */
export async function createTestApp(overrides: Partial<Config> = {}, options: Pick<BuildOptions, 'mailSender'> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const app = await buildApp(testConfig(overrides), { db: database.db }, { logger: false, webRoot: '/nonexistent', mailSender: { start: false, ...options.mailSender } });
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.destroy();
    },
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A browser-like client: keeps cookies between calls and echoes the XSRF-TOKEN cookie in the
 * X-XSRF-TOKEN header, as the web client does. `csrf: false` on a call leaves the header out.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly app: FastifyInstance,
    readonly ip = '10.1.0.1',
  ) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private remember(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies) {
      const expired = cookie.maxAge === 0 || (cookie.expires instanceof Date && cookie.expires.getTime() <= Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  async fetchCsrf(): Promise<void> {
    this.remember(await this.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie', headers: { cookie: this.cookieHeader() }, remoteAddress: this.ip }));
  }

  async request(
    method: Method,
    url: string,
    options: { body?: InjectOptions['payload']; headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (method !== 'GET' && options.csrf !== false) {
      if (!this.cookies.has('XSRF-TOKEN')) await this.fetchCsrf();
      headers['x-xsrf-token'] = this.cookies.get('XSRF-TOKEN') ?? '';
    }
    const cookie = this.cookieHeader();
    if (cookie) headers.cookie = cookie;
    const response = await this.app.inject({ method, url, payload: options.body, headers, remoteAddress: this.ip });
    this.remember(response);
    return response;
  }

  get(url: string, options?: { headers?: Record<string, string> }) {
    return this.request('GET', url, options);
  }
  post(url: string, body?: unknown, options: { headers?: Record<string, string>; csrf?: boolean } = {}) {
    return this.request('POST', url, { ...options, body: body as InjectOptions['payload'] });
  }
  patch(url: string, body?: unknown, options: { headers?: Record<string, string>; csrf?: boolean } = {}) {
    return this.request('PATCH', url, { ...options, body: body as InjectOptions['payload'] });
  }
  delete(url: string, options: { headers?: Record<string, string>; csrf?: boolean } = {}) {
    return this.request('DELETE', url, options);
  }

  /** Signs in as a student; throws when the sign-in is refused. */
  async signInStudent(studentId: string, password: string): Promise<this> {
    const response = await this.post('/api/login-student', { student_id: studentId, password });
    if (response.statusCode !== 200) throw new Error(`student sign-in failed: ${response.statusCode} ${response.body}`);
    return this;
  }

  /** Signs in as the demo administrator (or the given one). */
  async signInAdmin(username: string = DEMO_ADMIN.username, password: string = DEMO_ADMIN.password): Promise<this> {
    const response = await this.post('/api/admin-login', { username, password });
    if (response.statusCode !== 200) throw new Error(`admin sign-in failed: ${response.statusCode} ${response.body}`);
    return this;
  }
}

/**
 * A refusal, checked the one way every route test checks it: the status (the body shown when it is
 * not), a body of the `{ message, errors?, code? }` shape, and the code when one is named.
 */
export function expectError(response: { statusCode: number; json(): unknown }, status: number, code?: string): ApiErrorBody {
  expect(response.statusCode, JSON.stringify(response.json())).toBe(status);
  const body = ApiErrorSchema.parse(response.json());
  if (code) expect(body.code).toBe(code);
  return body;
}
