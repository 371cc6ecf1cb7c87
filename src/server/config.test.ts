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

describe('WORKER_NICE', () => {
  it('lowers the threads by 10 nice levels unless told otherwise, and refuses what is not a nice level', () => {
    expect(loadConfig({}).workerNice).toBe(10);
    expect(loadConfig({ WORKER_NICE: '0' }).workerNice).toBe(0);
    expect(() => loadConfig({ WORKER_NICE: '20' })).toThrow(/WORKER_NICE must be a whole number from 0 to 19/);
    expect(() => loadConfig({ WORKER_NICE: 'low' })).toThrow(/WORKER_NICE must be a whole number from 0 to 19/);
    expect(() => loadConfig({ WORKER_NICE: '2.5' })).toThrow(/WORKER_NICE must be a whole number from 0 to 19/);
  });
});

describe('PASSWORD_HASH_COST', () => {
  it('is OWASP’s when unset, takes test, and refuses anything else and test in production', () => {
    expect(loadConfig({}).passwordHashCost).toBe('owasp');
    expect(loadConfig({ PASSWORD_HASH_COST: 'test' }).passwordHashCost).toBe('test');
    expect(() => loadConfig({ PASSWORD_HASH_COST: '1024' })).toThrow(/PASSWORD_HASH_COST must be owasp or test/);
    expect(() => loadConfig({ PASSWORD_HASH_COST: 'test', NODE_ENV: 'production' })).toThrow(/PASSWORD_HASH_COST must not be test when NODE_ENV=production/);
    expect(loadConfig({ NODE_ENV: 'production' }).passwordHashCost).toBe('owasp');
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

describe('mail: SMTP_URL, MAIL_FROM, PUBLIC_URL', () => {
  it('leaves mail off by default: no SMTP_URL, the school as the sender for the record, links to this port', () => {
    const config = loadConfig({ PORT: '8080' });
    expect(config.smtpUrl).toBeUndefined();
    expect(config.mailFrom).toEqual({ name: 'St. Andrew’s Secondary School', address: 'no-reply@localhost' });
    expect(config.publicUrl).toBe('http://localhost:8080');
  });

  it('takes smtp:// and smtps:// with credentials, a sender with or without a name, and a public address without its trailing slash', () => {
    const config = loadConfig({
      SMTP_URL: 'smtps://office%40school.tt:p%40ss@mail.school.tt:465',
      MAIL_FROM: 'office@school.tt',
      PUBLIC_URL: 'https://portal.school.tt/',
      SCHOOL_NAME: 'Hillview College',
    });
    expect(config.smtpUrl).toBe('smtps://office%40school.tt:p%40ss@mail.school.tt:465');
    expect(config.mailFrom).toEqual({ name: 'Hillview College', address: 'office@school.tt' });
    expect(config.publicUrl).toBe('https://portal.school.tt');
    expect(loadConfig({ SMTP_URL: 'smtp://mail.school.tt:587', MAIL_FROM: '"Office, St. A" <office@school.tt>' }).mailFrom).toEqual({ name: 'Office, St. A', address: 'office@school.tt' });
  });

  it('stops the start with a one-line reason that never repeats the password', () => {
    const reasonOf = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
        return 'accepted';
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
    };
    expect(reasonOf({ SMTP_URL: 'http://user:hunter2@mail.school.tt', MAIL_FROM: 'office@school.tt' })).toMatch(/^Invalid configuration: SMTP_URL must start with smtp:\/\/ or smtps:\/\//);
    expect(reasonOf({ SMTP_URL: 'not a url hunter2', MAIL_FROM: 'office@school.tt' })).toMatch(/SMTP_URL is not a URL/);
    expect(reasonOf({ SMTP_URL: 'smtp://:hunter2@mail.school.tt', MAIL_FROM: 'office@school.tt' })).toMatch(/SMTP_URL has a password but no user name/);
    expect(reasonOf({ SMTP_URL: 'smtp://user:hunter2@mail.school.tt' })).toMatch(/MAIL_FROM must be set with SMTP_URL/);
    for (const env of [{ SMTP_URL: 'http://user:hunter2@x' }, { SMTP_URL: 'smtp://:hunter2@x' }, { SMTP_URL: 'hunter2' }]) expect(reasonOf(env)).not.toContain('hunter2');
    expect(reasonOf({ MAIL_FROM: 'office@school.tt, head@school.tt' })).toMatch(/MAIL_FROM must be one e-mail address/);
    expect(reasonOf({ MAIL_FROM: 'the office' })).toMatch(/MAIL_FROM must be one e-mail address/);
    expect(reasonOf({ PUBLIC_URL: 'portal.school.tt' })).toMatch(/PUBLIC_URL is not a URL/);
    expect(reasonOf({ PUBLIC_URL: 'javascript:alert(1)' })).toMatch(/PUBLIC_URL must be an http:\/\/ or https:\/\/ address/);
    expect(reasonOf({ PUBLIC_URL: 'https://portal.school.tt/?x=1' })).toMatch(/PUBLIC_URL must be an http:\/\/ or https:\/\/ address/);
    for (const reason of [reasonOf({ SMTP_URL: 'x' }), reasonOf({ PUBLIC_URL: 'x' })]) expect(reason).not.toContain('\n');
  });
});

describe('staff sign-in through the school provider: OIDC_*, STAFF_PASSWORD_SIGNIN, BREAK_GLASS_ADMIN (D96)', () => {
  const oidc = { OIDC_ISSUER: 'https://login.microsoftonline.com/tenant/v2.0', OIDC_CLIENT_ID: 'client', OIDC_CLIENT_SECRET: 'secret' };

  it('changes nothing when unset: no provider, staff passwords on', () => {
    const config = loadConfig({});
    expect(config.oidcProviders).toEqual([]);
    expect(config.staffPasswordSignIn).toBe(true);
    expect(config.breakGlassAdmin).toBeUndefined();
  });

  it('takes one provider with its button and MFA trust, and passwords off with a break-glass administrator', () => {
    const config = loadConfig({ ...oidc, OIDC_BUTTON_LABEL: 'Sign in with Microsoft 365', OIDC_TRUSTS_MFA: 'true', STAFF_PASSWORD_SIGNIN: 'off', BREAK_GLASS_ADMIN: 'rescue' });
    expect(config.oidcProviders).toEqual([
      { id: 'school', issuer: oidc.OIDC_ISSUER, clientId: 'client', clientSecret: 'secret', buttonLabel: 'Sign in with Microsoft 365', trustsMfa: true },
    ]);
    expect(config.staffPasswordSignIn).toBe(false);
    expect(config.breakGlassAdmin).toBe('rescue');
    expect(loadConfig(oidc).oidcProviders[0]).toMatchObject({ buttonLabel: 'Sign in with your school account', trustsMfa: false });
  });

  it('stops the start for a part of the provider, a plain-http issuer elsewhere than this machine, or passwords off without a way in', () => {
    expect(() => loadConfig({ OIDC_ISSUER: oidc.OIDC_ISSUER })).toThrow(/must be set together/);
    expect(() => loadConfig({ ...oidc, OIDC_ISSUER: 'http://idp.school.tt' })).toThrow(/OIDC_ISSUER must be an https:\/\/ address/);
    expect(loadConfig({ ...oidc, OIDC_ISSUER: 'http://127.0.0.1:4000' }).oidcProviders).toHaveLength(1);
    expect(() => loadConfig({ STAFF_PASSWORD_SIGNIN: 'off', BREAK_GLASS_ADMIN: 'rescue' })).toThrow(/STAFF_PASSWORD_SIGNIN off needs OIDC_ISSUER/);
    expect(() => loadConfig({ ...oidc, STAFF_PASSWORD_SIGNIN: 'off' })).toThrow(/BREAK_GLASS_ADMIN/);
    expect(() => loadConfig({ STAFF_PASSWORD_SIGNIN: 'no' })).toThrow(/STAFF_PASSWORD_SIGNIN must be on or off/);
  });
});
