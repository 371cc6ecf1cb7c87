// npm run bench           — every bench script, one after another
// npm run bench -- NAME   — one (or several) of them: autosave record login-storm report-card
//                           class-cards class-report pdf-isolation export post-term web student-list scale at-rest
//                           registration-day
// Builds first when dist/ is stale. Each script prints its own `RESULT NAME ratio=… budget=…
// pass=…` line last; after all of them, the RESULT lines are printed again together. The exit
// code is 1 when any budget failed, but nothing in bench/ gates CI.
// Env: BENCH_RUNS (medians of how many runs, default 3), BENCH_DURATION (seconds per autocannon
// run, default 6), BENCH_PROFILE=DIR (start the portal with --cpu-prof into DIR; summarise with
// node bench/lib/profile-summary.mjs FILE), BENCH_VERBOSE=1 (the servers' stderr).

import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './lib/harness.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ALL = ['autosave', 'record', 'login-storm', 'report-card', 'class-cards', 'class-report', 'pdf-isolation', 'export', 'post-term', 'web', 'student-list', 'scale', 'at-rest', 'registration-day'];

const asked = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = asked.filter((name) => !ALL.includes(name));
if (unknown.length > 0) {
  process.stderr.write(`Unknown bench ${unknown.join(', ')}. Known: ${ALL.join(' ')}\n`);
  process.exit(2);
}
const names = asked.length > 0 ? asked : ALL;

const load = os.loadavg().map((n) => n.toFixed(2)).join(' ');
process.stdout.write(`bench: ${names.join(', ')} on ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, load ${load}, Node ${process.version}\n`);
const { buildWarning } = ensureBuilt();
if (buildWarning) process.stdout.write('bench: the type check failed; measuring the JavaScript tsc emitted anyway\n');

/** Runs one script, echoing its output, and answers its RESULT line. */
function runScript(name) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(HERE, `${name}.mjs`)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, BENCH_SKIP_BUILD: '1' },
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('exit', (code, signal) => {
      const line = out.split('\n').reverse().find((l) => l.startsWith('RESULT '));
      resolve(line ?? `RESULT ${name} ratio=NaN budget=? pass=false error=exited_${signal ?? code}_without_a_result`);
    });
  });
}

const results = [];
for (const name of names) {
  process.stdout.write(`\n== ${name}\n`);
  results.push(await runScript(name));
}
process.stdout.write(`\n${results.join('\n')}\n`);
process.exitCode = results.every((line) => line.includes(' pass=true')) ? 0 : 1;
