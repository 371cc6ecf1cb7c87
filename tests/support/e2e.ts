import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { prepareDatabase } from '../../src/server/boot.js';
import { createDatabase } from '../../src/server/db/database.js';
import { createTestDatabase, dropWhenClosed, pgUrlFor, runPgAdmin, type TestDatabase } from './test-database.js';
import { testConfig } from './test-config.js';
import type { Config } from '../../src/server/config.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Portal {
  baseUrl: string;
  database: TestDatabase;
  stop(): Promise<void>;
}

/** The real server on a random port over a fresh copy of the demo school, serving the web bundle the e2e setup built. */
export async function startPortal(overrides: Partial<Config> = {}): Promise<Portal> {
  const database = await createTestDatabase();
  const app = await buildApp(testConfig(overrides), { db: database.db }, { logger: false, webRoot: inject('webRoot') });
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

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Debian's Chromium, headless, in a throwaway profile (playwright-core; no browser download). */
export async function launchBrowser(options: { width?: number; height?: number } = {}): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-gpu'],
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
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
