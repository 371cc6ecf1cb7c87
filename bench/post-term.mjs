// post-term: posting a whole school's term (POST /api/post-term-reports with posted 1,
// as the Post Term Reports dialog's Yes sends it) on a school of 2,000 students; each run is
// measured after the term was removed again (posted 0), so every run really posts.
// Tool: fetch, one request at a time; medians. No baseline in the issue.
// Budget: <= 1 s; ratio = seconds / 1 (<= 1 passes).

import {
  RUNS,
  SCALED_STUDENTS_PER_CLASS,
  appSnapshot,
  cpuProfileArgs,
  ensureBuilt,
  interleaved,
  median,
  processCpuMs,
  queryDatabase,
  runBench,
  signInAdmin,
  startPortal,
} from './lib/harness.mjs';

const NAME = 'post-term';
const MAX_SECONDS = 1;

/** 'yyyy-MM-dd HH:mm:ss', the Swedish-locale local time the original client sends (docs/requirements.md R15). */
const datePosted = () => new Date().toLocaleString('sv-SE').slice(0, 19);

await runBench(NAME, `seconds<=${MAX_SECONDS}`, async () => {
  const { buildWarning } = ensureBuilt();
  await appSnapshot();
  const portal = await startPortal({ studentsPerClass: SCALED_STUDENTS_PER_CLASS, nodeArgs: cpuProfileArgs(NAME) });
  const admin = await signInAdmin(portal.url);
  const [term] = queryDatabase(
    portal.dbFile,
    `SELECT year, term, COUNT(DISTINCT student_id) AS students FROM term_results GROUP BY year, term ORDER BY students DESC, year DESC, term DESC LIMIT 1`,
  );
  if (!term) throw new Error('the demo school has no term results to post');

  const post = async (posted) => {
    const cpuBefore = processCpuMs(portal.pid);
    const started = performance.now();
    const answer = await admin.json('POST', '/api/post-term-reports', {
      year: term.year,
      term: term.term,
      posted,
      date_posted: posted ? datePosted() : null,
    });
    const seconds = (performance.now() - started) / 1000;
    if (answer?.posted !== posted) throw new Error(`posting answered ${JSON.stringify(answer).slice(0, 200)}`);
    return { seconds, cpuMs: processCpuMs(portal.pid) - cpuBefore };
  };
  await post(0);
  await post(1);
  const runs = await interleaved({
    remove: () => post(0),
    post: () => post(1),
  });
  const seconds = median(runs.post.map((r) => r.seconds));
  return {
    ratio: seconds / MAX_SECONDS,
    pass: seconds <= MAX_SECONDS,
    seconds,
    remove_seconds: median(runs.remove.map((r) => r.seconds)),
    cpu_s: median(runs.post.map((r) => r.cpuMs)) / 1000,
    students: term.students,
    term: `${term.year}-${term.term}`,
    runs: RUNS,
    tool: 'fetch',
    build_warning: buildWarning,
  };
});
