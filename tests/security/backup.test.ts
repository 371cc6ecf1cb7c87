import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, currentEngine, dropWhenClosed, pgUrlFor, runPgAdmin, sqliteTemplateFile, type TestDatabase } from '../support/test-database.js';
import { createDatabase } from '../../src/server/db/database.js';
import { DEMO_ADMIN, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { dataDirWith, HttpClient, startPortalProcess, type PortalProcess } from '../support/security/portal-process.js';

/**
 * A consistent backup while the portal runs and writes, and a
 * restore that brings the portal back with that data (docs/operations.md describes both).
 * SQLite: `npm run backup` (scripts/backup.mjs, SQLite's online backup API). PostgreSQL:
 * pg_dump -Fc and pg_restore into a new database, as the operations page says.
 */

const run = promisify(execFile);
const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const engine = currentEngine();
const cleanup: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** Autosaves against a running portal until stopped; answers the values acknowledged, in order. */
function autosaveLoad(portal: PortalProcess, admin: HttpClient, studentId: string) {
  const acked: string[] = [];
  let stop = false;
  const done = (async () => {
    for (let n = 0; !stop; n++) {
      const value = `Bk${String.fromCharCode(97 + (n % 26))}${String.fromCharCode(97 + (Math.floor(n / 26) % 26))}`;
      const response = await admin.request(portal.url, 'POST', '/api/student', { id: studentId, middle_name: value });
      if (response.status === 200) acked.push(value);
    }
  })();
  return {
    acked,
    async stop() {
      stop = true;
      await done;
    },
  };
}

async function signedInAdmin(portal: PortalProcess): Promise<HttpClient> {
  const admin = new HttpClient();
  const response = await admin.request(portal.url, 'POST', '/api/admin-login', { username: DEMO_ADMIN.username, password: DEMO_ADMIN.password });
  expect(response.status, response.text).toBe(200);
  return admin;
}

/** The restored portal serves the data: a student signs in and reads the saved field. */
async function expectServes(portal: PortalProcess, expectedMiddleNames: string[]) {
  const c = new HttpClient();
  const { registered } = DEMO_STUDENTS;
  expect((await c.request(portal.url, 'POST', '/api/login-student', { student_id: registered.student_id, password: registered.password })).status).toBe(200);
  const record = await c.request(portal.url, 'GET', `/api/student-record/${registered.student_id}`);
  expect(record.status).toBe(200);
  expect(expectedMiddleNames).toContain((record.json() as { middle_name: string }[])[0]?.middle_name);
}

describe.skipIf(engine !== 'sqlite')('npm run backup (SQLite) while the portal writes, and a restore', () => {
  it('copies a consistent database during an autosave load; the copy restores and serves', { timeout: 120_000 }, async () => {
    const dataDir = dataDirWith(sqliteTemplateFile());
    cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const portal = await startPortalProcess({ dataDir });
    cleanup.push(() => portal.stop());
    const admin = await signedInAdmin(portal);
    const load = autosaveLoad(portal, admin, DEMO_STUDENTS.registered.student_id);
    while (load.acked.length < 20) await new Promise((resolve) => setTimeout(resolve, 50));
    const ackedBefore = load.acked.length;

    const out = path.join(os.tmpdir(), `portal-backup-${crypto.randomBytes(4).toString('hex')}.sqlite`);
    cleanup.push(() => fs.rmSync(out, { force: true }));
    const { stdout } = await run(process.execPath, ['scripts/backup.mjs', '--out', out], { cwd: REPO_ROOT, env: { ...process.env, DATA_DIR: dataDir } });
    await load.stop();
    expect(stdout).toMatch(/Backup written: .*\n.*integrity ok/);
    expect(load.acked.length).toBeGreaterThan(ackedBefore); // the portal kept writing during the backup

    // Consistent: integrity holds, and the copy holds a value acknowledged before or during the copy.
    const copy = createDatabase({ sqliteFile: out });
    const row = await copy.selectFrom('students').select('middle_name').where('id', '=', DEMO_STUDENTS.registered.student_id).executeTakeFirstOrThrow();
    await copy.destroy();
    expect(load.acked.slice(ackedBefore - 1)).toContain(row.middle_name);

    // Restore as docs/operations.md says: stop, put the copy in place as portal.sqlite, start.
    const restoredDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-restored-'));
    cleanup.push(() => fs.rmSync(restoredDir, { recursive: true, force: true }));
    fs.copyFileSync(out, path.join(restoredDir, 'portal.sqlite'));
    const restored = await startPortalProcess({ dataDir: restoredDir });
    cleanup.push(() => restored.stop());
    await expectServes(restored, [row.middle_name!]);
  });

  it('refuses to overwrite a file and reports a missing database', async () => {
    const dataDir = dataDirWith(sqliteTemplateFile());
    cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const existing = path.join(dataDir, 'portal.sqlite');
    await expect(run(process.execPath, ['scripts/backup.mjs', '--out', existing], { cwd: REPO_ROOT, env: { ...process.env, DATA_DIR: dataDir } })).rejects.toMatchObject({ code: 1 });
    await expect(run(process.execPath, ['scripts/backup.mjs'], { cwd: REPO_ROOT, env: { ...process.env, DATA_DIR: path.join(dataDir, 'nowhere') } })).rejects.toMatchObject({ code: 1 });
  });
});

describe.skipIf(engine !== 'postgres')('pg_dump while the portal writes, and pg_restore (PostgreSQL)', () => {
  it('dumps a consistent snapshot during an autosave load; the restore serves', { timeout: 120_000 }, async () => {
    const database: TestDatabase = await createTestDatabase();
    cleanup.push(() => database.destroy());
    const portal = await startPortalProcess({ databaseUrl: database.location.databaseUrl! });
    cleanup.push(() => portal.stop());
    const admin = await signedInAdmin(portal);
    const load = autosaveLoad(portal, admin, DEMO_STUDENTS.registered.student_id);
    while (load.acked.length < 20) await new Promise((resolve) => setTimeout(resolve, 50));
    const ackedBefore = load.acked.length;

    const dump = path.join(os.tmpdir(), `portal-${crypto.randomBytes(4).toString('hex')}.dump`);
    cleanup.push(() => fs.rmSync(dump, { force: true }));
    await run('pg_dump', ['--format=custom', '--no-owner', '--file', dump, database.location.databaseUrl!]);
    await load.stop();

    const restoredName = `portal_restored_${crypto.randomBytes(4).toString('hex')}`;
    await runPgAdmin(`CREATE DATABASE ${restoredName}`);
    cleanup.push(() => dropWhenClosed(restoredName));
    await run('pg_restore', ['--no-owner', '--exit-on-error', '--dbname', pgUrlFor(restoredName), dump]);

    const restoredDb = createDatabase({ databaseUrl: pgUrlFor(restoredName) });
    const row = await restoredDb.selectFrom('students').select('middle_name').where('id', '=', DEMO_STUDENTS.registered.student_id).executeTakeFirstOrThrow();
    await restoredDb.destroy();
    expect(load.acked.slice(ackedBefore - 1)).toContain(row.middle_name);

    const restored = await startPortalProcess({ databaseUrl: pgUrlFor(restoredName) });
    cleanup.push(() => restored.stop());
    await expectServes(restored, [row.middle_name!]);
  });
});
