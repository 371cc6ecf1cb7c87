import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';

/**
 * Throttles in the `rate_limits` table, so every process behind a load balancer shares them (the
 * process keeps no state of its own: docs/operations.md, "More than one process"): fixed-window
 * counters (`hitRateLimit`) and growing delays (`takeDelayedAttempt`). One atomic upsert per
 * attempt.
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

/**
 * Gives back one hit: an attempt reserved with hitRateLimit before the password was checked, and
 * that succeeded (only failures count against a school lab's shared address).
 */
export async function refundRateLimit(db: Db, key: string): Promise<void> {
  await db.updateTable('rate_limits').set({ hits: sql<number>`hits - 1` }).where('key', '=', key).where('hits', '>', 0).execute();
}

/**
 * A growing delay per key (docs/decisions.md D37): `freeFailures` attempts are checked at once;
 * after that each attempt must wait `firstDelayMs`, doubled for every further failure, at most
 * `maxDelayMs`. A key with no attempt for `forgetAfterMs` starts again from nothing.
 */
export interface DelayRule {
  freeFailures: number;
  firstDelayMs: number;
  maxDelayMs: number;
  forgetAfterMs: number;
}

export type DelayedAttempt = { allowed: true } | { allowed: false; retryAfterMs: number };

/** The wait after `failures` failures, as SQL: 0 while free, then doubling up to the cap. */
function delayAfter(failures: RawBuilder<number>, rule: DelayRule): RawBuilder<number> {
  const steps: RawBuilder<unknown>[] = [];
  for (let k = 0; rule.firstDelayMs * 2 ** k < rule.maxDelayMs; k++) {
    steps.push(sql`when ${failures} = ${sql.lit(rule.freeFailures + k)} then ${sql.lit(rule.firstDelayMs * 2 ** k)}`);
  }
  return sql<number>`(case when ${failures} < ${sql.lit(rule.freeFailures)} then 0 ${sql.join(steps, sql` `)} else ${sql.lit(rule.maxDelayMs)} end)`;
}

/**
 * Counts an attempt against the key unless it is still inside its delay, in one atomic upsert:
 * attempts sent at the same moment, to one process or to several, are each counted before any
 * of them is checked (D21), so no more than the rule allows reach the check. The attempt counts
 * as a failure until `clearRateLimit` forgets the key after a success.
 */
export async function takeDelayedAttempt(db: Db, key: string, rule: DelayRule, now = Date.now()): Promise<DelayedAttempt> {
  const iso = nowIso();
  const nowMs = sql<number>`cast(${now} as bigint)`;
  const stale = sql<boolean>`rate_limits.window_start_ms <= cast(${now - rule.forgetAfterMs} as bigint)`;
  const failures = sql<number>`case when ${stale} then 1 else rate_limits.hits + 1 end`;
  const taken = await db
    .insertInto('rate_limits')
    .values({ key, window_start_ms: now, hits: 1, blocked_until_ms: sql<number>`${nowMs} + ${delayAfter(sql<number>`1`, rule)}`, created_at: iso, updated_at: iso })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({
          hits: failures,
          blocked_until_ms: sql<number>`${nowMs} + ${delayAfter(failures, rule)}`,
          window_start_ms: nowMs,
          updated_at: iso,
        })
        .where(sql<boolean>`${stale} or rate_limits.blocked_until_ms <= ${nowMs}`),
    )
    .returning('hits')
    .executeTakeFirst();
  if (taken) return { allowed: true };
  const row = await db.selectFrom('rate_limits').select('blocked_until_ms').where('key', '=', key).executeTakeFirst();
  return { allowed: false, retryAfterMs: Math.max(1, Number(row?.blocked_until_ms ?? now) - now) };
}

/** Forgets a key (a successful sign-in clears the account's failures). */
export async function clearRateLimit(db: Db, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** Drops windows that ended long ago; called now and then, not on the hot path. */
export async function pruneRateLimits(db: Db, olderThanMs = 86_400_000, now = Date.now()): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_start_ms', '<', now - olderThanMs).execute();
}
