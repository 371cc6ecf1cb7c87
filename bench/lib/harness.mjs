// The bench harness: build when stale, a private snapshot of dist/, seeded demo
// databases, the built portal and a bare-Fastify baseline as child processes on 127.0.0.1,
// signed-in clients, autocannon runs, peak RSS from /proc, and the RESULT line.
//
// Every figure that has a baseline is a ratio against that baseline measured in the same run on
// the same machine: the machines are shared and noisy, absolute times drift, ratios hold.

import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ROOT, isBuildStale } from '../../scripts/build-lib.mjs';

export { ROOT };
const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));

export const DEMO_PASSWORD = 'portal-demo-2026';
export const DEMO_ADMIN = { username: 'admin', password: 'admin-demo-2026' };
/** Students in each of the 20 form classes for the budgets that name 2,000 students. */
export const SCALED_STUDENTS_PER_CLASS = 100;
/** How many measured runs each script takes the median of (interleaved with the baseline's). */
export const RUNS = Number(process.env.BENCH_RUNS ?? 3);

// ---------------------------------------------------------------------------------------------
// Small helpers

export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function log(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

/** 1-minute load average now: the notes say how busy the shared machine was. */
export function loadAverage() {
  return os.loadavg()[0];
}

function fmt(value) {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'NaN';
    if (Number.isInteger(value)) return String(value);
    return Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
  }
  return String(value).replace(/\s+/g, '_');
}

