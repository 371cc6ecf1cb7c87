import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane). @node-rs/argon2 runs on libuv's
 * thread pool, so hashing never blocks the event loop (DESIGN §2).
 */
// @node-rs/argon2 defaults to argon2id; the costs are set explicitly.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

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
  return withHashSlot(() => hash(plain, OPTIONS));
}

/** Checks a password against a stored hash; false for a malformed hash rather than throwing. */
export async function verifyPassword(storedHash: string, plain: string): Promise<boolean> {
  try {
    return await withHashSlot(() => verify(storedHash, plain));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Spends the same time as a real check, so an unknown account is not told apart by timing. */
export async function verifyAgainstDummy(plain: string): Promise<void> {
  dummyHash ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummyHash, plain);
}
