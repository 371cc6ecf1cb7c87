// Which b-trees a save's commit writes to SQLite's WAL, counted page by page: the portal's own
// save (registration.service saveStudentFields, grouped as the server groups them) on a copy of
// the bench's seeded school, 50 students each changing their home address, in groups of GROUP
// saves a commit. Warmed first so each student has a season's audit rows. Then the same on a copy
// without the audit log's (entity, entity_id) index. Used for docs/performance.md (autosave); the
// index was dropped after it (migration 0002, docs/decisions.md D31).
// Usage: node bench/lib/wal-frames.mjs   (GROUP=20 WARM_GROUPS=2000 MEASURED_GROUPS=50)

import fs from 'node:fs';
import { createRequire } from 'node:module';
import { sql } from 'kysely';
import { dataDirWith, ensureBuilt, importDist, runBench, seededDatabase, signInableStudentIds, ROOT } from './harness.mjs';

const SQLite = createRequire(`${ROOT}/package.json`)('better-sqlite3');
const STUDENTS = 50;
const GROUP = Number(process.env.GROUP ?? 20);
const WARM_GROUPS = Number(process.env.WARM_GROUPS ?? 2000);
const MEASURED_GROUPS = Number(process.env.MEASURED_GROUPS ?? 50);

/** Page numbers of the frames in a WAL file just truncated by a checkpoint (every frame is this run's). */
function walPages(walFile) {
  const wal = fs.readFileSync(walFile);
  const pageSize = wal.readUInt32BE(8);
  const pages = [];
  for (let offset = 32; offset + 24 + pageSize <= wal.length; offset += 24 + pageSize) pages.push(wal.readUInt32BE(offset));
  return pages;
}

async function framesPerSave(template, { dropAuditIndex }) {
  const { createDatabase } = await importDist('server/db/database.js');
  const { saveStudentFields } = await importDist('server/registration/registration.service.js');
  const { dbFile } = dataDirWith(template);
  const ids = signInableStudentIds(dbFile, STUDENTS);
  const db = createDatabase({ sqliteFile: dbFile });
  try {
    await sql`pragma wal_autocheckpoint = 0`.execute(db);
    // Migration 0002 dropped the index; the first run puts it back as it was.
    if (!dropAuditIndex) await sql`create index if not exists audit_entity_idx on audit_log (entity, entity_id)`.execute(db);
    let n = 0;
    const group = () =>
      Promise.all(
        Array.from({ length: GROUP }, () => {
          const id = ids[n % ids.length];
          n += 1;
          const caller = { actor_user_id: null, actor_label: `student:${id}`, ip: '127.0.0.1', request_id: String(n), role: 'student', studentId: id };
          return saveStudentFields(db, caller, { id, home_address: `${n} Bench Street, Arima` });
        }),
      );
    for (let g = 0; g < WARM_GROUPS; g += 1) await group();
    await sql`pragma wal_checkpoint(truncate)`.execute(db);
    for (let g = 0; g < MEASURED_GROUPS; g += 1) await group();
    const pages = walPages(`${dbFile}-wal`);
    const reader = new SQLite(dbFile, { readonly: true });
    const owner = new Map(reader.prepare('select pageno, name from dbstat').raw().all());
    reader.close();
    const byTree = {};
    for (const page of pages) {
      const name = owner.get(page) ?? '(new page)';
      byTree[name] = (byTree[name] ?? 0) + 1;
    }
    const saves = MEASURED_GROUPS * GROUP;
    return { perSave: pages.length / saves, byTree: Object.fromEntries(Object.entries(byTree).map(([name, count]) => [name, +(count / saves).toFixed(3)])) };
  } finally {
    await db.destroy();
  }
}

await runBench('wal-frames', 'none', async () => {
  ensureBuilt();
  const template = await seededDatabase();
  const withIndex = await framesPerSave(template, { dropAuditIndex: false });
  const withoutIndex = await framesPerSave(template, { dropAuditIndex: true });
  console.log(`frames a save, by b-tree, with the audit index: ${JSON.stringify(withIndex.byTree)}`);
  console.log(`frames a save, by b-tree, without it: ${JSON.stringify(withoutIndex.byTree)}`);
  return {
    ratio: withoutIndex.perSave / withIndex.perSave,
    pass: true,
    frames_per_save: +withIndex.perSave.toFixed(2),
    frames_per_save_without_index: +withoutIndex.perSave.toFixed(2),
    group: GROUP,
    tool: 'wal-file',
  };
});
