import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, currentEngine, sqliteTemplateFile, type TestDatabase } from '../support/test-database.js';
import { createDatabase, type Db } from '../../src/server/db/database.js';
import { DEMO_ADMIN, DEMO_PASSWORD, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { dataDirWith, HttpClient, startPortalProcess, type PortalProcess, type PortalStore } from '../support/security/portal-process.js';

/**
 * Two server processes on one database (PostgreSQL in the `postgres`
 * project, the same SQLite file in `sqlite`). A browser signs in on one and continues on the
 * other; sign-out and a password change on one end the session on the other; the sign-in,
 * first-login and ID-finder throttles hold when the attempts alternate between the processes;
 * a mixed load across both answers no 5xx. Both trust a proxy on loopback (TRUST_PROXY=loopback),
 * where the tests connect from, so each test can speak from its own X-Forwarded-For address.
 */

const engine = currentEngine();
let database: TestDatabase | undefined;
let dataDir: string | undefined;
let a: PortalProcess;
let b: PortalProcess;
let db: Db;
const { registered, firstLogin } = DEMO_STUDENTS;

let addressCounter = 0;
const address = () => `198.51.100.${++addressCounter}`;
/** A client that speaks from one address (X-Forwarded-For, believed from the trusted loopback). */
const client = (ip = address()) => new HttpClient({ 'x-forwarded-for': ip });

beforeAll(async () => {
  let store: PortalStore;
  if (engine === 'postgres') {
    database = await createTestDatabase();
    store = { databaseUrl: database.location.databaseUrl! };
    db = createDatabase({ databaseUrl: database.location.databaseUrl! });
  } else {
    dataDir = dataDirWith(sqliteTemplateFile());
    store = { dataDir };
    db = createDatabase({ sqliteFile: `${dataDir}/portal.sqlite` });
  }
  [a, b] = await Promise.all([startPortalProcess(store, { TRUST_PROXY: 'loopback' }), startPortalProcess(store, { TRUST_PROXY: 'loopback' })]);
}, 90_000);

afterAll(async () => {
  await Promise.all([a, b].filter(Boolean).map((p) => p.stop()));
  await db?.destroy();
  await database?.destroy();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * How many attempts past the free ones an account's delay (1 s, then 2 s, 4 s …: auth.service)
 * can let through within `ms`. These are real processes on a real clock: a burst that a busy
 * machine spreads over more than a second meets the first delay's end, and the next guess is
 * checked, as it should be. The bound is measured in the same run, so the tests hold however busy
 * the machine is, and on a quiet one it is 0.
 */
function delaysEndedWithin(ms: number): number {
  let ended = 0;
  for (let waited = 1000; waited <= ms; waited += 1000 * 2 ** ended) ended++;
  return ended;
}

/** Student ids no other test of this file touches. */
async function studentsOfYear(prefix: string, count: number): Promise<string[]> {
  const rows = await db.selectFrom('students').select('id').where('id', 'like', `${prefix}%`).orderBy('id').offset(10).limit(count).execute();
  return rows.map((row) => row.id);
}

describe(`two processes on one database (${engine})`, () => {
  it('are two processes', () => {
    expect(a.child.pid).not.toBe(b.child.pid);
    expect(a.url).not.toBe(b.url);
  });

  it('a student signs in on one and continues on the other; sign-out on either ends it on both', { timeout: 60_000 }, async () => {
    const c = client();
    const signIn = await c.request(a.url, 'POST', '/api/login-student', { student_id: registered.student_id, password: registered.password });
    expect(signIn.status, signIn.text).toBe(200);
    const record = await c.request(b.url, 'GET', `/api/student-record/${registered.student_id}`);
    expect(record.status).toBe(200);
    const saved = await c.request(b.url, 'POST', '/api/student', { id: registered.student_id, middle_name: 'Twoprocess' });
    expect(saved.status, saved.text).toBe(200);
    const readBack = await c.request(a.url, 'GET', `/api/student-record/${registered.student_id}`);
    expect((readBack.json() as { middle_name: string }[])[0]?.middle_name).toBe('Twoprocess');
    const cookie = c.session!;
    expect((await c.request(b.url, 'POST', '/logout')).status).toBe(204);
    // A copy of the old cookie (kept by an attacker, or a second tab) is dead on the other process too.
    const replay = client();
    replay.cookies.set('portal_session', cookie);
    expect((await replay.request(a.url, 'GET', `/api/student-record/${registered.student_id}`)).status).toBe(401);
  });

  it('a sign-out on one process ends the very same cookie on the other', { timeout: 60_000 }, async () => {
    const c = client();
    expect((await c.request(a.url, 'POST', '/api/admin-login', { username: DEMO_ADMIN.username, password: DEMO_ADMIN.password })).status).toBe(200);
    const cookie = c.session!;
    expect((await c.request(b.url, 'GET', '/api/students')).status).toBe(200);
    expect((await c.request(a.url, 'POST', '/logout')).status).toBe(204);
    const stale = client();
    stale.cookies.set('portal_session', cookie);
    expect((await stale.request(b.url, 'GET', '/api/students')).status).toBe(401);
  });

  it('a password change on one process ends the other sessions, wherever they are served', { timeout: 60_000 }, async () => {
    const [student] = await studentsOfYear('2025', 1);
    const first = client();
    const second = client();
    expect((await first.request(a.url, 'POST', '/api/login-student', { student_id: student, password: DEMO_PASSWORD })).status).toBe(200);
    expect((await second.request(b.url, 'POST', '/api/login-student', { student_id: student, password: DEMO_PASSWORD })).status).toBe(200);
    const changed = await first.request(a.url, 'POST', '/api/change-password-student', { student_id: student, password: 'another-good-password', current_password: DEMO_PASSWORD });
    expect(changed.status, changed.text).toBe(200);
    expect((await second.request(b.url, 'GET', `/api/student-record/${student}`)).status).toBe(401);
    expect((await first.request(b.url, 'GET', `/api/student-record/${student}`)).status).toBe(200);
  });
});

describe(`throttles shared by both processes (${engine})`, () => {
  const servers = () => [a.url, b.url];

  it('an account is slowed down after five failures spread over both processes, on both', { timeout: 90_000 }, async () => {
    const [student] = await studentsOfYear('2023', 1);
    const guess = (i: number) => client().request(servers()[i % 2]!, 'POST', '/api/login-student', { student_id: student, password: `wrong-${i}` });
    for (let i = 0; i < 5; i++) {
      const response = await guess(i);
      expect(response.status, response.text).toBe(401);
    }
    // After the first second's wait one more guess is checked, and the next wait is two seconds:
    // the right password is refused on both while it lasts (from when the sixth guess was sent).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const sixthSent = performance.now();
    expect((await guess(5)).status).toBe(401);
    for (const url of servers()) {
      const slowed = await client().request(url, 'POST', '/api/login-student', { student_id: student, password: DEMO_PASSWORD });
      // Answered within the wait, the server read its clock within it too; a busier machine took longer than the wait.
      if (performance.now() - sixthSent >= 2000) break;
      expect(slowed.status, slowed.text).toBe(429);
      expect((slowed.json() as { code: string }).code).toBe('account_throttled');
    }
  });

  const busy = address();
  it('a busy address (30 failures over both processes) still signs in the right password, on both', { timeout: 120_000 }, async () => {
    for (let i = 0; i < 30; i++) {
      const response = await client(busy).request(servers()[i % 2]!, 'POST', '/api/login-student', { student_id: `7777${String(i).padStart(4, '0')}`, password: 'nope-nope' });
      expect(response.status, response.text).toBe(401);
    }
    const [first, second] = await studentsOfYear('2022', 2);
    expect((await client(busy).request(a.url, 'POST', '/api/login-student', { student_id: first, password: DEMO_PASSWORD })).status).toBe(200);
    expect((await client(busy).request(b.url, 'POST', '/api/login-student', { student_id: second, password: DEMO_PASSWORD })).status).toBe(200);
  });

  it('guesses sent at the same moment to both processes: at most five reach the password check of one account', { timeout: 90_000 }, async () => {
    const [student] = await studentsOfYear('2023', 2).then((ids) => ids.slice(1));
    const started = performance.now();
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client().request(servers()[i % 2]!, 'POST', '/api/login-student', { student_id: student, password: `burst-${i}` })),
    );
    const extra = delaysEndedWithin(performance.now() - started);
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5 + extra);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(15 - extra);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  });

  it('from the busy address, guesses at one account sent at the same moment: one reaches the check', { timeout: 90_000 }, async () => {
    const [student] = await studentsOfYear('2023', 3).then((ids) => ids.slice(2));
    const started = performance.now();
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) => client(busy).request(servers()[i % 2]!, 'POST', '/api/login-student', { student_id: student, password: `burst-${i}` })),
    );
    const extra = delaysEndedWithin(performance.now() - started);
    const statuses = burst.map((r) => r.status);
    const checked = statuses.filter((s) => s === 401).length;
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThanOrEqual(1 + extra);
    expect(statuses.filter((s) => s === 429).length).toBe(12 - checked);
  });

  it('first login: five wrong birth dates for one pin, spread over both processes, stop the sixth', { timeout: 90_000 }, async () => {
    let fifthSent = 0;
    for (let i = 0; i < 5; i++) {
      fifthSent = performance.now();
      const response = await client().request(servers()[i % 2]!, 'POST', '/api/first-login', { identifier: firstLogin.sea_no, date_of_birth: `2000010${i + 1}` });
      expect(response.status, response.text).toBe(401);
    }
    // The sixth waits a second from the fifth failure, with the right date of birth too.
    for (const url of servers()) {
      const right = await client().request(url, 'POST', '/api/first-login', { identifier: firstLogin.sea_no, date_of_birth: firstLogin.date_of_birth.replaceAll('-', '') });
      // Answered within the wait, the server read its clock within it too; a busier machine took longer than the wait.
      if (performance.now() - fifthSent >= 1000) break;
      expect(right.status, right.text).toBe(429);
    }
  });

  it('the ID finder: ten look-ups per address and five per person, counted across both processes', { timeout: 60_000 }, async () => {
    const ip = address();
    for (let i = 0; i < 10; i++) {
      const response = await client(ip).request(servers()[i % 2]!, 'POST', '/api/find-student-id', { first_name: `N${i}`, last_name: 'Nobody', date_of_birth: `2010-01-${String(i + 1).padStart(2, '0')}` });
      expect(response.status, response.text).toBe(404);
    }
    for (const url of servers()) expect((await client(ip).request(url, 'POST', '/api/find-student-id', { first_name: 'X', last_name: 'Y', date_of_birth: '2010-02-01' })).status).toBe(429);

    const person = { last_name: 'Samaroo', date_of_birth: '2011-05-05' };
    for (let i = 0; i < 5; i++) {
      expect((await client().request(servers()[i % 2]!, 'POST', '/api/find-student-id', { first_name: `P${i}`, ...person })).status).toBe(404);
    }
    for (const url of servers()) expect((await client().request(url, 'POST', '/api/find-student-id', { first_name: 'Q', ...person })).status).toBe(429);
  });
});

