// scale: how the admin area's school-wide work grows with the school (D63). The demo school
// seeded at 640, 2,000 and 10,000 students (32, 100 and 500 a class; seeded and cached before any
// clock starts), and for each path in PATHS a fresh portal of each size, one warm-up download,
// then three downloads each, interleaved (640, 2k, 10k, 640, …), medians: seconds to download it
// whole and the server process's peak RSS during the download (VmHWM from /proc/<pid>/status,
// reset before each download and polled every 50 ms; a fresh process per path, so one path's
// garbage is not the next one's peak). Tool: fetch, one request at a time.
// Budget: per path, time(10k) / time(2k) <= 5.5 (linear: 5 × the students, and a little);
// for the documents (rssBudget), flat memory: peak RSS at 10k <= 1.25 × peak RSS at 640 and
// <= 400 MB. ratio = the largest of time ratio / 5.5 and, for the documents, (RSS 10k / RSS 640) /
// 1.25 and MB / 400; <= 1 passes.
//
// To measure another path, add a line to PATHS: a name, the URL, what the answer starts with
// (and, for a report-day answer of JSON lines, what its last line starts with: a build that
// failed halfway ends with an error line), and whether the memory budget applies (documents
// built a class at a time do; lists need not). The report cards of a form are Form 5's for
// 2025 Term 1: the demo school gives every student of Forms 2-5 that term's results, so 400
// cards (4 classes) at 2,000 students and 2,000 at 10,000, a zip of class PDFs sent as JSON lines.

import {
  RUNS,
  appSnapshot,
  ensureBuilt,
  interleaved,
  log,
  median,
  processCpuMs,
  runBench,
  seededDatabase,
  signInAdmin,
  startPortal,
  timeDownload,
  withPeakRss,
} from './lib/harness.mjs';

const NAME = 'scale';
const MAX_TIME_RATIO = 5.5;
const MAX_RSS_MB = 400;
/** Peak RSS at 10,000 students against the same document's at 640. */
const MAX_RSS_GROWTH = 1.25;
/** The three schools: students in each of the 20 form classes. */
const TINY = 32;
const SMALL = 100;
const LARGE = 500;

/** The measured paths; `starts`/`ends`: the first bytes of a right answer and of its last line; `rssBudget`: the memory budget applies. */
const PATHS = [
  { name: 'students', url: '/api/students', starts: '[', rssBudget: false },
  { name: 'export', url: '/api/registration-data-spreadsheet', starts: 'PK', rssBudget: false },
  { name: 'registration-report', url: '/api/registration-report/all', starts: '%PDF-', rssBudget: true },
  { name: 'parents-contact', url: '/api/parents-contact/all', starts: '%PDF-', rssBudget: true },
  { name: 'form-cards', url: '/api/report-cards/form/5/2025/1', starts: '{"type":"start"', ends: '{"type":"end"', rssBudget: true },
];

/** One download: seconds, the process's peak RSS while it ran, its CPU, the size of the answer. */
async function download(portal, client, path) {
  const cpuBefore = processCpuMs(portal.pid);
  const { value, peakMb } = await withPeakRss(portal.pid, () => timeDownload(client, path.url));
  const head = value.bytes.subarray(0, path.starts.length).toString('latin1');
  if (head !== path.starts) throw new Error(`${path.url} did not answer what it should (starts ${JSON.stringify(head)})`);
  const last = path.ends === undefined ? '' : value.bytes.toString('utf8').trimEnd().split('\n').at(-1);
  if (path.ends !== undefined && !last.startsWith(path.ends)) throw new Error(`${path.url} did not finish (last line ${last.slice(0, 200)})`);
  return { seconds: value.seconds, peakMb, cpuMs: processCpuMs(portal.pid) - cpuBefore, bytes: value.bytes.length };
}

/** A fresh portal of a size, signed in and warmed up on the path (pdfmake, exceljs loaded). */
async function warmPortal(studentsPerClass, path) {
  const portal = await startPortal({ studentsPerClass });
  const admin = await signInAdmin(portal.url);
  await download(portal, admin, path);
  return { portal, admin };
}

await runBench(NAME, `time_ratio<=${MAX_TIME_RATIO},document_rss_growth<=${MAX_RSS_GROWTH},document_rss_mb<=${MAX_RSS_MB}`, async () => {
  const { buildWarning } = ensureBuilt();
  await appSnapshot();
  // Seeding (about a minute for 10,000 students) happens here, cached, before any clock starts.
  await seededDatabase(TINY);
  await seededDatabase(SMALL);
  await seededDatabase(LARGE);

  const figures = {};
  const ratios = [];
  for (const path of PATHS) {
    const tiny = await warmPortal(TINY, path);
    const small = await warmPortal(SMALL, path);
    const large = await warmPortal(LARGE, path);
    const runs = await interleaved({
      [`${path.name}@640`]: () => download(tiny.portal, tiny.admin, path),
      [`${path.name}@2k`]: () => download(small.portal, small.admin, path),
      [`${path.name}@10k`]: () => download(large.portal, large.admin, path),
    });
    await tiny.portal.stop();
    await small.portal.stop();
    await large.portal.stop();
    const of = (size, key) => median(runs[`${path.name}@${size}`].map((run) => run[key]));
    const timeRatio = of('10k', 'seconds') / of('2k', 'seconds');
    const rss10k = of('10k', 'peakMb');
    const rssGrowth = rss10k / of('640', 'peakMb');
    const ratio = Math.max(timeRatio / MAX_TIME_RATIO, path.rssBudget ? Math.max(rssGrowth / MAX_RSS_GROWTH, rss10k / MAX_RSS_MB) : 0);
    ratios.push(ratio);
    const line = {
      s_2k: of('2k', 'seconds'),
      s_10k: of('10k', 'seconds'),
      time_ratio: timeRatio,
      cpu_ratio: of('10k', 'cpuMs') / of('2k', 'cpuMs'),
      rss_mb_640: of('640', 'peakMb'),
      rss_mb_2k: of('2k', 'peakMb'),
      rss_mb_10k: rss10k,
      rss_growth: rssGrowth,
      kb_2k: of('2k', 'bytes') / 1024,
      kb_10k: of('10k', 'bytes') / 1024,
    };
    const shown = Object.entries(line)
      .map(([key, value]) => `${key}=${value >= 100 ? value.toFixed(0) : value.toFixed(2)}`)
      .join(' ');
    process.stdout.write(`PATH ${path.name} ${shown} ratio=${ratio.toFixed(2)}${path.rssBudget ? ' (time and memory)' : ' (time)'}\n`);
    log(`${path.name}: ${shown}`);
    for (const [key, value] of Object.entries(line)) figures[`${path.name}_${key}`] = value;
  }
  const ratio = Math.max(...ratios);
  return {
    ratio,
    pass: ratio <= 1,
    ...Object.fromEntries(Object.entries(figures).filter(([key]) => /_(time_ratio|rss_mb_10k|rss_growth)$/.test(key))),
    students: `${TINY * 20}/${SMALL * 20}/${LARGE * 20}`,
    runs: RUNS,
    tool: 'fetch',
    build_warning: buildWarning,
  };
});
