import crypto from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from './boot.js';
import type { Config } from './config.js';
import { createDatabase, type Db } from './db/database.js';
import { DEMO_ADMIN, DEMO_STAFF } from './db/demo-data/demo-accounts.js';
import { isDemoSchool } from './db/demo-data/demo-mark.js';
import { createTestApp, TestClient } from '../../tests/support/test-app.js';
import { testConfig } from '../../tests/support/test-config.js';
import { currentEngine, dropWhenClosed, pgUrlFor, runPgAdmin } from '../../tests/support/test-database.js';

/**
 * A real school never gets the demo administrator (docs/decisions.md D35): which
 * start seeds the demo school, and the published demo sign-in refused on any other database.
 */

const quiet = { info: () => undefined };
const REAL_ADMIN = { username: 'office', password: 'a long passphrase for the office' };
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** An empty database on this project's engine, and the configuration a start against it would read. */
async function emptyDatabase(): Promise<{ db: Db; config: (overrides?: Partial<Config>) => Config }> {
  if (currentEngine() === 'postgres') {
    const name = `portal_boot_${crypto.randomBytes(5).toString('hex')}`;
    await runPgAdmin(`CREATE DATABASE ${name}`);
    const databaseUrl = pgUrlFor(name);
    const db = createDatabase({ databaseUrl });
    cleanups.push(async () => {
      await db.destroy();
      await dropWhenClosed(name);
    });
    return { db, config: (overrides = {}) => testConfig({ databaseUrl, ...overrides }) };
  }
  const db = createDatabase({ sqliteFile: ':memory:' });
  cleanups.push(() => db.destroy());
  return { db, config: (overrides = {}) => testConfig(overrides) };
}

async function counts(db: Db) {
  const students = await db.selectFrom('students').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const admins = await db.selectFrom('users').select('username').where('staff_role', '=', 'administrator').orderBy('username').execute();
  return { students: Number(students.n), admins: admins.map((row) => row.username), demo: await isDemoSchool(db) };
}

describe(`which start seeds the demo school (${currentEngine()})`, () => {
  it('gives an empty database with ADMIN_USERNAME no demo school, only that administrator', async () => {
    const { db, config } = await emptyDatabase();
    const prepared = await prepareDatabase(db, config({ admin: REAL_ADMIN }), quiet);
    expect(await counts(db)).toEqual({ students: 0, admins: [REAL_ADMIN.username], demo: false });
    expect(prepared).toMatchObject({ seededDemo: false, demoSchool: false, hasAdministrator: true });
  });

  it('never seeds with DEMO_DATA=false, and says no administrator can sign in', async () => {
    const { db, config } = await emptyDatabase();
    const prepared = await prepareDatabase(db, config({ demoData: false }), quiet);
    expect(await counts(db)).toEqual({ students: 0, admins: [], demo: false });
    expect(prepared).toEqual({ seededDemo: false, demoSchool: false, hasAdministrator: false });
  });

  it('seeds with DEMO_DATA=true beside the configured administrator, and marks the database', async () => {
    const { db, config } = await emptyDatabase();
    const prepared = await prepareDatabase(db, config({ demoData: true, admin: REAL_ADMIN }), quiet);
    const after = await counts(db);
    expect(after.students).toBeGreaterThan(600);
    expect(after.admins).toEqual([DEMO_ADMIN.username, REAL_ADMIN.username]);
    expect(after.demo).toBe(true);
    expect(prepared).toEqual({ seededDemo: true, demoSchool: true, hasAdministrator: true });
  });

  it.runIf(currentEngine() === 'sqlite')('seeds an empty embedded database when nothing is set (README: npm install && npm start)', async () => {
    const { db, config } = await emptyDatabase();
    const prepared = await prepareDatabase(db, config(), quiet);
    expect((await counts(db)).demo).toBe(true);
    expect(prepared).toEqual({ seededDemo: true, demoSchool: true, hasAdministrator: true });
  });

  it.runIf(currentEngine() === 'postgres')('seeds an empty PostgreSQL database only with DEMO_DATA=true', async () => {
    const { db, config } = await emptyDatabase();
    const prepared = await prepareDatabase(db, config(), quiet);
    expect(await counts(db)).toEqual({ students: 0, admins: [], demo: false });
    expect(prepared.hasAdministrator).toBe(false);
  });
});