/** The last line of every script, the one bench/run.mjs reads, then any other key=value figures. */
export function printResult(name, { ratio, budget, pass, ...figures }) {
  const extras = Object.entries({ ...figures, load1: loadAverage() })
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${fmt(v)}`);
  process.stdout.write(`RESULT ${name} ratio=${fmt(ratio)} budget=${budget} pass=${pass ? 'true' : 'false'}${extras.length ? ` ${extras.join(' ')}` : ''}\n`);
}

/** Thrown when the route a script measures does not exist (yet): the RESULT says which. */
export class MissingRoute extends Error {
  constructor(route) {
    super(`missing route ${route}`);
    this.route = route;
  }
}

/** A 404 from the portal's "no route matched" handler (not a 404 for a missing record). */
export function isMissingRouteAnswer(status, body) {
  return status === 404 && typeof body === 'string' && body.includes('"code":"not_found"') && body.includes('No such route');
}

const cleanups = [];
/** Registers something to stop or remove when the script ends, whatever happens. */
export function onCleanup(fn) {
  cleanups.push(fn);
}
async function cleanupAll() {
  while (cleanups.length) {
    try {
      await cleanups.pop()();
    } catch (error) {
      log(`cleanup failed: ${error?.message ?? error}`);
    }
  }
}

/**
 * Runs a bench script: `measure()` answers the RESULT fields. Whatever happens (a missing route,
 * a crash, Ctrl-C) every child stops, temp folders go, and the RESULT line is printed last.
 */
export async function runBench(name, budget, measure) {
  let result;
  const interrupted = () => {
    void cleanupAll().then(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    result = await measure();
  } catch (error) {
    if (error instanceof MissingRoute) {
      result = { ratio: Number.NaN, budget, pass: false, missing_route: error.route };
    } else {
      log(`${name} failed: ${error?.stack ?? error}`);
      result = { ratio: Number.NaN, budget, pass: false, error: String(error?.message ?? error).slice(0, 120) };
    }
  } finally {
    await cleanupAll();
  }
  printResult(name, { budget, ...result });
  process.exitCode = result.pass ? 0 : 1;
}

// ---------------------------------------------------------------------------------------------
// The build and a private snapshot of it

function runNode(args, options = {}) {
  return spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], ...options });
}

/**
 * Builds when dist/ is older than the sources (scripts/build-lib.mjs). The build runs in a child
 * because build() exits on failure: when only the type check fails (work in progress elsewhere in
 * the tree) tsc has still emitted the JavaScript, so the web client is bundled anyway and the run
 * goes on with a warning rather than measuring nothing.
 */
export function ensureBuilt() {
  if (process.env.BENCH_SKIP_BUILD === '1' || !isBuildStale()) return { buildWarning: undefined };
  log('dist/ is stale: building (scripts/build-lib.mjs build())…');
  const built = runNode(['-e', "import('./scripts/build-lib.mjs').then((m) => m.build())"]);
  if (built.status === 0) return { buildWarning: undefined };
  log('the build failed (type errors?); bundling the web client on its own and using the JavaScript tsc emitted');
  runNode([path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.server.json'], { stdio: 'ignore' });
  const web = runNode([path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const ssr = runNode([path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--ssr', 'entry-server.tsx', '--logLevel', 'warn'], {
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (web.status !== 0 || ssr.status !== 0 || !fs.existsSync(path.join(ROOT, 'dist/server/main.js'))) throw new Error('the build failed; see above');
  return { buildWarning: 'type-errors' };
}

let snapshot;

/** True when index.html and every file it names are in the web folder (no build half done). */
function isWebComplete(webDir) {
  const index = path.join(webDir, 'index.html');
  if (!fs.existsSync(index)) return false;
  const html = fs.readFileSync(index, 'utf8');
  return [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].every((m) => fs.existsSync(path.join(webDir, m[1])));
}

/**
 * Copies dist/ into a temp folder (node_modules linked) and runs everything from there, so a
 * rebuild by someone else during a run (the e2e suite rebuilds dist/web) cannot change what is
 * being measured halfway through. When such a rebuild is under way, waits for it to finish.
 */
export async function appSnapshot() {
  if (snapshot) return snapshot;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-app-'));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (let attempt = 1; ; attempt++) {
    fs.rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
    if (fs.existsSync(path.join(ROOT, 'dist/server/main.js')) && isWebComplete(path.join(ROOT, 'dist/web'))) {
      // ssr: the client built for the server, which renders each visit's first page.
      for (const part of ['server', 'shared', 'web', 'ssr']) {
        const from = path.join(ROOT, 'dist', part);
        if (fs.existsSync(from)) fs.cpSync(from, path.join(dir, 'dist', part), { recursive: true });
      }
      if (isWebComplete(path.join(dir, 'dist/web'))) break;
    }
    if (attempt >= 60) throw new Error('dist/ stayed incomplete for a minute (dist/server/main.js or dist/web missing)');
    if (attempt === 1) log('dist/web is being rebuilt elsewhere; waiting for it…');
    await sleep(1000);
  }
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  snapshot = { dir, dist: path.join(dir, 'dist') };
  return snapshot;
}

/** The snapshot made by appSnapshot() (call that first). */
function currentSnapshot() {
  if (!snapshot) throw new Error('call await appSnapshot() first');
  return snapshot;
}

/** Imports a module of the built server from the snapshot (e.g. 'server/pdf/render-on-pool.js'). */
export function importDist(relative) {
  return import(pathToFileURL(path.join(currentSnapshot().dist, relative)).href);
}

// ---------------------------------------------------------------------------------------------
// Databases

const CACHE_DIR = path.join(os.tmpdir(), 'portal-bench-cache');

/** A hash of the built seeding and migration code: a changed seeder makes a new cached school. */
function seedCodeHash() {
  const hash = crypto.createHash('sha1');
  const dbDir = path.join(currentSnapshot().dist, 'server/db');
  for (const file of fs.readdirSync(dbDir, { recursive: true, encoding: 'utf8' }).sort()) {
    if (file.endsWith('.js')) hash.update(file).update(fs.readFileSync(path.join(dbDir, file)));
  }
  return hash.digest('hex').slice(0, 12);
}

/**
 * Seeds the demo school into a new database (createDatabase's options) the way the server seeds
 * its own: migrate, the reference lookups, then seedDemoSchool; closes it.
 */
async function seedSchool(databaseOptions, studentsPerClass) {
  const { createDatabase } = await importDist('server/db/database.js');
  const { migrateToLatest } = await importDist('server/db/migrate.js');
  const { seedReferenceData } = await importDist('server/db/reference-data.js');
  const { seedDemoSchool } = await importDist('server/db/demo-data/seed-demo-school.js');
  const { hashPassword } = await importDist('server/auth/password.js');
  const db = createDatabase(databaseOptions);
  try {
    await migrateToLatest(db);
    await seedReferenceData(db);
    await seedDemoSchool(db, { hashPassword, studentsPerClass });
  } finally {
    await db.destroy();
  }
}

/**
 * A seeded demo school as one SQLite file, made once per (build, size, day) and kept in a cache
 * folder; each script copies it. Made the way the server makes its own: migrate, the reference
 * lookups, then seedDemoSchool (studentsPerClass 100 gives the 2,000-student school).
 */
export async function seededDatabase(studentsPerClass = 32) {
  await appSnapshot();
  // The demo school depends on the day it is seeded (attendance up to today): the portal's own day.
  const { schoolToday } = await importDist('shared/dates.js');
  const key = `school-${studentsPerClass}-${schoolToday()}-${seedCodeHash()}`;
  const file = path.join(CACHE_DIR, `${key}.sqlite`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  log(`seeding a demo school with ${studentsPerClass * 20} students…`);
  const started = Date.now();
  // Closing (in seedSchool) folds the WAL into the file, so one file is the whole database.
  await seedSchool({ sqliteFile: partial }, studentsPerClass);
  for (const extra of ['-wal', '-shm']) fs.rmSync(partial + extra, { force: true });
  fs.renameSync(partial, file);
  // Older cached schools (other days, other builds) go.
  for (const old of fs.readdirSync(CACHE_DIR)) {
    if (old.startsWith(`school-${studentsPerClass}-`) && old !== `${key}.sqlite`) fs.rmSync(path.join(CACHE_DIR, old), { force: true });
  }
  log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return file;
}

/**
 * A demo school on PostgreSQL (127.0.0.1:5432, user postgres, or BENCH_PG_URL), seeded as
 * seededDatabase() seeds SQLite, into a template database `${name}_template` made once per run;
 * `fresh()` answers the URL of database `name`, dropped and copied from the template again, so
 * each arm of a script starts from the same school. Both are dropped at cleanup. The test suite's
 * database (`test`) is never touched.
 */
export async function seededPostgres(name, studentsPerClass = 32) {
  if (!/^[a-z_][a-z0-9_]*$/.test(name) || name === 'test') throw new Error(`not a bench database name: ${name}`);
  await appSnapshot();
  const server = new URL(process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const urlOf = (database) => Object.assign(new URL(server), { pathname: `/${database}` }).toString();
  const template = `${name}_template`;
  const { default: pg } = await import('pg');
  const admin = async (statements) => {
    const client = new pg.Client({ connectionString: server.toString() });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const drop = (database) => `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`;
  onCleanup(() => admin([drop(name), drop(template)]));
  await admin([drop(name), drop(template), `CREATE DATABASE ${template}`]);
  log(`seeding a demo school with ${studentsPerClass * 20} students on PostgreSQL (${template})…`);
  const started = Date.now();
  await seedSchool({ databaseUrl: urlOf(template) }, studentsPerClass);
  log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return {
    async fresh() {
      await admin([drop(name), `CREATE DATABASE ${name} TEMPLATE ${template}`]);
      return urlOf(name);
    },
  };
}

/** A temp data folder holding a copy of a seeded school as portal.sqlite. */
export function dataDirWith(templateFile) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-data-'));
  fs.copyFileSync(templateFile, path.join(dir, 'portal.sqlite'));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  return { dir, dbFile: path.join(dir, 'portal.sqlite') };
}

/** Runs statements on a SQLite file with better-sqlite3 (a script reshaping its own copy of a school). */
export function changeDatabase(dbFile, statements) {
  const SQLite = require(path.join(ROOT, 'node_modules/better-sqlite3'));
  const db = new SQLite(dbFile, { fileMustExist: true });
  try {
    db.transaction(() => {
      for (const [sql, params = []] of statements) db.prepare(sql).run(...params);
    })();
  } finally {
    db.close();
  }
}

/** Runs a read-only query on a SQLite file with better-sqlite3. */
export function queryDatabase(dbFile, sql, params = []) {
  const SQLite = require(path.join(ROOT, 'node_modules/better-sqlite3'));
  const db = new SQLite(dbFile, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params);
  } finally {
    db.close();
  }
}

/** IDs of students who sign in with the demo password (signed in before, no reset pending). */
export function signInableStudentIds(dbFile, count) {
  const rows = queryDatabase(
    dbFile,
    `SELECT users.student_id AS id FROM users JOIN students ON students.id = users.student_id
     WHERE users.role = 'student' AND users.first_login = 0 AND users.password_reset = 0 AND users.password_hash IS NOT NULL
     ORDER BY users.student_id LIMIT ?`,
    [count],
  );
  if (rows.length < count) throw new Error(`only ${rows.length} students can sign in; ${count} needed`);
  return rows.map((row) => row.id);
}

// ---------------------------------------------------------------------------------------------
// Processes

const CLOCK_TICKS_PER_S = 100; // USER_HZ on Linux (getconf CLK_TCK)

/**
 * CPU time (user + system) a process has used so far, in ms. CPU per request is far steadier than
 * requests per second on a shared, busy machine: a process that waits for a core does not count.
 */
export function processCpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is the state (field 3 of stat(5)); utime and stime are fields 14 and 15.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}

/** Peak resident memory (VmHWM) of a process, in MB. */
export function peakRssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/** Sets the process's VmHWM back to its current RSS (Linux clear_refs 5), so the next peak is the next operation's. */
export function resetPeakRss(pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Samples VmHWM every 50 ms while `work` runs (the kernel keeps the high-water mark; polling
 * also covers kernels where clear_refs cannot reset it). Answers { value, peakMb }.
 */
export async function withPeakRss(pid, work) {
  const reset = resetPeakRss(pid);
  let peak = 0;
  const poll = () => {
    try {
      peak = Math.max(peak, peakRssMb(pid));
    } catch {
      /* process gone */
    }
  };
  const timer = setInterval(poll, 50);
  try {
    const value = await work();
    poll();
    return { value, peakMb: peak, reset };
  } finally {
    clearInterval(timer);
  }
}

function spawnChild(label, args, env, readyPattern, timeoutMs = 120_000) {
  const child = spawn(process.execPath, args, { cwd: currentSnapshot().dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  onCleanup(stop);
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} did not start in ${timeoutMs / 1000} s:\n${output.slice(-2000)}`)), timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      const match = readyPattern.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      if (process.env.BENCH_VERBOSE) process.stderr.write(chunk);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited (${code}) before it was ready:\n${output.slice(-2000)}`));
    });
  });
  return { child, ready, stop, output: () => output };
}

function childEnv(extra) {
  const env = { ...process.env, NODE_ENV: 'production', ...extra };
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;
  return env;
}

/**
 * The node flags `npm start` gives the server (the options before the script in package.json's
 * start script: the young generation's size, docs/performance.md), so the bench measures the
 * portal as it runs.
 */
const START_SCRIPT = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start.split(/\s+/);
export const START_FLAGS = START_SCRIPT.filter((word) => word.startsWith('--'));
/**
 * The environment `npm start` sets before node (the assignments ahead of `node` in its script:
 * glibc's arenas, docs/performance.md), given to the portal the benches start.
 */
export const START_ENV = Object.fromEntries(
  START_SCRIPT.slice(0, START_SCRIPT.indexOf('node')).map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
);

/**
 * The built portal (`node dist/server/main.js` with START_FLAGS, or `startFlags` instead) on
 * 127.0.0.1 and a free port, LOG_LEVEL=warn, DEMO_DATA=true, over a copy of a seeded school (or of
 * `templateFile`, a school a script reshaped), or on PostgreSQL when `databaseUrl` is given
 * (seededPostgres; no SQLite file then, `dbFile` undefined). Answers { url, pid, dbFile, stop, output }.
 */
export async function startPortal({ studentsPerClass = 32, env = {}, nodeArgs = [], startFlags = START_FLAGS, templateFile, databaseUrl } = {}) {
  let data;
  if (databaseUrl) {
    data = { dir: fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-data-')), dbFile: undefined };
    onCleanup(() => fs.rmSync(data.dir, { recursive: true, force: true }));
  } else {
    data = dataDirWith(templateFile ?? (await seededDatabase(studentsPerClass)));
  }
  const server = spawnChild(
    'the portal',
    [...startFlags, ...nodeArgs, path.join((await appSnapshot()).dist, 'server/main.js')],
    {
      ...childEnv({ ...START_ENV, HOST: '127.0.0.1', PORT: '0', DATA_DIR: data.dir, LOG_LEVEL: 'warn', DEMO_DATA: 'true', ...env }),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    /listening on (http:\/\/127\.0\.0\.1:\d+)/,
  );
  const url = await server.ready;
  return { url, pid: server.child.pid, dbFile: data.dbFile, dataDir: data.dir, stop: server.stop, output: server.output };
}

/**
 * The baseline: a bare Fastify app (bench/lib/baseline-server.mjs) in its own process, like the
 * portal, with one route per baseline, over its own copy of the same database.
 */
export async function startBaseline({ templateFile }) {
  const data = dataDirWith(templateFile);
  const server = spawnChild(
    'the baseline server',
    [path.join(HERE, 'baseline-server.mjs')],
    childEnv({ BENCH_DB: data.dbFile, BENCH_DIST: (await appSnapshot()).dist }),
    /BASELINE listening on (http:\/\/127\.0\.0\.1:\d+)/,
  );
  const url = await server.ready;
  return { url, pid: server.child.pid, stop: server.stop };
}

/** Runs a node script with --cpu-prof against a started portal (for docs/performance.md). */
export function cpuProfileArgs(name) {
  if (!process.env.BENCH_PROFILE) return [];
  const dir = path.resolve(process.env.BENCH_PROFILE);
  fs.mkdirSync(dir, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`];
}

