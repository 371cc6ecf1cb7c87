import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.js';

/**
 * Hashing is capped at cores − 1 computations at once (docs/performance.md, bench login-storm);
 * the rest queue. A queue that lost a slot or crossed two callers' answers would show here.
 */
describe('password hashing under a sign-in storm', () => {
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
