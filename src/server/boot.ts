import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { seedReferenceData } from './db/reference-data.js';
import { hasStudents, seedDemoSchool } from './db/demo-data/seed-demo-school.js';
import { endDemoSchool, isDemoSchool } from './db/demo-data/demo-mark.js';
import { ensureConfiguredAdmin, hasUsableAdministrator } from './auth/auth.service.js';
import { configurePasswordHashing, hashPassword } from './auth/password.js';

export interface PreparedDatabase {
  /** The demo school went in during this start. */
  seededDemo: boolean;
  /** The database holds the demo school: its published sign-ins work (README "Demo sign-ins"). */
  demoSchool: boolean;
  /** Some administrator can sign in; when not, main.ts prints how to create one. */
  hasAdministrator: boolean;
}

/**
 * Whether an empty database gets the demo school (docs/decisions.md D35): only when nothing says
 * this is a real school. DEMO_DATA decides when set; unset, the school's own administrator
 * (ADMIN_USERNAME) or PostgreSQL means a real school, and a bare embedded start is a try-out.
 */
function wantsDemo(config: Config): boolean {
  return config.demoData ?? (!config.admin && !config.databaseUrl);
}

/** The school's own administrator, without DEMO_DATA=true, makes a demo database a real school's. */
function endsDemo(config: Config): boolean {
  return config.admin !== undefined && config.demoData !== true;
}

/**
 * Start-up steps in order (README "Two commands", D35): migrate, reference lookups, the demo school into an empty
 * database when wanted, and the configured administrator (how a real school gets its first admin).
 */
export async function prepareDatabase(db: Db, config: Config, log: Pick<FastifyBaseLogger, 'info'>): Promise<PreparedDatabase> {
  // The demo accounts and the configured administrator are hashed with the configured cost, also
  // when no app is built in this process (the test suites' template database).
  configurePasswordHashing(config);
  await migrateToLatest(db);
  await seedReferenceData(db);
  let seededDemo = false;
  if (wantsDemo(config) && !(await hasStudents(db))) {
    const started = Date.now();
    const summary = await seedDemoSchool(db, { hashPassword });
    log.info({ ...summary, ms: Date.now() - started }, 'demo school seeded');
    seededDemo = true;
  }
  if (endsDemo(config) && (await endDemoSchool(db))) {
    log.info('the demo school is a real school from now on: its published administrator sign-in is refused');
  }
  if (config.admin) await ensureConfiguredAdmin(db, config.admin.username, config.admin.password);
  const demoSchool = await isDemoSchool(db);
  return { seededDemo, demoSchool, hasAdministrator: await hasUsableAdministrator(db, demoSchool) };
}
