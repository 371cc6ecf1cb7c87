// export: 'Registration Data.xlsx' (GET /api/registration-data-spreadsheet) for a
// school of 2,000 students: seconds to download it whole and the server's peak RSS while it is
// written (VmHWM, reset before each run). Baseline: a bare exceljs streaming writer in a bare
// Fastify route over a copy of the same database, the same rows and columns (Student ID, every
// field of the catalogue, the six progress flags, Last Updated) straight from one SELECT, in the
// same run. Tool: fetch, one request at a time, interleaved; medians.
// Budget: ratio (portal seconds / bare seconds) <= 1.5 and <= 200 MB.

import {
  RUNS,
  SCALED_STUDENTS_PER_CLASS,
  appSnapshot,
  Client,
  cpuProfileArgs,
  ensureBuilt,
  interleaved,
  median,
  processCpuMs,
  runBench,
  seededDatabase,
  signInAdmin,
  startBaseline,
  startPortal,
  timeDownload,
  withPeakRss,
} from './lib/harness.mjs';

const NAME = 'export';
const MAX_RATIO = 1.5;
const MAX_RSS_MB = 200;
const URL = '/api/registration-data-spreadsheet';

await runBench(NAME, `ratio<=${MAX_RATIO},rss_mb<=${MAX_RSS_MB}`, async () => {
  const { buildWarning } = ensureBuilt();
  await appSnapshot();
  const portal = await startPortal({ studentsPerClass: SCALED_STUDENTS_PER_CLASS, nodeArgs: cpuProfileArgs(NAME) });
  const baseline = await startBaseline({ templateFile: await seededDatabase(SCALED_STUDENTS_PER_CLASS) });
  const admin = await signInAdmin(portal.url);
  const bare = new Client(baseline.url);

  const download = async (pid, client, url) => {
    const cpuBefore = processCpuMs(pid);
    const { value, peakMb } = await withPeakRss(pid, () => timeDownload(client, url));
    if (value.bytes.subarray(0, 2).toString('latin1') !== 'PK') throw new Error(`${url} did not answer an XLSX (zip) file`);
    return { seconds: value.seconds, peakMb, cpuMs: processCpuMs(pid) - cpuBefore, bytes: value.bytes.length };
  };
  await download(baseline.pid, bare, '/baseline/export');
  await download(portal.pid, admin, URL);
  const runs = await interleaved({
    baseline: () => download(baseline.pid, bare, '/baseline/export'),
    portal: () => download(portal.pid, admin, URL),
  });
  const seconds = median(runs.portal.map((r) => r.seconds));
  const baselineSeconds = median(runs.baseline.map((r) => r.seconds));
  const rss = median(runs.portal.map((r) => r.peakMb));
  const ratio = seconds / baselineSeconds;
  return {
    ratio,
    pass: ratio <= MAX_RATIO && rss <= MAX_RSS_MB,
    seconds,
    baseline_seconds: baselineSeconds,
    rss_mb: rss,
    baseline_rss_mb: median(runs.baseline.map((r) => r.peakMb)),
    cpu_s: median(runs.portal.map((r) => r.cpuMs)) / 1000,
    baseline_cpu_s: median(runs.baseline.map((r) => r.cpuMs)) / 1000,
    xlsx_kb: median(runs.portal.map((r) => r.bytes)) / 1024,
    students: SCALED_STUDENTS_PER_CLASS * 20,
    runs: RUNS,
    tool: 'fetch',
    build_warning: buildWarning,
  };
});
