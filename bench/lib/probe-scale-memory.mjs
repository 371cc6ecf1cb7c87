// A probe outside the suite (no budget): where a school-wide document's memory goes as the school
// grows. For each size asked (students a class), a fresh portal, one warm-up download, then RUNS
// downloads of the path; for each, the seconds, the peak RSS (VmHWM, reset before it) and the RSS
// over time (VmRSS every 50 ms, shown as the highest of each tenth of the download), so a peak
// in the last tenth (the join and the answer) reads apart from one during the parts.
//   node bench/lib/probe-scale-memory.mjs registration-report 32,500
//   node bench/lib/probe-scale-memory.mjs parents-contact 500
// Paths: registration-report, parents-contact, form-cards (bench/scale.mjs's). Run it under the
// heavy lock like any bench (docs/performance.md).
import fs from 'node:fs';
import { RUNS, appSnapshot, ensureBuilt, resetPeakRss, peakRssMb, runBench, seededDatabase, signInAdmin, startPortal, timeDownload } from './harness.mjs';

const URLS = {
  'registration-report': '/api/registration-report/all',
  'parents-contact': '/api/parents-contact/all',
  'form-cards': '/api/report-cards/form/5/2025/1',
};
const [name = 'registration-report', sizes = '32,500'] = process.argv.slice(2);
const url = URLS[name];
if (!url) throw new Error(`Unknown path ${name}; known: ${Object.keys(URLS).join(' ')}`);

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024;

/**
 * With PROBE_TRACE_GC=1 the portal runs with --trace-gc: per isolate (the main thread, each pool
 * thread), the largest heap (used, committed) V8 reported during the download.
 */
const TRACE_GC = process.env.PROBE_TRACE_GC === '1';
function heapsOf(lines) {
  const heaps = new Map();
  for (const match of lines.matchAll(/\[\d+:(0x[0-9a-f]+)\]\s+[\d.]+ ms: [\w-]+(?: \(reduce\))? ([\d.]+) \(([\d.]+)\) ->/g)) {
    const [, isolate, used, committed] = match;
    const seen = heaps.get(isolate) ?? { used: 0, committed: 0 };
    heaps.set(isolate, { used: Math.max(seen.used, Number(used)), committed: Math.max(seen.committed, Number(committed)) });
  }
  return [...heaps.values()].map((h) => `${h.used.toFixed(0)}(${h.committed.toFixed(0)})`).join(' ');
}

/** One download with its RSS every 50 ms. */
async function download(portal, client) {
  const outputAt = portal.output().length;
  const before = rssMb(portal.pid);
  resetPeakRss(portal.pid);
  const samples = [];
  const timer = setInterval(() => samples.push(rssMb(portal.pid)), 50);
  try {
    const { seconds, bytes } = await timeDownload(client, url);
    samples.push(rssMb(portal.pid));
    const tenths = Array.from({ length: 10 }, (_, i) => Math.max(...samples.slice(Math.floor((i * samples.length) / 10), Math.max(Math.floor(((i + 1) * samples.length) / 10), Math.floor((i * samples.length) / 10) + 1))));
    return { seconds, peak: peakRssMb(portal.pid), before, after: rssMb(portal.pid), kb: bytes.length / 1024, tenths, heaps: TRACE_GC ? heapsOf(portal.output().slice(outputAt)) : '' };
  } finally {
    clearInterval(timer);
  }
}

await runBench('probe-scale-memory', 'none', async () => {
  ensureBuilt();
  await appSnapshot();
  for (const size of sizes.split(',').map(Number)) {
    await seededDatabase(size);
    const portal = await startPortal({ studentsPerClass: size, nodeArgs: TRACE_GC ? ['--trace-gc'] : [] });
    const client = await signInAdmin(portal.url);
    const warm = await download(portal, client);
    process.stdout.write(`${name} ${size * 20} warm-up: ${warm.seconds.toFixed(1)} s, peak ${warm.peak.toFixed(0)} MB\n`);
    for (let run = 0; run < RUNS; run++) {
      const d = await download(portal, client);
      process.stdout.write(
        `${name} ${size * 20} run ${run + 1}: ${d.seconds.toFixed(1)} s, ${d.kb.toFixed(0)} kB, rss before ${d.before.toFixed(0)} peak ${d.peak.toFixed(0)} after ${d.after.toFixed(0)} MB; by tenths ${d.tenths.map((mb) => mb.toFixed(0)).join(' ')}${d.heaps ? `; heaps MB ${d.heaps}` : ''}\n`,
      );
    }
    await portal.stop();
  }
  return { ratio: 0, pass: true };
});