// ---------------------------------------------------------------------------------------------
// HTTP clients

/** A browser-like client over fetch: keeps cookies and echoes XSRF-TOKEN as X-XSRF-TOKEN. */
export class Client {
  constructor(baseUrl) {
    this.baseUrl = baseUrl;
    this.cookies = new Map();
  }

  get cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  get xsrf() {
    return this.cookies.get('XSRF-TOKEN') ?? '';
  }

  remember(response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** Headers a load generator sends to act as this client. */
  headers(extra = {}) {
    return { cookie: this.cookieHeader, 'x-xsrf-token': this.xsrf, ...extra };
  }

  async request(method, url, body) {
    if (method !== 'GET' && !this.cookies.has('XSRF-TOKEN')) await this.request('GET', '/sanctum/csrf-cookie');
    const headers = { cookie: this.cookieHeader };
    if (method !== 'GET') headers['x-xsrf-token'] = this.xsrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(this.baseUrl + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    this.remember(response);
    return response;
  }

  async json(method, url, body) {
    const response = await this.request(method, url, body);
    const text = await response.text();
    if (isMissingRouteAnswer(response.status, text)) throw new MissingRoute(`${method} ${url.replace(/\d{8}/g, '{id}')}`);
    if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  }
}

export async function signInStudent(baseUrl, studentId, password = DEMO_PASSWORD) {
  const client = new Client(baseUrl);
  await client.json('POST', '/api/login-student', { student_id: studentId, password });
  return client;
}

export async function signInAdmin(baseUrl) {
  const client = new Client(baseUrl);
  await client.json('POST', '/api/admin-login', { username: DEMO_ADMIN.username, password: DEMO_ADMIN.password });
  return client;
}

/** Signs in students a few at a time (argon2 is deliberately slow). */
export async function signInStudents(baseUrl, ids) {
  const clients = new Array(ids.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < ids.length) {
        const index = next++;
        clients[index] = await signInStudent(baseUrl, ids[index]);
      }
    }),
  );
  return clients;
}

