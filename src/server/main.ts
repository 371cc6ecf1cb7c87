import path from 'node:path';
import { buildApp } from './app.js';
import { prepareDatabase, type PreparedDatabase } from './boot.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createDatabase } from './db/database.js';
import { DEMO_ADMIN, DEMO_STUDENTS } from './db/demo-data/demo-accounts.js';

/**
 * A start with no administrator keeps serving (the address, the proxy and TLS can be checked
 * first) and says how to create one; a restart with the variables does it (D35).
 */
const NO_ADMINISTRATOR = [
  '  No administrator can sign in yet. Create the first one by starting once with',
  "    ADMIN_USERNAME=office ADMIN_PASSWORD='a long passphrase' npm start",
  '  (README, "A real school: the first administrator").',
];

function printBanner(config: Config, address: string, prepared: PreparedDatabase): void {
  const lines = [
    '',
    `  School Portal is listening on ${address}`,
    `  Database: ${config.databaseUrl ? 'PostgreSQL' : path.join(config.dataDir, 'portal.sqlite')}`,
  ];
  lines.push(
    config.smtpUrl
      ? `  Mail: through ${new URL(config.smtpUrl).host}, from ${config.mailFrom.address}; links to ${config.publicUrl}`
      : '  Mail: no SMTP_URL, so messages wait in the Outbox (admin area) and are not sent',
  );
  if (!prepared.hasAdministrator) lines.push(...NO_ADMINISTRATOR);
  if (prepared.demoSchool) {
    lines.push(
      '  Demo sign-ins (demo school):',
      `    Admin (${address}/admin):  ${DEMO_ADMIN.username} / ${DEMO_ADMIN.password}`,
      `    Student, registered:      ${DEMO_STUDENTS.registered.student_id} / ${DEMO_STUDENTS.registered.password}`,
      `    Student, in progress:     ${DEMO_STUDENTS.inProgress.student_id} / ${DEMO_STUDENTS.inProgress.password}`,
      `    First login:              SEA no. ${DEMO_STUDENTS.firstLogin.sea_no} + birth date ${DEMO_STUDENTS.firstLogin.date_of_birth.replaceAll('-', '')}`,
      `    Password reset:           ${DEMO_STUDENTS.passwordReset.student_id} / ${DEMO_STUDENTS.passwordReset.date_of_birth.replaceAll('-', '')}`,
    );
  }
  lines.push('');
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** How long a stop waits for the requests in flight before it closes every connection. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const db = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'portal.sqlite') });
  const app = await buildApp(config, { db }, { attendanceDigest: { start: true } });
  const prepared = await prepareDatabase(db, config, app.log);
  if (!prepared.hasAdministrator) app.log.warn('no administrator can sign in: start once with ADMIN_USERNAME and ADMIN_PASSWORD');
  const address = await app.listen({ port: config.port, host: config.host });
  printBanner(config, address.replace('0.0.0.0', 'localhost'), prepared);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const closed = app.close();
    // app.close() ends the idle keep-alive connections and waits for the rest. A connection a
    // browser opened ahead of time and never used counts among the rest, and would hold the stop
    // until its idle timeout (minutes); requests in flight get a grace period, then every
    // connection is closed.
    const grace = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    await closed;
    clearTimeout(grace);
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
