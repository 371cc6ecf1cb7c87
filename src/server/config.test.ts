import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { DEMO_ADMIN } from './db/demo-data/demo-accounts.js';

describe('configuration', () => {
  it('refuses the published demo password as a real administrator’s (D35)', () => {
    const env = { ADMIN_USERNAME: 'office', ADMIN_PASSWORD: DEMO_ADMIN.password } as NodeJS.ProcessEnv;
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/ADMIN_PASSWORD must not be the demo password/);
    expect(loadConfig({ ...env, ADMIN_PASSWORD: 'a long passphrase' }).admin).toEqual({ username: 'office', password: 'a long passphrase' });
  });
});

describe('STAFF_2FA', () => {
  it('takes required, optional or off, and leaves the role-and-school default when unset', () => {
    expect(loadConfig({}).staff2fa).toBeUndefined();
    for (const rule of ['required', 'optional', 'off'] as const) expect(loadConfig({ STAFF_2FA: rule }).staff2fa).toBe(rule);
  });

  it('stops the start with the allowed values named for anything else', () => {
    expect(() => loadConfig({ STAFF_2FA: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ STAFF_2FA: 'Required' })).toThrow(/STAFF_2FA must be required, optional or off/);
  });
});
