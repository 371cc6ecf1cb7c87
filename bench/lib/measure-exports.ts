/**
 * Measures the admin area's heavy calls: the student list, the registration
 * spreadsheet and the all-classes registration report, for the demo school (32 a class, ~640 students) and for
 * 2,000 students (100 a class), on the embedded SQLite database. Each measurement runs in a
 * fresh process so its peak memory (max RSS) is its own. Not a test: nothing gates on it.
 *
 *   npx tsx bench/lib/measure-exports.ts            # 32 and 100 a class
 *   npx tsx bench/lib/measure-exports.ts 100        # one size
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../src/server/app.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { loadConfig } from '../../src/server/config.js';
import { createDatabase } from '../../src/server/db/database.js';
import { seedDemoSchool } from '../../src/server/db/demo-data/seed-demo-school.js';
import { DEMO_ADMIN } from '../../src/server/db/demo-data/demo-accounts.js';
import { migrateToLatest } from '../../src/server/db/migrate.js';
import { seedReferenceData } from '../../src/server/db/reference-data.js';

const SELF = fileURLToPath(import.meta.url);
const DIR = path.join(os.tmpdir(), 'portal-admin-measure');
const SCENARIOS = {
  list: '/api/students',
  spreadsheet: '/api/registration-data-spreadsheet',
  report: '/api/registration-report/all',
} as const;
type Scenario = keyof typeof SCENARIOS;

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function ensureSchool(perClass: number): Promise<string> {
  const file = path.join(DIR, `school-${perClass}.sqlite`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(DIR, { recursive: true });
  const db = createDatabase({ sqliteFile: `${file}.partial` });
  await migrateToLatest(db);
  await seedReferenceData(db);
  await seedDemoSchool(db, { hashPassword, studentsPerClass: perClass });
  await db.destroy();
  fs.renameSync(`${file}.partial`, file);
  return file;
}

/** In the child: the app over HTTP, an admin session, then the call twice (cold, then warm). */
async function measure(file: string, scenario: Scenario) {
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: DIR } as NodeJS.ProcessEnv);
  const db = createDatabase({ sqliteFile: file });
  const app = await buildApp(config, { db }, { logger: false, webRoot: '/nonexistent' });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const csrf = await fetch(`${base}/sanctum/csrf-cookie`);
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=');
      cookies.set(name!, value ?? '');
    }
  };
  keep(csrf);
  const cookie = () => [...cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  const login = await fetch(`${base}/api/admin-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-xsrf-token': decodeURIComponent(cookies.get('XSRF-TOKEN') ?? ''), cookie: cookie() },
    body: JSON.stringify({ username: DEMO_ADMIN.username, password: DEMO_ADMIN.password }),
  });
  if (!login.ok) throw new Error(`admin sign-in failed: ${login.status}`);
  keep(login);
  const { count } = await db.selectFrom('students').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();

  const run = async () => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const response = await fetch(`${base}${SCENARIOS[scenario]}`, { headers: { cookie: cookie() } });
    if (!response.ok) throw new Error(`${scenario}: HTTP ${response.status}`);
    let bytes = 0;
    const reader = response.body!.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) bytes += part.value.byteLength;
    const used = process.cpuUsage(cpu);
    return { ms: Math.round(performance.now() - started), cpuMs: Math.round((used.user + used.system) / 1000), bytes };
  };
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const cold = await run();
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const warm = await run();
  await app.close();
  await db.destroy();
  return { students: Number(count), scenario, coldMs: cold.ms, coldCpuMs: cold.cpuMs, warmMs: warm.ms, warmCpuMs: warm.cpuMs, kb: Math.round(cold.bytes / 1024), rssBeforeMb: mb(rssBefore), peakRssMb: mb(peakRss), peakGrowthMb: mb(peakRss - rssBefore) };
}

async function main() {
  const [flag, file, scenario] = process.argv.slice(2);
  if (flag === '--child') {
    process.stdout.write(`${JSON.stringify(await measure(file!, scenario as Scenario))}\n`);
    return;
  }
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  const results = [];
  for (const perClass of sizes.length > 0 ? sizes : [32, 100]) {
    const school = await ensureSchool(perClass);
    for (const name of Object.keys(SCENARIOS) as Scenario[]) {
      const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', SELF, '--child', school, name], { encoding: 'utf8' });
      if (child.status !== 0) throw new Error(child.stderr);
      results.push(JSON.parse(child.stdout.trim().split('\n').pop()!));
    }
  }
  console.table(results);
}

await main();
