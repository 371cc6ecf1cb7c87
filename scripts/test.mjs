// npm test: typecheck, lint, then Vitest's projects. The PostgreSQL and browser projects run when
// their engines are here; with CI=true a missing PostgreSQL or Chromium fails the run instead of
// skipping.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { ROOT } from './build-lib.mjs';

const ci = process.env.CI === 'true';
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const pgUrl = new URL(process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test');

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port: Number(port), timeout: 2000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

// The web client's component tests (jsdom) need no engine; they run with the server suites.
const projects = ['sqlite', 'sqlite-isolated', 'web'];
if (await reachable(pgUrl.hostname, pgUrl.port || 5432)) projects.push('postgres', 'postgres-isolated');
else if (ci) fail(`CI: PostgreSQL is not reachable at ${pgUrl.host}; failing.`);
else process.stdout.write(`Notice: PostgreSQL not reachable at ${pgUrl.host}; skipping the PostgreSQL run.\n`);

if (fs.existsSync(chromium)) projects.push('e2e');
else if (ci) fail(`CI: Chromium is missing at ${chromium}; failing.`);
else process.stdout.write(`Notice: Chromium not found at ${chromium}; skipping the browser tests.\n`);

/** Each phase's wall time, printed at the end of the run whatever its outcome (docs/testing.md). */
const phases = [];
const runStarted = performance.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
function printPhases() {
  if (phases.length === 0) return;
  const width = Math.max(...phases.map((phase) => phase.label.length));
  process.stdout.write('\nPhase times:\n');
  for (const phase of phases) process.stdout.write(`  ${phase.label.padEnd(width)}  ${seconds(phase.ms).padStart(8)}  ${phase.status === 0 ? 'ok' : `failed (${phase.status})`}\n`);
  process.stdout.write(`  ${'total'.padEnd(width)}  ${seconds(performance.now() - runStarted).padStart(8)}\n`);
}
process.on('exit', printPhases);

/**
 * Runs one step and answers its exit status (a signal counts as 1). A live step writes as it
 * goes; any other keeps its output and writes it whole when it ends, so two steps running side by
 * side never interleave their lines.
 */
function run(label, args, { live }) {
  const started = performance.now();
  if (live) process.stdout.write(`\n▶ ${label}\n`);
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const status = code ?? 1;
      phases.push({ label, ms: performance.now() - started, status });
      if (!live) process.stdout.write(`\n▶ ${label}\n${Buffer.concat(output).toString()}`);
      resolve(status);
    });
  });
}

/** Runs steps one after another, each whatever the last one's outcome; answers their statuses. */
async function inTurn(steps, live) {
  const statuses = [];
  for (const [label, args] of steps) statuses.push(await run(label, args, { live }));
  return statuses;
}

const extra = process.argv.slice(2);
/**
 * `npm test -- <files or filters>` runs only those tests, for an answer in seconds: the whole
 * project's typecheck and lint are left to the full run. Paths choose their suites: a spec under
 * tests/e2e only the browser suite, any other test file only the server suites; a name filter
 * (no path) runs everywhere.
 */
const selectedPaths = extra.filter((arg) => !arg.startsWith('-') && /\.(test|spec)\.tsx?$|\//.test(arg));
const selectsOnlyPaths = extra.length > 0 && selectedPaths.length === extra.filter((arg) => !arg.startsWith('-')).length;
const wantsBrowser = !selectsOnlyPaths || selectedPaths.some((arg) => arg.includes('tests/e2e') || arg.endsWith('.spec.ts'));
const wantsServer = !selectsOnlyPaths || selectedPaths.some((arg) => !(arg.includes('tests/e2e') || arg.endsWith('.spec.ts')));

const checks = [];
if (extra.length === 0) {
  checks.push(['typecheck', ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json']]);
  checks.push(['lint', ['node_modules/eslint/bin/eslint.js', '.', '--max-warnings', '0']]);
} else {
  process.stdout.write('A selection runs its tests only; `npm test` alone also type-checks and lints.\n');
}

// Vitest's own default is one worker on a 2-core machine (cores − 1). The server suites wait on
// PostgreSQL, argon2's thread pool and child processes as much as they compute, so they run
// SERVER_WORKERS files at once (docs/decisions.md D58). TEST_WORKERS overrides it.
const SERVER_WORKERS = process.env.TEST_WORKERS ?? String(Math.max(2, os.availableParallelism()));
// Arguments name files or filters; a run that selects none of one step's files is not a failure.
const selecting = extra.length > 0 ? ['--passWithNoTests'] : [];
const vitest = (projectNames, workers) => [
  'node_modules/vitest/vitest.mjs',
  'run',
  ...projectNames.flatMap((p) => ['--project', p]),
  `--maxWorkers=${workers}`,
  ...selecting,
  ...extra,
];
const serverProjects = projects.filter((p) => p !== 'e2e');
if (wantsServer) checks.push([`vitest (server suites and component tests; ${SERVER_WORKERS} workers)`, vitest(serverProjects, SERVER_WORKERS)]);
const browser = projects.includes('e2e') && wantsBrowser ? [['vitest (e2e)', vitest(['e2e'], 1)]] : [];

// The browser suite runs beside the rest, not after it: Chromium spends most of its time waiting
// on frames and round trips, not computing, so the type-check, the lint and the server suites fill
// the cores it leaves idle (docs/decisions.md D78). Every step runs whatever another's outcome, so
// one run reports every failure; the browser suite's output is written live, the rest's as each
// step ends.
const lanes = browser.length > 0 ? [inTurn(browser, true), inTurn(checks, false)] : [inTurn(checks, true)];
const failed = (await Promise.all(lanes)).flat().find((status) => status !== 0);
if (failed !== undefined) {
  process.stdout.write('\nSome steps failed: see their output above.\n');
  process.exit(failed);
}
