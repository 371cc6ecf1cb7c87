import { loadConfig, type Config } from '../../src/server/config.js';

/** The configuration tests build the app with: quiet, embedded defaults, overridable. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/tmp/school-portal-tests' });
  return Object.freeze({ ...base, ...overrides });
}
