import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, currentEngine, sqliteTemplateFile, type TestDatabase } from '../support/test-database.js';
import { createDatabase, type Db } from '../../src/server/db/database.js';
import { DEMO_ADMIN } from '../../src/server/db/demo-data/demo-accounts.js';
import { dataDirWith, HttpClient, startPortalProcess, type PortalProcess, type PortalStore } from '../support/security/portal-process.js';

/**
 * Durability: under an autosave load (POST /api/student, the registration page's
 * save on blur), the server is killed with SIGKILL, started again, and every write it had
 * acknowledged must be there. Runs on the engine of the Vitest project (SQLite in `sqlite`,
 * PostgreSQL in `postgres`).
 *
 * SQLite runs in WAL mode with synchronous = NORMAL (docs/decisions.md D11): a commit is in the
 * WAL before the answer leaves, so a killed process loses nothing; only an operating-system crash
 * or power cut can lose the last commits, which this test cannot simulate and FULL would cover.
 */

const CONCURRENCY = 8;
/** Kill after this many acknowledged saves (or after LOAD_MS, whichever comes first). */
const KILL_AFTER_ACKS = 400;
const LOAD_MS = 15_000;

const engine = currentEngine();
const children: PortalProcess[] = [];
let database: TestDatabase | undefined;
let dataDir: string | undefined;

afterAll(async () => {
  for (const child of children) if (child.child.exitCode === null && child.child.signalCode === null) await child.kill();
  await database?.destroy();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A middle name made of letters only (names accept letters), unique per write. */
function tokenOf(n: number): string {
  let text = '';
  let value = n;
  do {
    text = String.fromCharCode(97 + (value % 26)) + text;
    value = Math.floor(value / 26);
  } while (value > 0);
  return `Dur${text}`;
}

describe(`durability under SIGKILL (${engine})`, () => {
  it('every acknowledged autosave survives a SIGKILL mid-load', { timeout: 120_000 }, async () => {
    let store: PortalStore;
    let open: () => Db;
    if (engine === 'postgres') {
      database = await createTestDatabase();
      const databaseUrl = database.location.databaseUrl!;
      store = { databaseUrl };
      open = () => createDatabase({ databaseUrl });
    } else {
      dataDir = dataDirWith(sqliteTemplateFile());
      store = { dataDir };
      open = () => createDatabase({ sqliteFile: `${dataDir}/portal.sqlite` });
    }

    const first = await startPortalProcess(store);
    children.push(first);
    const admin = new HttpClient();
    const signIn = await admin.request(first.url, 'POST', '/api/admin-login', { username: DEMO_ADMIN.username, password: DEMO_ADMIN.password });
    expect(signIn.status, signIn.text).toBe(200);

    const probe = open();
    const students = (await probe.selectFrom('students').select('id').orderBy('id').limit(200).execute()).map((row) => row.id);
    await probe.destroy();

    // Per student: every value sent, in order, and the index of the last acknowledged one.
    const sent = new Map<string, string[]>();
    const lastAcked = new Map<string, number>();
    let acked = 0;
    let refused = 0;
    let next = 0;
    let killed = false;
    const started = Date.now();

    const worker = async () => {
      while (!killed) {
        const n = next++;
        const student = students[n % students.length]!;
        const value = tokenOf(n);
        const values = sent.get(student) ?? [];
        values.push(value);
        sent.set(student, values);
        const index = values.length - 1;
        try {
          const response = await admin.request(first.url, 'POST', '/api/student', { id: student, middle_name: value });
          if (response.status === 200) {
            acked++;
            lastAcked.set(student, Math.max(lastAcked.get(student) ?? -1, index));
          } else refused++;
        } catch {
          // The connection died with the process: not acknowledged.
        }
        if (!killed && (acked >= KILL_AFTER_ACKS || Date.now() - started > LOAD_MS)) {
          killed = true;
          await first.kill();
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(refused).toBe(0);
    expect(acked).toBeGreaterThan(50);

    // Start again on the same data; the server must come up and the database must hold every
    // acknowledged write (or a later one to the same student that was in flight at the kill).
    const second = await startPortalProcess(store);
    children.push(second);
    const health = await new HttpClient().request(second.url, 'GET', '/api/health');
    expect(health.status).toBe(200);

    const db = open();
    try {
      const rows = await db.selectFrom('students').select(['id', 'middle_name']).where('id', 'in', [...lastAcked.keys()]).execute();
      const stored = new Map(rows.map((row) => [row.id, row.middle_name]));
      const lost: string[] = [];
      for (const [student, index] of lastAcked) {
        const acceptable = sent.get(student)!.slice(index);
        if (!acceptable.includes(stored.get(student) ?? '')) lost.push(`${student}: acked ${acceptable[0]}, stored ${stored.get(student)}`);
      }
      process.stdout.write(`durability (${engine}): ${acked} acknowledged autosaves, SIGKILL after ${Date.now() - started} ms, ${lost.length} lost\n`);
      expect(lost).toEqual([]);
    } finally {
      await db.destroy();
      await second.stop();
    }
  });
});