describe(`a mixed load over both processes (${engine})`, () => {
  it('answers every call without a 5xx or a dropped connection, and keeps every write', { timeout: 120_000 }, async () => {
    const admin = client();
    expect((await admin.request(a.url, 'POST', '/api/admin-login', { username: DEMO_ADMIN.username, password: DEMO_ADMIN.password })).status).toBe(200);
    const students = await studentsOfYear('2024', 12);
    const signedIn = await Promise.all(
      students.slice(0, 6).map(async (id, i) => {
        const c = client();
        const response = await c.request(i % 2 ? a.url : b.url, 'POST', '/api/login-student', { student_id: id, password: DEMO_PASSWORD });
        expect(response.status, response.text).toBe(200);
        return { id, c };
      }),
    );
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    const written = new Map<string, string>();
    const TOTAL = 600;
    let next = 0;
    const worker = async () => {
      while (next < TOTAL) {
        const n = next++;
        const url = n % 2 ? a.url : b.url;
        const me = signedIn[n % signedIn.length]!;
        let call: Promise<{ status: number; text: string }>;
        switch (n % 6) {
          case 0:
            call = me.c.request(url, 'GET', `/api/student-record/${me.id}`);
            break;
          case 1:
            call = me.c.request(url, 'GET', `/api/report-card-terms/${me.id}`);
            break;
          case 2:
            call = me.c.request(url, 'GET', `/api/student-attendance/${me.id}`);
            break;
          case 3: {
            const value = `Load${String.fromCharCode(97 + (n % 26))}${String.fromCharCode(97 + (Math.floor(n / 26) % 26))}`;
            written.set(me.id, value);
            call = me.c.request(url, 'POST', '/api/student', { id: me.id, middle_name: value });
            break;
          }
          case 4:
            call = admin.request(url, 'GET', '/api/term-reports-posted');
            break;
          default:
            call = me.c.request(url, 'GET', '/api/towns');
        }
        try {
          const response = await call;
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status >= 400) failures.push(`${n}: ${response.status} ${response.text.slice(0, 120)}`);
        } catch (error) {
          failures.push(`${n}: ${String(error)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 12 }, worker));
    process.stdout.write(`mixed load (${engine}): ${TOTAL} calls over two processes: ${JSON.stringify(Object.fromEntries(statuses))}\n`);
    expect(failures).toEqual([]);
    // Writes are kept in call order per student (each student's calls ran one after another).
    const rows = await db.selectFrom('students').select(['id', 'middle_name']).where('id', 'in', [...written.keys()]).execute();
    for (const row of rows) expect(row.middle_name?.startsWith('Load')).toBe(true);
  });
});
