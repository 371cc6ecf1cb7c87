import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser as PlaywrightBrowser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from 'vitest';
import { buildApp, type BuildOptions } from '../../src/server/app.js';
import { prepareDatabase } from '../../src/server/boot.js';
import { createDatabase } from '../../src/server/db/database.js';
import { startSmtpInbox, type SmtpInbox } from './smtp-inbox.js';
import { createTestDatabase, dropWhenClosed, pgUrlFor, runPgAdmin, type TestDatabase } from './test-database.js';
import { testConfig } from './test-config.js';
import type { Config } from '../../src/server/config.js';
import { DEMO_ADMIN } from '../../src/server/db/demo-data/demo-accounts.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Portal {
  baseUrl: string;
  database: TestDatabase;
  stop(): Promise<void>;
}

/**
 * The real server on a random port over a fresh copy of the demo school, serving the web bundle the
 * e2e setup built. With `smtpUrl` among the overrides its mail sender runs (at `options.mailSender`'s pace).
 */
export async function startPortal(overrides: Partial<Config> = {}, options: Pick<BuildOptions, 'mailSender'> = {}): Promise<Portal> {
  const database = await createTestDatabase();
  const app = await buildApp(testConfig(overrides), { db: database.db }, { logger: false, webRoot: inject('webRoot'), ...options });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    baseUrl: address,
    database,
    async stop() {
      await app.close();
      await database.destroy();
    },
  };
}

type BrowserSize = { width?: number; height?: number };
export type BrowserOptions = BrowserSize & { args?: readonly string[] };

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-gpu'];

/** Debian's Chromium, headless (playwright-core; no browser download), with the flags every spec needs and `args` after them. */
function launchChromium(args: readonly string[] = []): Promise<PlaywrightBrowser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_FLAGS, ...args] });
}

/**
 * One Chromium per spec file, started when a test first asks for a page and closed when the file
 * ends: starting the browser was a second of every test, a fresh context is a few milliseconds and
 * shares nothing (cookies, storage, cache) with the one before.
 */
let fileChromium: Promise<PlaywrightBrowser> | undefined;
afterAll(async () => {
  const running = fileChromium;
  fileChromium = undefined;
  await (await running)?.close();
});

/**
 * A fresh browser context (its own cookies and storage) at a size, with one page open. A test that
 * needs launch flags of its own (`args`, e.g. `--host-resolver-rules` for a school's name) gets a
 * Chromium of its own, closed with the context.
 */
export async function launchBrowser(options: BrowserOptions = {}): Promise<Browser> {
  const own = options.args?.length ? await launchChromium(options.args) : undefined;
  fileChromium ??= launchChromium();
  const browser = own ?? (await fileChromium);
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 800 } });
  const page = await context.newPage();
  return {
    context,
    page,
    async close() {
      await context.close();
      await own?.close();
    },
  };
}

/** Where screenshots go (CI keeps test-results/ as an artefact if it wants). */
export function screenshotPath(name: string): string {
  const dir = path.join(ROOT, 'test-results');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}

/**
 * The portal over a freshly seeded demo school on PostgreSQL (the e2e template is SQLite), for
 * specs that also drive the browser against the other engine.
 */
export async function startPostgresPortal(label: string): Promise<Portal> {
  const name = `portal_e2e_${label}_${crypto.randomBytes(4).toString('hex')}`;
  await runPgAdmin(`CREATE DATABASE ${name}`);
  const databaseUrl = pgUrlFor(name);
  const db = createDatabase({ databaseUrl });
  await prepareDatabase(db, testConfig({ demoData: true }), { info: () => undefined });
  const app = await buildApp(testConfig(), { db }, { logger: false, webRoot: inject('webRoot') });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const destroy = async () => {
    await db.destroy();
    await dropWhenClosed(name);
  };
  return {
    baseUrl,
    database: { db, engine: 'postgres', location: { databaseUrl }, destroy },
    async stop() {
      await app.close();
      await destroy();
    },
  };
}

