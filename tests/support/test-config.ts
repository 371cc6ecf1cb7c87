import { loadConfig, type Config } from '../../src/server/config.js';

/**
 * The configuration tests build the app with: quiet, embedded defaults, overridable. The staff
 * second factor is optional, so suites that sign staff in with a password alone keep doing so;
 * the second factor's own tests ask for `staff2fa: 'required'` (or leave it to the default).
 * Mail: no SMTP_URL (messages stay queued) unless a suite starts its own SMTP server
 * (smtp-inbox.ts) and passes `smtpUrl`; links in messages start with PUBLIC_URL below.
 * Passwords are hashed at argon2's smallest cost (PASSWORD_HASH_COST=test): the suites sign in
 * thousands of times, and the production cost is the config test's to prove.
 * The PDF and file threads run at the server's own priority (WORKER_NICE=0): niced threads beside
 * another busy program on the machine would wait for it, and the suite must pass on a busy machine.
 */
export const TEST_PUBLIC_URL = 'http://portal.school.test';
export const TEST_MAIL_FROM = 'St. Andrew’s Secondary School <office@school.test>';

export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/tmp/school-portal-tests', STAFF_2FA: 'optional', PUBLIC_URL: TEST_PUBLIC_URL, MAIL_FROM: TEST_MAIL_FROM, PASSWORD_HASH_COST: 'test', WORKER_NICE: '0' });
  return Object.freeze({ ...base, ...overrides });
}