/** Fails with MissingRoute when the portal has no such route (a feature not landed yet). */
export async function requireRoute(client, method, url, body) {
  const response = await client.request(method, url, body);
  const text = await response.text();
  if (isMissingRouteAnswer(response.status, text)) throw new MissingRoute(`${method} ${url}`);
  return { status: response.status, text };
}

/** Times one full download (headers and the whole body), in seconds. */
export async function timeDownload(client, url) {
  const started = performance.now();
  const response = await client.request('GET', url);
  const bytes = Buffer.from(await response.arrayBuffer());
  const seconds = (performance.now() - started) / 1000;
  if (isMissingRouteAnswer(response.status, bytes.toString('utf8'))) throw new MissingRoute(`GET ${url}`);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${bytes.toString('utf8').slice(0, 300)}`);
  return { seconds, bytes };
}

// ---------------------------------------------------------------------------------------------
// autocannon

/**
 * One autocannon run (in this process). `clients[i]` sets connection i's headers and body: each
 * connection acts as one signed-in person. Answers the figures the scripts use.
 */
export async function autocannonRun({ url, method = 'GET', path: urlPath, connections, duration, clients, body, headers, overallRate, onResponse, expectStatus = 200, title, pid }) {
  const { default: autocannon } = await import('autocannon');
  const cpuBefore = pid ? processCpuMs(pid) : Number.NaN;
  let index = 0;
  const statuses = new Map();
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: url + urlPath,
        method,
        connections,
        duration,
        overallRate,
        headers: headers ?? {},
        body,
        title,
        setupClient(client) {
          const setup = clients?.[index++ % clients.length];
          if (setup) setup(client);
          client.on('response', (status) => {
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          });
          if (onResponse) client.on('response', (...args) => onResponse(client, ...args));
        },
      },
      (error, res) => (error ? reject(error) : resolve(res)),
    );
    void instance; // no progress bar (autocannon.track): the output stays readable
  });
  const cpuMs = pid ? processCpuMs(pid) - cpuBefore : Number.NaN;
  const total = [...statuses.values()].reduce((a, b) => a + b, 0);
  const wrong = [...statuses].filter(([status]) => status !== expectStatus).reduce((a, [, n]) => a + n, 0);
  if (total === 0) throw new Error(`${title ?? urlPath}: no answers (${result.errors} errors)`);
  if (wrong > total * 0.01) {
    throw new Error(`${title ?? urlPath}: ${wrong} of ${total} answers were not ${expectStatus}: ${JSON.stringify(Object.fromEntries(statuses))}`);
  }
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.average,
    errors: result.errors,
    /** The server's CPU time per answered request (needs `pid`). */
    cpuMsPerRequest: cpuMs / total,
    statuses: Object.fromEntries(statuses),
  };
}

/**
 * Runs the measurements `RUNS` times, interleaved (baseline, portal, baseline, portal…), so a
 * burst of load from elsewhere on the machine hits both sides alike; answers each one's runs.
 */
export async function interleaved(measurements, runs = RUNS) {
  const results = Object.fromEntries(Object.keys(measurements).map((key) => [key, []]));
  for (let run = 1; run <= runs; run++) {
    for (const [key, measure] of Object.entries(measurements)) {
      const value = await measure(run);
      results[key].push(value);
      log(`run ${run}/${runs} ${key}: ${JSON.stringify(value)}`);
    }
  }
  return results;
}

/** Per-connection setup for autocannon: connection i sends `request(i)` (headers and body). */
export function perConnection(count, request) {
  return Array.from({ length: count }, (_, i) => (client) => {
    const { headers, body, next } = request(i);
    client.setHeadersAndBody(headers, body);
    if (next) client.on('response', () => client.setBody(next()));
  });
}

// ---------------------------------------------------------------------------------------------
// A steady, open-loop load

/** The q-quantile (0..1) of sorted numbers. */
function quantile(sorted, q) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/**
 * Requests at a steady rate, evenly spaced (one every 1000/rate ms), round-robin over `clients`
 * (one keep-alive connection each: each acts as one signed-in person), for `duration` seconds.
 * Open loop: a request leaves at its time whatever the earlier ones are doing, and its latency is
 * counted from that time, so a server that falls behind is not hidden (coordinated omission).
 * autocannon's `overallRate` instead starts every connection's one-a-second timer together, which
 * sends the whole second's requests as one burst. `clients[i]` answers `{ headers, body() }`.
 */
export async function steadyRun({ url, method = 'POST', path: urlPath, rate, duration, clients, expectStatus = 200, title, pid }) {
  const http = await import('node:http');
  const target = new URL(url + urlPath);
  const agents = clients.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  const send = (i) =>
    new Promise((resolve) => {
      const { headers, body } = clients[i];
      const payload = body?.();
      const request = http.request(
        { host: target.hostname, port: target.port, path: target.pathname + target.search, method, agent: agents[i], headers: { ...headers, ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}) } },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode));
        },
      );
      request.on('error', () => resolve(0));
      request.end(payload);
    });
  // Every connection opened and warm before the clock starts.
  for (let i = 0; i < clients.length; i++) await send(i);

  const total = Math.round(rate * duration);
  const intervalMs = 1000 / rate;
  const latencies = [];
  const statuses = new Map();
  const pending = [];
  const cpuBefore = pid ? processCpuMs(pid) : Number.NaN;
  const started = performance.now();
  for (let k = 0; k < total; k++) {
    const due = started + k * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(
      send(k % clients.length).then((status) => {
        latencies.push(performance.now() - due);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }),
    );
  }
  await Promise.all(pending);
  const elapsedS = (performance.now() - started) / 1000;
  const cpuMs = pid ? processCpuMs(pid) - cpuBefore : Number.NaN;
  for (const agent of agents) agent.destroy();
  const wrong = [...statuses].filter(([status]) => status !== expectStatus).reduce((a, [, n]) => a + n, 0);
  if (wrong > total * 0.01) throw new Error(`${title ?? urlPath}: ${wrong} of ${total} answers were not ${expectStatus}: ${JSON.stringify(Object.fromEntries(statuses))}`);
  const sorted = latencies.sort((a, b) => a - b);
  return {
    rps: total / elapsedS,
    total,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1],
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    cpuMsPerRequest: cpuMs / total,
    statuses: Object.fromEntries(statuses),
  };
}

/**
 * Debian's Chromium, headless, for Lighthouse (chrome-launcher; nothing is downloaded), in a temp
 * profile; stopped and the profile removed at cleanup.
 */
export async function launchChromium(chromePath) {
  const chromeLauncher = await import('chrome-launcher');
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-chromium-'));
  onCleanup(() => fs.rmSync(profileDir, { recursive: true, force: true }));
  const chrome = await chromeLauncher.launch({
    chromePath,
    userDataDir: profileDir,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-background-networking', '--disable-dev-shm-usage'],
    logLevel: 'error',
  });
  onCleanup(() => chrome.kill());
  return chrome;
}
