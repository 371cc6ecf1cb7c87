import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { ConfigError, loadConfig, type Config } from '../../src/server/config.js';
import { DEMO_ADMIN } from '../../src/server/db/demo-data/demo-accounts.js';
import { SESSION_COOKIE } from '../../src/server/http/session.js';
import { createTestDatabase } from '../support/test-database.js';
import { TestClient } from '../support/test-app.js';

/**
 * Issue 14 item 5: behind a proxy the client's address is what the proxy says, never what the
 * client wrote. A client controls everything left of the entry its nearest trusted proxy added to
 * X-Forwarded-For; believing the leftmost entry let it choose the address the sign-in throttles
 * count and the audit log and sessions record.
 */

const SPOOFED = '6.6.6.6';
const REAL = '203.0.113.7';
const env = (trustProxy: string) => ({ LOG_LEVEL: 'silent', DATA_DIR: '/tmp/school-portal-tests', TRUST_PROXY: trustProxy, PASSWORD_HASH_COST: 'test', WORKER_NICE: '0' });

/**
 * Starts the portal with this TRUST_PROXY; from `peer` signs in wrongly once and rightly once as
 * the administrator, with `forwardedFor`; answers every address the database recorded for it
 * (throttle keys, audit rows, the session), or 'refused' when the configuration is refused.
 */
async function recordedAddresses(trustProxy: string, peer: string, forwardedFor: string): Promise<string[] | 'refused'> {
  let config: Config;
  try {
    config = loadConfig(env(trustProxy));
  } catch (error) {
    if (error instanceof ConfigError) return 'refused';
    throw error;
  }
  const database = await createTestDatabase();
  const app = await buildApp(config, { db: database.db }, { logger: false, webRoot: '/nonexistent' });
  try {
    const client = new TestClient(app, peer);
    const headers = { 'x-forwarded-for': forwardedFor };
    expect((await client.post('/api/admin-login', { username: DEMO_ADMIN.username, password: 'wrong password' }, { headers })).statusCode).toBe(401);
    expect((await client.post('/api/admin-login', { username: DEMO_ADMIN.username, password: DEMO_ADMIN.password }, { headers })).statusCode).toBe(200);
    const db = database.db;
    const keys = (await db.selectFrom('rate_limits').select('key').execute()).map((row) => row.key);
    const audit = (await db.selectFrom('audit_log').select('ip').where('ip', 'is not', null).execute()).map((row) => row.ip!);
    const sessions = (await db.selectFrom('sessions').select('ip').execute()).map((row) => row.ip ?? '');
    const candidates = [SPOOFED, REAL, peer, ...forwardedFor.split(',').map((entry) => entry.trim())];
    const fromKeys = keys.flatMap((key) => candidates.filter((address) => key.endsWith(`:${address}`)));
    return [...new Set([...fromKeys, ...audit, ...sessions])].sort();
  } finally {
    await app.close();
    await database.destroy();
  }
}

describe('the client address behind a proxy (TRUST_PROXY)', () => {
  it('with one listed proxy, "X-Forwarded-For: 6.6.6.6, <real>" is recorded as <real> (throttle keys, audit log, session)', async () => {
    expect(await recordedAddresses('10.20.0.1', '10.20.0.1', `${SPOOFED}, ${REAL}`)).toEqual([REAL]);
    expect(await recordedAddresses('10.20.0.0/24', '10.20.0.9', `${SPOOFED},${REAL}`)).toEqual([REAL]);
  });

  it('never believes the leftmost entry: true and hop counts are refused at start, a listed proxy is believed for one hop only', async () => {
    for (const value of ['true', 'TRUE', 'yes', '1', '2']) {
      const outcome = await recordedAddresses(value, '10.20.0.1', `${SPOOFED}, ${REAL}`);
      // Before: 'true' (and '1', read as true) started and recorded 6.6.6.6.
      expect(outcome, `TRUST_PROXY=${value}`).toBe('refused');
    }
  });

  it('with two listed proxies in a chain, the entry the outer one added is the client', async () => {
    expect(await recordedAddresses('10.20.0.1,10.20.0.2', '10.20.0.1', `${SPOOFED}, ${REAL}, 10.20.0.2`)).toEqual([REAL]);
  });

  it('a client that reaches the port directly is recorded by its own address, whatever it writes', async () => {
    expect(await recordedAddresses('10.20.0.1', '10.30.0.5', `${SPOOFED}, ${REAL}`)).toEqual(['10.30.0.5']);
    expect(await recordedAddresses('false', '10.30.0.6', `${SPOOFED}, ${REAL}`)).toEqual(['10.30.0.6']);
  });

  it('nor is its X-Forwarded-Proto believed: no Secure cookie for a direct client claiming https', async () => {
    const database = await createTestDatabase();
    const app = await buildApp(loadConfig(env('10.20.0.1')), { db: database.db }, { logger: false, webRoot: '/nonexistent' });
    try {
      const direct = await new TestClient(app, '10.30.0.7').post('/api/admin-login', { username: DEMO_ADMIN.username, password: DEMO_ADMIN.password }, { headers: { 'x-forwarded-proto': 'https' } });
      expect(direct.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.secure).toBeFalsy();
      const proxied = await new TestClient(app, '10.20.0.1').post('/api/admin-login', { username: DEMO_ADMIN.username, password: DEMO_ADMIN.password }, { headers: { 'x-forwarded-proto': 'https' } });
      expect(proxied.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.secure).toBe(true);
    } finally {
      await app.close();
      await database.destroy();
    }
  });
});

describe('TRUST_PROXY values', () => {
  const parse = (value: string) => loadConfig(env(value)).trustProxy;
  const reasonFor = (value: string) => {
    try {
      loadConfig(env(value));
      return 'accepted';
    } catch (error) {
      return error instanceof ConfigError ? error.message : 'thrown';
    }
  };

  it('takes addresses, CIDR ranges and proxy-addr names, comma-separated', () => {
    expect(parse('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(parse(' 10.0.0.5 , 10.0.0.0/24,::1 ')).toEqual(['10.0.0.5', '10.0.0.0/24', '::1']);
    expect(parse('loopback')).toEqual(['loopback']);
    expect(parse('false')).toBe(false);
    expect(loadConfig({ LOG_LEVEL: 'silent' }).trustProxy).toBe(false);
  });

  it('refuses true, hop counts and addresses that are not, with a one-line reason naming TRUST_PROXY', () => {
    expect(reasonFor('true')).toMatch(/^Invalid configuration: TRUST_PROXY must list the proxy's addresses \(e\.g\. 127\.0\.0\.1/);
    expect(reasonFor('1')).toMatch(/TRUST_PROXY must list the proxy's addresses.*hop count/);
    expect(reasonFor('nginx')).toMatch(/^Invalid configuration: TRUST_PROXY invalid IP address: nginx/);
    expect(reasonFor('10.0.0.0/33')).toMatch(/TRUST_PROXY invalid range on address/);
  });
});