describe(`the published demo administrator (${currentEngine()})`, () => {
  it('is refused on a database that is not the demo school, exactly like a wrong password', async () => {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    await t.database.db.deleteFrom('settings').where('key', '=', 'demo_school').execute();
    const wrong = await new TestClient(t.app, '10.14.1.1').post('/api/admin-login', { username: DEMO_ADMIN.username, password: 'not the password' });
    const demo = await new TestClient(t.app, '10.14.1.2').post('/api/admin-login', { username: DEMO_ADMIN.username, password: DEMO_ADMIN.password });
    expect(demo.statusCode).toBe(401);
    expect(demo.json()).toEqual(wrong.json());
    expect(demo.cookies.map((cookie) => cookie.name)).not.toContain('portal_session');
    const upper = await new TestClient(t.app, '10.14.1.3').post('/api/admin-login', { username: DEMO_ADMIN.username.toUpperCase(), password: DEMO_ADMIN.password });
    expect(upper.statusCode).toBe(401);
  });

  it('takes the demo office, principal and form teachers with it: their published password opens only the demo school (D49)', async () => {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    const staff = [DEMO_STAFF.office, DEMO_STAFF.principal, DEMO_STAFF.formTeacher];
    for (const [i, account] of staff.entries()) {
      const ok = await new TestClient(t.app, `10.14.4.${i + 1}`).post('/api/admin-login', { username: account.username, password: account.password });
      expect(ok.statusCode, account.username).toBe(200);
    }
    await t.database.db.deleteFrom('settings').where('key', '=', 'demo_school').execute();
    for (const [i, account] of staff.entries()) {
      const refused = await new TestClient(t.app, `10.14.5.${i + 1}`).post('/api/admin-login', { username: account.username, password: account.password });
      expect(refused.statusCode, account.username).toBe(401);
    }
  });

  it('signs in on the demo school, until a start with ADMIN_USERNAME makes the database a real school', async () => {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    await new TestClient(t.app, '10.14.2.1').signInAdmin();
    const prepared = await prepareDatabase(t.database.db, testConfig({ admin: REAL_ADMIN }), quiet);
    expect(prepared).toEqual({ seededDemo: false, demoSchool: false, hasAdministrator: true });
    const demo = await new TestClient(t.app, '10.14.2.2').post('/api/admin-login', { username: DEMO_ADMIN.username, password: DEMO_ADMIN.password });
    expect(demo.statusCode).toBe(401);
    await new TestClient(t.app, '10.14.2.3').signInAdmin(REAL_ADMIN.username, REAL_ADMIN.password);
    // The end is for good: a later start with nothing set does not bring the demo back.
    expect((await prepareDatabase(t.database.db, testConfig(), quiet)).demoSchool).toBe(false);
  });

  it('leaves the demo school a demo when DEMO_DATA=false only says not to seed', async () => {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    expect(await prepareDatabase(t.database.db, testConfig({ demoData: false }), quiet)).toEqual({ seededDemo: false, demoSchool: true, hasAdministrator: true });
    await new TestClient(t.app, '10.14.3.1').signInAdmin();
  });

  it('is no administrator at all on a database that is not the demo school', async () => {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    await t.database.db.deleteFrom('settings').where('key', '=', 'demo_school').execute();
    expect(await prepareDatabase(t.database.db, testConfig(), quiet)).toEqual({ seededDemo: false, demoSchool: false, hasAdministrator: false });
  });
});
