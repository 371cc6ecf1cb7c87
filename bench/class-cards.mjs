// class-cards: report day (D59). In the same run: one report card's download
// (GET /api/report-card/{id}/{year}/{term}, the administrator opening a 5A student's card), a class
// of 40 cards as one PDF (GET /api/report-cards/class/5A/2025/1, read to its end line), and a form
// of 200 cards (5 classes × 40) as a zip of class PDFs (GET /api/report-cards/form/5/2025/1) while
// the server's peak RSS is read from /proc/<pid>/status (VmHWM, reset first, and sampled).
// The school is the demo seeded with 40 students a class; Form 5 gets a fifth class (5E) by moving
// 4A's 40 students (who have 2025 results) into it, in this script's own copy.
// Times: medians of the interleaved runs (one card: the median of CARD_DOWNLOADS downloads).
// Budget: ratio = class ms / (25 × one card ms) <= 1, and the form's peak RSS <= 300 MB.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  RUNS,
  appSnapshot,
  changeDatabase,
  cpuProfileArgs,
  ensureBuilt,
  interleaved,
  log,
  median,
  onCleanup,
  queryDatabase,
  requireRoute,
  runBench,
  seededDatabase,
  signInAdmin,
  startPortal,
  timeDownload,
  withPeakRss,
} from './lib/harness.mjs';

const NAME = 'class-cards';
const PER_CLASS = 40;
const CARD_DOWNLOADS = 10;
const MAX_RATIO = 1;
const MAX_PEAK_MB = 300;
const CLASS_URL = '/api/report-cards/class/5A/2025/1';
const FORM_URL = '/api/report-cards/form/5/2025/1';

/** Reads a report-day answer (JSON lines) to its end line; answers the cards and the file's size. */
function checkBuild(bytes, expectedCards) {
  const lines = bytes.toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  const start = lines[0];
  const end = lines.at(-1);
  if (start?.type !== 'start' || end?.type !== 'end') throw new Error(`the build did not finish: ${JSON.stringify(lines.find((l) => l.type === 'error') ?? end)}`);
  if (start.total !== expectedCards) throw new Error(`the build made ${start.total} cards, ${expectedCards} expected`);
  return { cards: start.total, fileBytes: end.bytes };
}

await runBench(NAME, `ratio<=${MAX_RATIO},peak_rss_mb<=${MAX_PEAK_MB}`, async () => {
  const { buildWarning } = ensureBuilt();
  await appSnapshot();
  // The demo school at 40 a class, then Form 5's fifth class, in a copy of this script's own.
  const seeded = await seededDatabase(PER_CLASS);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-cards-'));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  const template = path.join(dir, 'school.sqlite');
  fs.copyFileSync(seeded, template);
  const now = new Date().toISOString();
  changeDatabase(template, [
    ["INSERT INTO form_classes (id, form_level, form_teacher, created_at, updated_at) VALUES ('5E', 5, NULL, ?, ?)", [now, now]],
    ["UPDATE students SET class_id = '5E' WHERE class_id = '4A'"],
  ]);
  for (const extra of ['-wal', '-shm']) fs.rmSync(template + extra, { force: true });

  const portal = await startPortal({ templateFile: template, nodeArgs: cpuProfileArgs(NAME) });
  const cardsOf = (classId) =>
    queryDatabase(
      portal.dbFile,
      `SELECT s.id FROM students s WHERE s.class_id = ? AND EXISTS (SELECT 1 FROM term_results r WHERE r.student_id = s.id AND r.year = 2025 AND r.term = 1) ORDER BY s.id`,
      [classId],
    ).map((row) => row.id);
  const classCards = cardsOf('5A');
  const formCards = ['5A', '5B', '5C', '5D', '5E'].reduce((sum, classId) => sum + cardsOf(classId).length, 0);
  if (classCards.length !== PER_CLASS) throw new Error(`5A has ${classCards.length} students with results, ${PER_CLASS} expected`);
  log(`5A: ${classCards.length} cards; Form 5: ${formCards} cards`);

  const admin = await signInAdmin(portal.url);
  const cardUrl = (i) => `/api/report-card/${classCards[i % classCards.length]}/2025/1`;
  const probe = await requireRoute(admin, 'GET', CLASS_URL);
  if (probe.status !== 200) throw new Error(`GET ${CLASS_URL} answered ${probe.status}: ${probe.text.slice(0, 200)}`);

  const oneCard = async () => {
    const times = [];
    for (let i = 0; i < CARD_DOWNLOADS; i++) times.push((await timeDownload(admin, cardUrl(i))).seconds * 1000);
    return median(times);
  };
  const wholeClass = async () => {
    const { seconds, bytes } = await timeDownload(admin, CLASS_URL);
    checkBuild(bytes, classCards.length);
    return seconds * 1000;
  };
  // Warm-up: the pool's thread, pdfmake and its fonts, the statements.
  await oneCard();
  await wholeClass();
  const runs = await interleaved({ card: oneCard, class: wholeClass });
  const cardMs = median(runs.card);
  const classMs = median(runs.class);
  const ratio = classMs / (25 * cardMs);

  const form = await withPeakRss(portal.pid, async () => {
    const { seconds, bytes } = await timeDownload(admin, FORM_URL);
    return { seconds, ...checkBuild(bytes, formCards) };
  });
  const peakMb = form.peakMb;
  return {
    ratio,
    pass: ratio <= MAX_RATIO && peakMb <= MAX_PEAK_MB,
    card_ms: cardMs,
    class_ms: classMs,
    class_cards: classCards.length,
    ms_per_class_card: classMs / classCards.length,
    form_cards: form.value.cards,
    form_s: form.value.seconds,
    form_zip_mb: form.value.fileBytes / 1024 / 1024,
    form_peak_rss_mb: peakMb,
    rss_reset: form.reset,
    runs: RUNS,
    build_warning: buildWarning,
  };
});
