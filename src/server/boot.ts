import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { seedReferenceData } from './db/reference-data.js';
import { hasStudents, seedDemoSchool } from './db/demo-data/seed-demo-school.js';
import { ensureConfiguredAdmin } from './auth/auth.service.js';
import { hashPassword } from './auth/password.js';

export interface PreparedDatabase {
  seededDemo: boolean;
}

/** Whether the demo school goes in: DEMO_DATA when set, else only into an empty embedded database. */
function wantsDemo(config: Config): boolean {
  return config.demoData ?? !config.databaseUrl;
}

/**
 * Start-up steps in order (DESIGN §1): migrate, reference lookups, the demo school into an empty
 * database when wanted, and the configured administrator (how a real school gets its first admin).
 */
export async function prepareDatabase(db: Db, config: Config, log: Pick<FastifyBaseLogger, 'info'>): Promise<PreparedDatabase> {
  await migrateToLatest(db);
  await seedReferenceData(db);
  let seededDemo = false;
  if (wantsDemo(config) && !(await hasStudents(db))) {
    const started = Date.now();
    const summary = await seedDemoSchool(db, { hashPassword });
    log.info({ ...summary, ms: Date.now() - started }, 'demo school seeded');
    seededDemo = true;
  }
  if (config.admin) await ensureConfiguredAdmin(db, config.admin.username, config.admin.password);
  return { seededDemo };
}
