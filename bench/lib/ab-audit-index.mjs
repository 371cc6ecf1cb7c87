// What the audit log's (entity, entity_id) index costs a save: two portals started alike, the
// index dropped from the second one's database, 50 signed-in students saving flat out against
// each in turn (autocannon, interleaved, medians), with each server's CPU per save. Used for
// docs/performance.md (autosave); the index was dropped after it (migration 0002, D31).
// Usage: node bench/lib/ab-audit-index.mjs

import { createRequire } from 'node:module';
import {
  autocannonRun,
  ensureBuilt,
  interleaved,
  median,
  perConnection,
  runBench,
  signInStudents,
  signInableStudentIds,
  startPortal,
  ROOT,
} from './harness.mjs';

const SQLite = createRequire(`${ROOT}/package.json`)('better-sqlite3');
const STUDENTS = 50;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

await runBench('ab-audit-index', 'none', async () => {
  ensureBuilt();
  const withIndex = await startPortal();
  const withoutIndex = await startPortal();
  // Migration 0002 dropped the index; the first portal gets it back as it was.
  const database = new SQLite(withIndex.dbFile);
  database.exec('create index if not exists audit_entity_idx on audit_log (entity, entity_id)');
  database.close();

  const loadOf = async (portal) => {
    const ids = signInableStudentIds(portal.dbFile, STUDENTS);
    const clients = await signInStudents(portal.url, ids);
    return {
      url: portal.url,
      method: 'POST',
      path: '/api/student',
      connections: STUDENTS,
      pid: portal.pid,
      clients: perConnection(STUDENTS, (i) => {
        let flip = false;
        const bodyOf = () => JSON.stringify({ id: ids[i], home_address: `${i + 1} ${(flip = !flip) ? 'Bench' : 'Load'} Street, Arima` });
        return { headers: { 'content-type': 'application/json', ...clients[i].headers() }, body: bodyOf(), next: bodyOf };
      }),
    };
  };
  const a = await loadOf(withIndex);
  const b = await loadOf(withoutIndex);
  await autocannonRun({ ...a, duration: 2, title: 'warm-up with index' });
  await autocannonRun({ ...b, duration: 2, title: 'warm-up without index' });
  const runs = await interleaved(
    {
      withIndex: () => autocannonRun({ ...a, duration: 6, title: 'with index' }),
      withoutIndex: () => autocannonRun({ ...b, duration: 6, title: 'without index' }),
    },
    RUNS,
  );
  const rps = (key) => median(runs[key].map((r) => r.rps));
  const cpuUs = (key) => 1000 * median(runs[key].map((r) => r.cpuMsPerRequest));
  return {
    ratio: rps('withIndex') / rps('withoutIndex'),
    pass: true,
    rps_with_index: rps('withIndex'),
    rps_without_index: rps('withoutIndex'),
    cpu_us_with_index: cpuUs('withIndex'),
    cpu_us_without_index: cpuUs('withoutIndex'),
    runs: RUNS,
    tool: 'autocannon',
  };
});
