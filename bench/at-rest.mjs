// at-rest: what the server holds when it is not working, on a school of 2,000 students. For two
// portals, one after the other (as `npm start` runs it, with its node flags and environment, and
// as plain `node` runs it, V8's default young generation and glibc's default arenas, for
// comparison): RSS once started and idle, then the registration report for all classes and
// 'Registration Data.xlsx' are downloaded, and RSS is read again 65 s after the last one (the
// worker pool ends an idle thread after 60 s). Also from /proc/<pid>/smaps: the anonymous
// mappings of 60-64 MB (glibc's per-thread arenas are 64 MB regions) and what of them is
// resident. Budgets: RSS idle <= 120 MB, RSS after printing <= 150 MB, for the arm `npm start`
// runs; ratio = the larger of the two against its budget (<= 1 passes).

import fs from 'node:fs';
import { SCALED_STUDENTS_PER_CLASS, START_ENV, START_FLAGS, ensureBuilt, log, runBench, signInAdmin, sleep, startPortal, timeDownload } from './lib/harness.mjs';

const NAME = 'at-rest';
const MAX_IDLE_MB = 120;
const MAX_AFTER_MB = 150;
const AFTER_MS = 65_000;
const DOWNLOADS = ['/api/registration-report/all', '/api/registration-data-spreadsheet'];

function rssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

/** The anonymous mappings of 60-64 MB (an arena's region) and their resident size, in MB. */
function arenaMappings(pid) {
  const text = fs.readFileSync(`/proc/${pid}/smaps`, 'utf8');
  let count = 0;
  let residentMb = 0;
  for (const block of text.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const [header = ''] = block.split('\n');
    const [range = '', , , , , name] = header.split(/\s+/);
    if (name) continue;
    const [from = '0', to = '0'] = range.split('-');
    const sizeMb = (parseInt(to, 16) - parseInt(from, 16)) / 2 ** 20;
    if (sizeMb < 60 || sizeMb > 64) continue;
    count++;
    residentMb += Number(/\nRss:\s+(\d+)/.exec(block)?.[1] ?? 0) / 1024;
  }
  return { count, residentMb };
}

const round = (n) => Math.round(n * 10) / 10;

async function measureArm(startFlags, env = {}) {
  const portal = await startPortal({ studentsPerClass: SCALED_STUDENTS_PER_CLASS, startFlags, env });
  await sleep(5_000);
  const idle = rssMb(portal.pid);
  const admin = await signInAdmin(portal.url);
  let peak = idle;
  for (const url of DOWNLOADS) {
    await timeDownload(admin, url);
    peak = Math.max(peak, rssMb(portal.pid));
  }
  const justAfter = rssMb(portal.pid);
  await sleep(AFTER_MS);
  const after = rssMb(portal.pid);
  const arenas = arenaMappings(portal.pid);
  await portal.stop();
  return { idle: round(idle), just_after: round(justAfter), after: round(after), arenas: arenas.count, arena_resident_mb: round(arenas.residentMb) };
}

await runBench(NAME, `idle_mb<=${MAX_IDLE_MB},after_mb<=${MAX_AFTER_MB}`, async () => {
  const { buildWarning } = ensureBuilt();
  // One after the other, so neither arm's printing slows the other's.
  const plain = await measureArm(START_FLAGS);
  log(`${NAME} as npm start runs it (${START_FLAGS.join(' ')}, ${JSON.stringify(START_ENV)}): ${JSON.stringify(plain)}`);
  // Plain node: npm start's variables unset (an undefined value is left out of the child's environment).
  const v8Default = await measureArm([], Object.fromEntries(Object.keys(START_ENV).map((name) => [name, undefined])));
  log(`${NAME} plain node (V8's default young generation, glibc's default arenas): ${JSON.stringify(v8Default)}`);
  return {
    ratio: Math.max(plain.idle / MAX_IDLE_MB, plain.after / MAX_AFTER_MB),
    pass: plain.idle <= MAX_IDLE_MB && plain.after <= MAX_AFTER_MB,
    idle_mb: plain.idle,
    after_mb: plain.after,
    arena_resident_mb: plain.arena_resident_mb,
    v8_default_idle_mb: v8Default.idle,
    v8_default_after_mb: v8Default.after,
    students: SCALED_STUDENTS_PER_CLASS * 20,
    build_warning: buildWarning,
  };
});
