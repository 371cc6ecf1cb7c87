import fs from 'node:fs';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../../src/server/db/database.js';
import { prepareDatabase } from '../../src/server/boot.js';
import { testConfig } from './test-config.js';
import { TEMPLATE_DIR, newTemplateLocation, pgUrlFor, runPgAdmin } from './test-database.js';

const quiet = { info: () => undefined };

/** Migrates and seeds the template database once per run; test files copy it. */
export default async function setup(project: TestProject): Promise<() => Promise<void> | void> {
  const engine = project.config.env?.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
  fs.mkdirSync(TEMPLATE_DIR, { recursive: true });
  const template = newTemplateLocation();
  project.provide('testTemplate', template);
  const PG_TEMPLATE_NAME = template.pgName;
  const SQLITE_TEMPLATE = template.sqliteFile;
  if (engine === 'postgres') {
    await runPgAdmin(`DROP DATABASE IF EXISTS ${PG_TEMPLATE_NAME} WITH (FORCE)`);
    await runPgAdmin(`CREATE DATABASE ${PG_TEMPLATE_NAME}`);
    const db = createDatabase({ databaseUrl: pgUrlFor(PG_TEMPLATE_NAME) });
    await prepareDatabase(db, testConfig({ demoData: true }), quiet);
    await db.destroy();
    return async () => {
      await runPgAdmin(`DROP DATABASE IF EXISTS ${PG_TEMPLATE_NAME} WITH (FORCE)`);
    };
  }
  for (const extra of ['', '-wal', '-shm']) fs.rmSync(SQLITE_TEMPLATE + extra, { force: true });
  const db = createDatabase({ sqliteFile: SQLITE_TEMPLATE });
  await prepareDatabase(db, testConfig({ demoData: true }), quiet);
  // Fold the WAL into the main file so a plain file copy is the whole database.
  await db.destroy();
  return () => {
    for (const extra of ['', '-wal', '-shm']) fs.rmSync(SQLITE_TEMPLATE + extra, { force: true });
  };
}
