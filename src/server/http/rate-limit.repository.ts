import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';

/**
 * Fixed-window counters in the `rate_limits` table, so every process behind a load balancer
 * shares them (DESIGN §1: the process keeps no state of its own). One atomic upsert per hit.
 */

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

export interface RateLimitState {
  hits: number;
  retryAfterMs: number;
  limited: boolean;
}

/** Counts one hit against the key and answers whether the limit is now exceeded. */
export async function hitRateLimit(db: Db, key: string, rule: RateLimitRule, now = Date.now()): Promise<RateLimitState> {
  const expired = now - rule.windowMs;
  const iso = nowIso();
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start_ms: now, hits: 1, created_at: iso, updated_at: iso })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`case when rate_limits.window_start_ms <= ${expired} then 1 else rate_limits.hits + 1 end`,
        window_start_ms: sql<number>`case when rate_limits.window_start_ms <= ${expired} then ${now} else rate_limits.window_start_ms end`,
        updated_at: iso,
      }),
    )
    .returning(['hits', 'window_start_ms'])
    .executeTakeFirstOrThrow();
  const hits = Number(row.hits);
  return { hits, limited: hits > rule.limit, retryAfterMs: Number(row.window_start_ms) + rule.windowMs - now };
}

/** Reads a key's state without counting a hit. */
export async function peekRateLimit(db: Db, key: string, rule: RateLimitRule, now = Date.now()): Promise<RateLimitState> {
  const row = await db.selectFrom('rate_limits').select(['hits', 'window_start_ms']).where('key', '=', key).executeTakeFirst();
  if (!row || Number(row.window_start_ms) <= now - rule.windowMs) return { hits: 0, limited: false, retryAfterMs: 0 };
  const hits = Number(row.hits);
  return { hits, limited: hits >= rule.limit, retryAfterMs: Number(row.window_start_ms) + rule.windowMs - now };
}

/**
 * Gives back one hit: an attempt reserved with hitRateLimit before the password was checked, and
 * that succeeded (only failures count against a school lab's shared address).
 */
export async function refundRateLimit(db: Db, key: string): Promise<void> {
  await db.updateTable('rate_limits').set({ hits: sql<number>`hits - 1` }).where('key', '=', key).where('hits', '>', 0).execute();
}

/** Forgets a key (a successful sign-in clears the account's failures). */
export async function clearRateLimit(db: Db, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** Drops windows that ended long ago; called now and then, not on the hot path. */
export async function pruneRateLimits(db: Db, olderThanMs = 86_400_000, now = Date.now()): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_start_ms', '<', now - olderThanMs).execute();
}
