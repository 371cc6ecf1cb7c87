import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'otplib';
import { afterEach, describe, expect, it } from 'vitest';
import { EnrolmentAnswerSchema } from '../../src/shared/staff-2fa.schemas.js';
import { DEMO_ADMIN, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { HttpClient, startPortalProcess, type PortalProcess } from '../support/security/portal-process.js';
import { currentEngine } from '../support/test-database.js';

/**
 * The first start of the real server on a fresh machine (D35): `npm start` with
 * nothing set still gives the demo school; a start naming the school's administrator never does;
 * a start with no administrator says how to create one and keeps serving. The server's banner
 * is what a person starting it reads, so it is checked as printed.
 */

const REAL_ADMIN = { ADMIN_USERNAME: 'office', ADMIN_PASSWORD: 'a long passphrase for the office' };
let portal: PortalProcess | undefined;
afterEach(async () => {
  await portal?.stop();
  portal = undefined;
});

function freshDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'portal-first-start-'));
}

async function adminSignIn(url: string, username: string, password: string): Promise<number> {
  return (await new HttpClient().request(url, 'POST', '/api/admin-login', { username, password })).status;
}

// Embedded SQLite is what a fresh machine starts on; the PostgreSQL rules are in boot.test.ts.
describe.runIf(currentEngine() === 'sqlite')('the first start on a fresh machine', () => {
  it('serves the demo school and prints its sign-ins when nothing is set', async () => {
    portal = await startPortalProcess({ dataDir: freshDataDir() }, { DEMO_DATA: '' });
    expect(portal.output()).toContain(`${DEMO_ADMIN.username} / ${DEMO_ADMIN.password}`);
    expect(portal.output()).not.toContain('No administrator');
    expect(await adminSignIn(portal.url, DEMO_ADMIN.username, DEMO_ADMIN.password)).toBe(200);
  });

  it('gives a start with ADMIN_USERNAME and ADMIN_PASSWORD no demo school and no demo administrator', async () => {
    portal = await startPortalProcess({ dataDir: freshDataDir() }, { DEMO_DATA: '', ...REAL_ADMIN });
    expect(portal.output()).not.toContain(DEMO_ADMIN.password);
    expect(await adminSignIn(portal.url, DEMO_ADMIN.username, DEMO_ADMIN.password)).toBe(401);
    const student = await new HttpClient().request(portal.url, 'POST', '/api/login-student', {
      student_id: DEMO_STUDENTS.registered.student_id,
      password: DEMO_STUDENTS.registered.password,
    });
    expect(student.status).toBe(401);
    // Not a demo school, so the administrator sets up the second factor before reaching any record.
    const office = new HttpClient();
    expect((await office.request(portal.url, 'POST', '/api/admin-login', { username: REAL_ADMIN.ADMIN_USERNAME, password: REAL_ADMIN.ADMIN_PASSWORD })).status).toBe(200);
    const before = await office.request(portal.url, 'GET', '/api/students');
    expect(before.status).toBe(403);
    expect(before.json()).toMatchObject({ code: 'second_factor_setup_required' });
    const { secret } = EnrolmentAnswerSchema.parse((await office.request(portal.url, 'POST', '/api/staff-2fa/enrol', { current_password: REAL_ADMIN.ADMIN_PASSWORD })).json());
    expect((await office.request(portal.url, 'POST', '/api/staff-2fa/confirm', { code: await generate({ secret }) })).status).toBe(200);
    expect((await office.request(portal.url, 'GET', '/api/students')).json()).toEqual([]);
  });

  it('says how to create the first administrator when none can sign in, and keeps serving', async () => {
    portal = await startPortalProcess({ dataDir: freshDataDir() }, { DEMO_DATA: 'false' });
    expect(portal.output()).toContain('No administrator can sign in yet');
    expect(portal.output()).toContain("ADMIN_USERNAME=office ADMIN_PASSWORD='a long passphrase' npm start");
    expect((await new HttpClient().request(portal.url, 'GET', '/api/health')).status).toBe(200);
  });
});
