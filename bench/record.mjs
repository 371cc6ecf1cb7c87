// record: GET /api/student-record/{id}, 50 signed-in students each reading their own
// record (session lookup, the record, its document slots, the computed progress flags).
// Baseline: a bare Fastify route doing one raw better-sqlite3 SELECT of the same row, on a copy of
// the same database, in the same run. Tool: autocannon, 50 connections (one per student),
// flat out; medians of the interleaved runs. Budget: ratio (req/s) >= 0.35.

import {
  RUNS,
  appSnapshot,
  autocannonRun,
  cpuProfileArgs,
  ensureBuilt,
  interleaved,
  median,
  requireRoute,
  runBench,
  seededDatabase,
  signInStudents,
  signInableStudentIds,
  startBaseline,
  startPortal,
} from './lib/harness.mjs';

const NAME = 'record';
const STUDENTS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 6);
const MIN_RATIO = 0.35;

await runBench(NAME, `ratio>=${MIN_RATIO.toFixed(2)}`, async () => {
  const { buildWarning } = ensureBuilt();
  await appSnapshot();
  const portal = await startPortal({ nodeArgs: cpuProfileArgs(NAME) });
  const baseline = await startBaseline({ templateFile: await seededDatabase() });
  const ids = signInableStudentIds(portal.dbFile, STUDENTS);
  const clients = await signInStudents(portal.url, ids);
  const probe = await requireRoute(clients[0], 'GET', `/api/student-record/${ids[0]}`);
  if (probe.status !== 200) throw new Error(`GET /api/student-record answered ${probe.status}: ${probe.text.slice(0, 200)}`);

  const portalLoad = {
    url: portal.url,
    path: `/api/student-record/${ids[0]}`,
    connections: STUDENTS,
    pid: portal.pid,
    clients: ids.map((id, i) => (client) => client.setRequests([{ method: 'GET', path: `/api/student-record/${id}`, headers: clients[i].headers() }])),
  };
  const baselineLoad = {
    url: baseline.url,
    path: `/baseline/record/${ids[0]}`,
    connections: STUDENTS,
    pid: baseline.pid,
    clients: ids.map((id) => (client) => client.setRequests([{ method: 'GET', path: `/baseline/record/${id}` }])),
  };

  await autocannonRun({ ...baselineLoad, duration: 2, title: 'baseline warm-up' });
  await autocannonRun({ ...portalLoad, duration: 2, title: 'portal warm-up' });
  const runs = await interleaved({
    baseline: () => autocannonRun({ ...baselineLoad, duration: DURATION_S, title: 'baseline' }),
    portal: () => autocannonRun({ ...portalLoad, duration: DURATION_S, title: 'portal' }),
  });
  const baselineRps = median(runs.baseline.map((r) => r.rps));
  const portalRps = median(runs.portal.map((r) => r.rps));
  const ratio = portalRps / baselineRps;
  const cpu = median(runs.portal.map((r) => r.cpuMsPerRequest));
  const baselineCpu = median(runs.baseline.map((r) => r.cpuMsPerRequest));
  return {
    ratio,
    pass: ratio >= MIN_RATIO,
    rps: portalRps,
    baseline_rps: baselineRps,
    p99_ms: median(runs.portal.map((r) => r.p99)),
    baseline_p99_ms: median(runs.baseline.map((r) => r.p99)),
    cpu_ms: cpu,
    baseline_cpu_ms: baselineCpu,
    cpu_ratio: baselineCpu / cpu,
    runs: RUNS,
    duration_s: DURATION_S,
    connections: STUDENTS,
    tool: 'autocannon',
    build_warning: buildWarning,
  };
});
