// autosave: POST /api/student, 200 signed-in students each saving a field (the value alternates,
// so every save really changes the record, writes its audit row and recomputes the progress
// flags). Baseline: a bare Fastify route doing one raw better-sqlite3 UPDATE per request, on a copy
// of the same database with the portal's pragmas, measured the same way in the same run.
// Budget: ratio (req/s, flat out: autocannon, one connection per student) >= 0.25, and p99 <= 25 ms
// at a steady 200 saves a second from the 200 students (each saving once a second, the saves
// evenly spaced, open loop: steadyRun in lib/harness.mjs). Flat out, p99 is only queueing
// (200 connections x service time): see docs/performance.md.

import {
  RUNS,
  appSnapshot,
  autocannonRun,
  ensureBuilt,
  interleaved,
  median,
  perConnection,
  requireRoute,
  runBench,
  seededDatabase,
  signInStudents,
  signInableStudentIds,
  startBaseline,
  startPortal,
  cpuProfileArgs,
  steadyRun,
} from './lib/harness.mjs';

const NAME = 'autosave';
const STUDENTS = 200;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 6);
const MIN_RATIO = 0.25;
const MAX_P99_MS = 25;
const STEADY_RATE = 200;

await runBench(NAME, `ratio>=${MIN_RATIO.toFixed(2)},p99_ms<=${MAX_P99_MS}`, async () => {
  const { buildWarning } = ensureBuilt();
  await appSnapshot();
  const portal = await startPortal({ nodeArgs: cpuProfileArgs(NAME) });
  const baseline = await startBaseline({ templateFile: await seededDatabase() });
  const ids = signInableStudentIds(portal.dbFile, STUDENTS);
  const clients = await signInStudents(portal.url, ids);
  const probe = await requireRoute(clients[0], 'POST', '/api/student', { id: ids[0], home_address: '1 Bench Street' });
  if (probe.status !== 200) throw new Error(`POST /api/student answered ${probe.status}: ${probe.text.slice(0, 200)}`);

  const address = (i, flip) => `${i + 1} ${flip ? 'Bench' : 'Load'} Street, Arima`;
  /** Student i's save: their own id, the address alternating so each save changes the record. */
  const saveOf = (i) => {
    let flip = false;
    return () => JSON.stringify({ id: ids[i], home_address: address(i, (flip = !flip)) });
  };
  const saving = (headersOf) =>
    perConnection(STUDENTS, (i) => {
      const bodyOf = saveOf(i);
      return { headers: { 'content-type': 'application/json', ...headersOf(i) }, body: bodyOf(), next: bodyOf };
    });
  const steadily = (headersOf) => ids.map((_, i) => ({ headers: { 'content-type': 'application/json', ...headersOf(i) }, body: saveOf(i) }));
  const portalLoad = { url: portal.url, method: 'POST', path: '/api/student', connections: STUDENTS, pid: portal.pid, clients: saving((i) => clients[i].headers()) };
  const baselineLoad = { url: baseline.url, method: 'POST', path: '/baseline/update', connections: STUDENTS, pid: baseline.pid, clients: saving(() => ({})) };
  const portalSteady = { url: portal.url, path: '/api/student', rate: STEADY_RATE, duration: DURATION_S, pid: portal.pid, clients: steadily((i) => clients[i].headers()) };
  const baselineSteady = { url: baseline.url, path: '/baseline/update', rate: STEADY_RATE, duration: DURATION_S, pid: baseline.pid, clients: steadily(() => ({})) };

  // Warm both (JIT, statement caches) before anything counts.
  await autocannonRun({ ...baselineLoad, duration: 2, title: 'baseline warm-up' });
  await autocannonRun({ ...portalLoad, duration: 2, title: 'portal warm-up' });

  const runs = await interleaved({
    baseline: () => autocannonRun({ ...baselineLoad, duration: DURATION_S, title: 'baseline' }),
    portal: () => autocannonRun({ ...portalLoad, duration: DURATION_S, title: 'portal' }),
    steady: () => steadyRun({ ...portalSteady, title: 'portal steady' }),
    // The machine's floor: the bare route's p99 at the same steady rate.
    baselineSteady: () => steadyRun({ ...baselineSteady, title: 'baseline steady' }),
  });
  const baselineRps = median(runs.baseline.map((r) => r.rps));
  const portalRps = median(runs.portal.map((r) => r.rps));
  const p99 = median(runs.steady.map((r) => r.p99));
  const ratio = portalRps / baselineRps;
  return {
    ratio,
    pass: ratio >= MIN_RATIO && p99 <= MAX_P99_MS,
    p99_ms: p99,
    p50_ms: median(runs.steady.map((r) => r.p50)),
    steady_rate: STEADY_RATE,
    baseline_steady_p99_ms: median(runs.baselineSteady.map((r) => r.p99)),
    p99_saturated_ms: median(runs.portal.map((r) => r.p99)),
    rps: portalRps,
    baseline_rps: baselineRps,
    baseline_p99_ms: median(runs.baseline.map((r) => r.p99)),
    cpu_ms: median(runs.portal.map((r) => r.cpuMsPerRequest)),
    baseline_cpu_ms: median(runs.baseline.map((r) => r.cpuMsPerRequest)),
    cpu_ratio: median(runs.baseline.map((r) => r.cpuMsPerRequest)) / median(runs.portal.map((r) => r.cpuMsPerRequest)),
    runs: RUNS,
    duration_s: DURATION_S,
    connections: STUDENTS,
    tool: 'autocannon',
    build_warning: buildWarning,
  };
});
