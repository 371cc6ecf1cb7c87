// What the audit log's indexes (migration 0003) cost a save: three portals started alike, one as
// migrated (both indexes), one without `audit_actor_idx`, one without either; 200 signed-in
// students saving flat out against each in turn (autocannon, interleaved, medians), with each
// server's CPU per save. No budget (it prints a RESULT line: ratio = both / none, req/s).
// Usage: node bench/lib/ab-audit-indexes.mjs   (BENCH_RUNS=5 by default)

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
const STUDENTS = 200;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 6);

/** Drops indexes from a portal's database file (the portal has it open: WAL lets a second connection write). */
function dropIndexes(dbFile, names) {
  const database = new SQLite(dbFile);
  for (const name of names) database.exec(`drop index if exists ${name}`);
  database.close();
}

await runBench('ab-audit-indexes', 'none', async () => {
  ensureBuilt();
  const variants = { both: await startPortal(), entityOnly: await startPortal(), none: await startPortal() };
  dropIndexes(variants.entityOnly.dbFile, ['audit_actor_idx']);
  dropIndexes(variants.none.dbFile, ['audit_actor_idx', 'audit_entity_idx']);

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
  const loads = {};
  for (const [name, portal] of Object.entries(variants)) loads[name] = await loadOf(portal);
  for (const [name, load] of Object.entries(loads)) await autocannonRun({ ...load, duration: 2, title: `warm-up ${name}` });
  const runs = await interleaved(
    Object.fromEntries(Object.entries(loads).map(([name, load]) => [name, () => autocannonRun({ ...load, duration: DURATION_S, title: name })])),
    RUNS,
  );
  const rps = (key) => median(runs[key].map((r) => r.rps));
  const cpuUs = (key) => 1000 * median(runs[key].map((r) => r.cpuMsPerRequest));
  return {
    ratio: rps('both') / rps('none'),
    pass: true,
    rps_both: rps('both'),
    rps_entity_only: rps('entityOnly'),
    rps_none: rps('none'),
    cpu_us_both: cpuUs('both'),
    cpu_us_entity_only: cpuUs('entityOnly'),
    cpu_us_none: cpuUs('none'),
    runs: RUNS,
    tool: 'autocannon',
  };
});
