// npm run backup [-- --out <file>]: a consistent copy of the embedded SQLite database while the
// portal keeps running (SQLite's online backup API: a snapshot of one moment, even with writers
// in WAL mode), checked with PRAGMA integrity_check before it is reported. Exits non-zero on any
// failure. PostgreSQL is backed up with pg_dump: see docs/operations.md.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

function fail(message) {
  process.stderr.write(`backup: ${message}\n`);
  process.exit(1);
}

if (process.env.DATABASE_URL) {
  fail('DATABASE_URL is set: this portal runs on PostgreSQL. Back it up with pg_dump (docs/operations.md, "Backups").');
}

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
if (outIndex !== -1 && !args[outIndex + 1]) fail('--out needs a file name.');

const dataDir = path.resolve(process.env.DATA_DIR || './data');
const source = path.join(dataDir, 'portal.sqlite');
if (!fs.existsSync(source)) fail(`no database at ${source} (set DATA_DIR to the portal's data folder).`);

const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
const target = path.resolve(outIndex !== -1 ? args[outIndex + 1] : path.join(dataDir, 'backups', `portal-${stamp}.sqlite`));
if (target === source) fail('the backup cannot overwrite the database itself.');
if (fs.existsSync(target)) fail(`${target} exists already; choose another name.`);
fs.mkdirSync(path.dirname(target), { recursive: true });

const started = Date.now();
const db = new Database(source, { fileMustExist: true });
try {
  // A reader never blocks the portal's writers in WAL mode; busy_timeout covers a checkpoint.
  db.pragma('busy_timeout = 5000');
  await db.backup(target);
} catch (error) {
  fs.rmSync(target, { force: true });
  fail(error instanceof Error ? error.message : String(error));
} finally {
  db.close();
}

const copy = new Database(target, { readonly: true, fileMustExist: true });
try {
  const integrity = copy.pragma('integrity_check', { simple: true });
  if (integrity !== 'ok') fail(`the copy failed its integrity check: ${integrity}`);
  const students = copy.prepare('select count(*) as n from students').get().n;
  const bytes = fs.statSync(target).size;
  process.stdout.write(
    `Backup written: ${target}\n  ${students} students, ${(bytes / 1024 / 1024).toFixed(1)} MiB, ${Date.now() - started} ms, integrity ok\n`,
  );
} finally {
  copy.close();
}
