import { loadConfig, type Config } from '../../src/server/config.js';

/**
 * The configuration tests build the app with: quiet, embedded defaults, overridable. The staff
 * second factor is optional, so suites that sign staff in with a password alone keep doing so;
 * the second factor's own tests ask for `staff2fa: 'required'` (or leave it to the default).
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/tmp/school-portal-tests', STAFF_2FA: 'optional' });
  return Object.freeze({ ...base, ...overrides });
}
