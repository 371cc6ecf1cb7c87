import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import type { Config, PasswordHashCost } from '../config.js';

/**
 * argon2id (@node-rs/argon2's default algorithm; the costs are set explicitly). It runs on libuv's
 * thread pool, so hashing never blocks the event loop (docs/decisions.md D24).
 *
 * - `owasp`: OWASP's minimum for argon2id (19 MiB, 2 passes, 1 lane), the production cost.
 * - `test`: the smallest argon2 accepts (8 KiB per lane, 1 pass), for the test suites only: a
 *   sign-in there spends a tenth of a millisecond instead of ten or more (docs/decisions.md D68).
 *
 * A check reads the cost from the stored hash, so either cost verifies hashes made with the other.
 */
export const PASSWORD_HASH_PARAMETERS = {
  owasp: { memoryCost: 19_456, timeCost: 2, parallelism: 1 },
  test: { memoryCost: 8, timeCost: 1, parallelism: 1 },
} as const satisfies Record<PasswordHashCost, { memoryCost: number; timeCost: number; parallelism: number }>;

/**
 * The cost new hashes are made with. It is the module's one piece of state, set only by
 * `configurePasswordHashing`; until that is called it is OWASP's, so a forgotten call is slow,
 * never weak.
 */
let cost: PasswordHashCost = 'owasp';

/**
 * Makes new hashes with the configured cost (PASSWORD_HASH_COST). buildApp and prepareDatabase
 * call it with their config, so the app and the demo seed hash alike; a process holds one
 * configuration, so the module keeps it rather than every service taking it as an argument.
 */
export function configurePasswordHashing(config: Pick<Config, 'passwordHashCost'>): void {
  cost = config.passwordHashCost;
}

/**
 * At most this many argon2 computations run at once; the rest queue. Each one keeps a core busy
 * for tens of milliseconds, and libuv runs four at a time: in a sign-in storm they took every core
 * from the event loop, and a signed-in page's `GET /api/session` waited behind them (bench
 * login-storm, docs/performance.md). One core is always left to the event loop.
 */
const MAX_CONCURRENT_HASHES = Math.max(1, os.availableParallelism() - 1);
let runningHashes = 0;
const waitingHashes: Array<() => void> = [];

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (runningHashes < MAX_CONCURRENT_HASHES) runningHashes++;
  // A finishing computation hands its slot straight to the next in line (no overshoot).
  else await new Promise<void>((resolve) => waitingHashes.push(resolve));
  try {
    return await work();
  } finally {
    const next = waitingHashes.shift();
    if (next) next();
    else runningHashes--;
  }
}

/** Hashes a password for storage. */
export function hashPassword(plain: string): Promise<string> {
  const options = PASSWORD_HASH_PARAMETERS[cost];
  return withHashSlot(() => hash(plain, options));
}

/** Checks a password against a stored hash; false for a malformed hash rather than throwing. */
export async function verifyPassword(storedHash: string, plain: string): Promise<boolean> {
  try {
    return await withHashSlot(() => verify(storedHash, plain));
  } catch {
    return false;
  }
}

const dummyHashes = new Map<PasswordHashCost, Promise<string>>();
/**
 * Spends the same time as a real check, so an unknown account is not told apart by timing: the
 * dummy is made with the configured cost, the cost of the hashes the accounts hold.
 */
export async function verifyAgainstDummy(plain: string): Promise<void> {
  let dummyHash = dummyHashes.get(cost);
  if (!dummyHash) dummyHashes.set(cost, (dummyHash = hashPassword('dummy-password-for-timing')));
  await verifyPassword(await dummyHash, plain);
}
