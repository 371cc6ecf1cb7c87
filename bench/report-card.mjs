// report-card: milliseconds per report card PDF, GET /api/report-card/{id}/{year}/{term}
// for signed-in students opening their own posted card (session, access, the card's data, the
// pdfmake document, the audit row of the view). Baseline: a bare Fastify route rendering a bare
// one-page pdfmake document with the portal's own renderer (dist/server/pdf/render-on-pool.js), in the
// same run. Tool: autocannon, one connection (a PDF is CPU work: one at a time is its cost);
// ms per PDF = mean latency; medians of the interleaved runs. Budget: ratio (portal ms / bare ms) <= 3.

import {
  RUNS,
  appSnapshot,
  autocannonRun,
  cpuProfileArgs,
  ensureBuilt,
  interleaved,
  median,
  queryDatabase,
  requireRoute,
  runBench,
  seededDatabase,
  signInStudents,
  startBaseline,
  startPortal,
} from './lib/harness.mjs';

const NAME = 'report-card';
const STUDENTS = 10;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 6);
const MAX_RATIO = 3;

await runBench(NAME, `ratio<=${MAX_RATIO}`, async () => {
  const { buildWarning } = ensureBuilt();
  await appSnapshot();
  const portal = await startPortal({ nodeArgs: cpuProfileArgs(NAME) });
  const baseline = await startBaseline({ templateFile: await seededDatabase() });

  // Students who can sign in and have results in a posted term.
  const cards = queryDatabase(
    portal.dbFile,
    `SELECT r.student_id AS id, r.year, r.term FROM term_results r
     JOIN term_reports t ON t.year = r.year AND t.term = r.term AND t.posted = 1
     JOIN users u ON u.student_id = r.student_id AND u.first_login = 0 AND u.password_reset = 0 AND u.password_hash IS NOT NULL
     GROUP BY r.student_id, r.year, r.term ORDER BY r.student_id, r.year, r.term`,
  );
  const seen = new Set();
  const picked = cards.filter((card) => !seen.has(card.id) && seen.add(card.id)).slice(0, STUDENTS);
  if (picked.length === 0) throw new Error('no posted report card to open in the demo school');
  const clients = await signInStudents(portal.url, picked.map((card) => card.id));
  const urlOf = (card) => `/api/report-card/${card.id}/${card.year}/${card.term}`;
  const probe = await requireRoute(clients[0], 'GET', urlOf(picked[0]));
  if (probe.status !== 200) throw new Error(`GET ${urlOf(picked[0])} answered ${probe.status}: ${probe.text.slice(0, 200)}`);

  // One connection that opens each student's card in turn, as each of them.
  const portalLoad = {
    url: portal.url,
    path: urlOf(picked[0]),
    connections: 1,
    pid: portal.pid,
    clients: [(client) => client.setRequests(picked.map((card, i) => ({ method: 'GET', path: urlOf(card), headers: clients[i].headers() })))],
  };
  const baselineLoad = { url: baseline.url, path: '/baseline/pdf', connections: 1, pid: baseline.pid };

  await autocannonRun({ ...baselineLoad, duration: 2, title: 'baseline warm-up' });
  await autocannonRun({ ...portalLoad, duration: 2, title: 'portal warm-up' });
  const runs = await interleaved({
    baseline: () => autocannonRun({ ...baselineLoad, duration: DURATION_S, title: 'baseline' }),
    portal: () => autocannonRun({ ...portalLoad, duration: DURATION_S, title: 'portal' }),
  });
  const ms = median(runs.portal.map((r) => r.mean));
  const baselineMs = median(runs.baseline.map((r) => r.mean));
  return {
    ratio: ms / baselineMs,
    pass: ms / baselineMs <= MAX_RATIO,
    ms_per_pdf: ms,
    baseline_ms_per_pdf: baselineMs,
    cpu_ms: median(runs.portal.map((r) => r.cpuMsPerRequest)),
    baseline_cpu_ms: median(runs.baseline.map((r) => r.cpuMsPerRequest)),
    p99_ms: median(runs.portal.map((r) => r.p99)),
    runs: RUNS,
    duration_s: DURATION_S,
    connections: 1,
    tool: 'autocannon',
    build_warning: buildWarning,
  };
});
