import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { configurePasswordHashing, hashPassword, PASSWORD_HASH_PARAMETERS, verifyPassword } from './password.js';
import { testConfig } from '../../../tests/support/test-config.js';

/** The cost (`m`, `t`, `p`) a stored argon2id hash was made with, read from its PHC string. */
const costOf = (stored: string) => /^\$argon2id\$v=19\$(m=\d+,t=\d+,p=\d+)\$/.exec(stored)?.[1];

describe('the cost of a password hash (PASSWORD_HASH_COST)', () => {
  afterAll(() => configurePasswordHashing(testConfig()));

  it('is OWASP’s minimum for argon2id by default: 19 MiB, 2 passes, 1 lane', async () => {
    expect(PASSWORD_HASH_PARAMETERS.owasp).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    configurePasswordHashing(loadConfig({}));
    const stored = await hashPassword('right-password-0');
    expect(costOf(stored)).toBe('m=19456,t=2,p=1');
    expect(await verifyPassword(stored, 'right-password-0')).toBe(true);
  });

  it('is argon2’s smallest in the tests’ configuration, and either cost checks the other’s hashes', async () => {
    configurePasswordHashing(loadConfig({}));
    const owaspHash = await hashPassword('right-password-0');
    configurePasswordHashing(testConfig());
    const cheapHash = await hashPassword('right-password-0');
    expect(costOf(cheapHash)).toBe('m=8,t=1,p=1');
    expect(await verifyPassword(owaspHash, 'right-password-0')).toBe(true);
    configurePasswordHashing(loadConfig({}));
    expect(await verifyPassword(cheapHash, 'right-password-0')).toBe(true);
    expect(await verifyPassword(cheapHash, 'wrong')).toBe(false);
  });
});

/**
 * Hashing is capped at cores − 1 computations at once (docs/performance.md, bench login-storm);
 * the rest queue. A queue that lost a slot or crossed two callers' answers would show here.
 */
describe('password hashing under a sign-in storm', () => {
  beforeAll(() => configurePasswordHashing(testConfig()));

  it('answers every one of many concurrent checks, each with its own result', async () => {
    const stored = await hashPassword('right-password-1');
    const attempts = Array.from({ length: Math.max(6, os.availableParallelism() * 3) }, (_, i) => (i % 3 === 0 ? 'right-password-1' : `wrong-${i}`));
    const results = await Promise.all(attempts.map((attempt) => verifyPassword(stored, attempt)));
    expect(results).toEqual(attempts.map((attempt) => attempt === 'right-password-1'));
  });

  it('keeps working after a malformed hash failed inside the queue', async () => {
    const stored = await hashPassword('right-password-2');
    const results = await Promise.all([
      verifyPassword('not-an-argon2-hash', 'x'),
      verifyPassword('$argon2id$v=19$broken', 'x'),
      verifyPassword(stored, 'right-password-2'),
      verifyPassword(stored, 'wrong'),
    ]);
    expect(results).toEqual([false, false, true, false]);
    expect(await verifyPassword(stored, 'right-password-2')).toBe(true);
  });
});
