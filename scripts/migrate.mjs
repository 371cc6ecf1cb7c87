// npm run db:migrate: migrate the configured database to the newest schema; exits non-zero on failure.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, build, isBuildStale } from './build-lib.mjs';

if (isBuildStale()) build();
const load = (file) => import(pathToFileURL(path.join(ROOT, 'dist/server', file)).href);
const { loadConfig } = await load('config.js');
const { createDatabase } = await load('db/database.js');
const { migrateToLatest } = await load('db/migrate.js');
try {
  const config = loadConfig();
  const db = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'portal.sqlite') });
  await migrateToLatest(db);
  await db.destroy();
  process.stdout.write('Database is at the newest schema.\n');
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
