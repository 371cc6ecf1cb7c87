// class-report: the registration report for all classes (GET
// /api/registration-report/all, one PDF of every form class) on a school of 2,000 students:
// seconds to download it whole and the server's peak RSS while it is made (VmHWM from
// /proc/<pid>/status, reset before each run). Tool: fetch, one request at a time; medians of the
// runs. No baseline in the issue. Budget: <= 3 s and <= 300 MB; ratio = the larger of
// seconds/3 and MB/300 (<= 1 passes).

import {
  RUNS,
  SCALED_STUDENTS_PER_CLASS,
  appSnapshot,
  cpuProfileArgs,
  ensureBuilt,
  interleaved,
  median,
  processCpuMs,
  runBench,
  signInAdmin,
  startPortal,
  timeDownload,
  withPeakRss,
} from './lib/harness.mjs';

const NAME = 'class-report';
const MAX_SECONDS = 3;
const MAX_RSS_MB = 300;
const URL = '/api/registration-report/all';

await runBench(NAME, `seconds<=${MAX_SECONDS},rss_mb<=${MAX_RSS_MB}`, async () => {
  const { buildWarning } = ensureBuilt();
  await appSnapshot();
  const portal = await startPortal({ studentsPerClass: SCALED_STUDENTS_PER_CLASS, nodeArgs: cpuProfileArgs(NAME) });
  const admin = await signInAdmin(portal.url);
  const warm = await timeDownload(admin, URL);
  const startRssCheck = warm.bytes.subarray(0, 5).toString('latin1');
  if (startRssCheck !== '%PDF-') throw new Error(`${URL} did not answer a PDF`);

  const runs = await interleaved({
    report: async () => {
      const cpuBefore = processCpuMs(portal.pid);
      const { value, peakMb } = await withPeakRss(portal.pid, () => timeDownload(admin, URL));
      return { seconds: value.seconds, peakMb, cpuMs: processCpuMs(portal.pid) - cpuBefore, bytes: value.bytes.length };
    },
  });
  const seconds = median(runs.report.map((r) => r.seconds));
  const rss = median(runs.report.map((r) => r.peakMb));
  return {
    ratio: Math.max(seconds / MAX_SECONDS, rss / MAX_RSS_MB),
    pass: seconds <= MAX_SECONDS && rss <= MAX_RSS_MB,
    seconds,
    rss_mb: rss,
    cpu_s: median(runs.report.map((r) => r.cpuMs)) / 1000,
    pdf_kb: median(runs.report.map((r) => r.bytes)) / 1024,
    students: SCALED_STUDENTS_PER_CLASS * 20,
    runs: RUNS,
    tool: 'fetch',
    build_warning: buildWarning,
  };
});