/** The engines the browser specs that cover both can run on here. */
export const E2E_ENGINES = (await runPgAdmin('select 1').then(
  () => true,
  () => false,
))
  ? (['sqlite', 'postgres'] as const)
  : (['sqlite'] as const);

/** Signs in on the student login page and waits for the dashboard. */
export async function signInAsStudent(page: Page, baseUrl: string, student: { student_id: string; password: string }): Promise<void> {
  await page.goto(new URL('/', baseUrl).toString());
  await page.locator('input[name="student_id"]').fill(student.student_id);
  await page.locator('input[name="password"]').fill(student.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(new URL('/dashboard', baseUrl).toString());
}

/** Signs in on the admin login page as the demo administrator and waits for the dashboard. */
export async function signInAsAdmin(page: Page, baseUrl: string): Promise<void> {
  await page.goto(new URL('/admin', baseUrl).toString());
  await page.locator('input[name="username"]').fill(DEMO_ADMIN.username);
  await page.locator('input[name="password"]').fill(DEMO_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(new URL('/admin/dashboard', baseUrl).toString());
}


/** What a browser spec's tests use: the running portal and the running test's page. */
export interface BrowserSpec {
  readonly portal: Portal;
  /** The page of the running test (opened before it, unless the spec opens its own). */
  readonly page: Page;
  /** An address on the portal; a plain function, so specs may take it off the object. */
  readonly url: (path: string) => string;
  /** Opens this test's browser at a size (and with launch flags) of its own, closing the one open; it is closed after the test. */
  open(options?: BrowserOptions): Promise<Page>;
  /** Starts a portal before the tests of the enclosing describe block and stops it after them. */
  usePortal(start?: () => Promise<Portal>): void;
}

/**
 * The hooks every browser spec needs, once: a fresh Chromium for each test (at `size`, or none
 * when `size` is null and each test calls `open`), closed after it, and an uncaught error in the
 * page fails the test. Call at the top of the spec file, then `usePortal()` at the top of the file
 * or in each describe block that needs a portal of its own (one per database engine).
 */
export function browserSpec(size: BrowserSize | null = {}): BrowserSpec {
  let portal: Portal | undefined;
  let browser: Browser | undefined;
  let pageErrors: Error[] = [];

  const spec: BrowserSpec = {
    get portal() {
      if (!portal) throw new Error('no portal: call usePortal() in the spec');
      return portal;
    },
    get page() {
      if (!browser) throw new Error('no browser: this spec opens its own with open()');
      return browser.page;
    },
    url: (path) => new URL(path, spec.portal.baseUrl).toString(),
    async open(options) {
      await browser?.close();
      browser = await launchBrowser(options);
      browser.page.on('pageerror', (error) => pageErrors.push(error));
      return browser.page;
    },
    usePortal(start = () => startPortal()) {
      beforeAll(async () => {
        portal = await start();
      }, 120_000);
      afterAll(async () => {
        await portal?.stop();
        portal = undefined;
      });
    },
  };

  beforeEach(async () => {
    pageErrors = [];
    if (size) await spec.open(size);
  });
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
    expect(pageErrors.map((error) => error.message)).toEqual([]);
  });
  return spec;
}

/**
 * A portal whose mail sender delivers to a real SMTP server the spec starts (smtp-inbox.ts), for
 * the tests of the enclosing block; the server is stopped after them. Answers the running inbox.
 */
export function useMailedPortal(spec: BrowserSpec, mailSender: BuildOptions['mailSender'] = { pollIntervalMs: 100 }): () => SmtpInbox {
  let inbox: SmtpInbox | undefined;
  spec.usePortal(async () => {
    inbox = await startSmtpInbox();
    return startPortal({ smtpUrl: inbox.url }, { mailSender });
  });
  afterAll(async () => {
    await inbox?.close();
    inbox = undefined;
  });
  return () => {
    if (!inbox) throw new Error('no inbox: the mailed portal starts before the tests');
    return inbox;
  };
}
