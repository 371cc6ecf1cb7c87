import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { createDatabase, type Db } from '../../src/server/db/database.js';

/**
 * Each test file gets its own copy of a database that global-setup migrated and seeded once:
 * a copied SQLite file, or a PostgreSQL database cloned from a template (CREATE DATABASE … TEMPLATE).
 */

export type Engine = 'sqlite' | 'postgres';
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEMPLATE_DIR = path.join(os.tmpdir(), 'school-portal-tests');

/** Where this run's seeded template lives; unique per run so parallel runs never share one. */
export interface TestTemplate {
  sqliteFile: string;
  pgName: string;
}
declare module 'vitest' {
  export interface ProvidedContext {
    testTemplate: TestTemplate;
  }
}

/** A fresh template location for a run (called by global-setup). */
export function newTemplateLocation(): TestTemplate {
  const runId = `${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  return { sqliteFile: path.join(TEMPLATE_DIR, `template-${runId}.sqlite`), pgName: `portal_tpl_${runId}` };
}

export function currentEngine(): Engine {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
}

export function pgUrlFor(database: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs SQL on the PostgreSQL server's maintenance connection. */
export async function runPgAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * pool.end() resolves before the closed clients' server processes have gone; DROP … WITH (FORCE)
 * at that moment kills them mid-goodbye, and their clients report "57P01 terminating connection"
 * as an uncaught error after every test passed. Wait (briefly) for them to leave first.
 */
export async function dropWhenClosed(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    for (let attempt = 0; attempt < 40; attempt++) {
      const { rows } = await client.query<{ n: string }>('select count(*) as n from pg_stat_activity where datname = $1', [name]);
      if (Number(rows[0]?.n ?? 0) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** CREATE DATABASE … TEMPLATE refuses while another clone holds the template; retry briefly. */
async function cloneTemplate(name: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await runPgAdmin(`CREATE DATABASE ${name} TEMPLATE ${inject('testTemplate').pgName}`);
      return;
    } catch (error) {
      if (attempt >= 40 || !String(error).includes('being accessed by other users')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}

export interface TestDatabase {
  db: Db;
  engine: Engine;
  /** Where a second process could open the same database. */
  location: { databaseUrl?: string; sqliteFile?: string };
  destroy(): Promise<void>;
}

/** A fresh, seeded database for one test file, on the engine of the current project. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const engine = currentEngine();
  const suffix = crypto.randomBytes(6).toString('hex');
  if (engine === 'postgres') {
    const name = `portal_test_${suffix}`;
    await cloneTemplate(name);
    const databaseUrl = pgUrlFor(name);
    const db = createDatabase({ databaseUrl });
    return {
      db,
      engine,
      location: { databaseUrl },
      async destroy() {
        await db.destroy();
        await dropWhenClosed(name);
      },
    };
  }
  const file = path.join(TEMPLATE_DIR, `test-${suffix}.sqlite`);
  fs.copyFileSync(inject('testTemplate').sqliteFile, file);
  const db = createDatabase({ sqliteFile: file });
  return {
    db,
    engine,
    location: { sqliteFile: file },
    async destroy() {
      await db.destroy();
      for (const extra of ['', '-wal', '-shm']) fs.rmSync(file + extra, { force: true });
    },
  };
}

/** This run's seeded SQLite template file (to copy into a data folder of a spawned server). */
export function sqliteTemplateFile(): string {
  return inject('testTemplate').sqliteFile;
}
