import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/database.js';
import { pruneRateLimits } from './rate-limit.repository.js';

/** How often each process drops ended throttle windows from `rate_limits`. */
export const RATE_LIMIT_PRUNE_INTERVAL_MS = 60 * 60_000;
/**
 * Windows that started longer ago than this are dropped: far longer than any rule's window (15
 * minutes, docs/decisions.md D6), so a counter that still counts is never lost.
 */
export const RATE_LIMIT_KEEP_MS = 24 * 60 * 60_000;

/**
 * Every sign-in attempt, ID look-up and bad scanner key from a new address or for a new person adds
 * a row to `rate_limits`; without pruning the table grows for ever. Each process prunes when it
 * is ready and then hourly (the DELETE is idempotent, so several processes may race harmlessly);
 * the timer is unref'd, so it never keeps a process alive, and is stopped when the app closes.
 */
export const rateLimitPruning = fp(
  (app: FastifyInstance, { db }: { db: Db }, done: (error?: Error) => void) => {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> | undefined;
    const prune = (): Promise<void> => {
      running ??= pruneRateLimits(db, RATE_LIMIT_KEEP_MS)
        .catch((error: unknown) => app.log.error({ err: error }, 'pruning rate limits failed'))
        .finally(() => {
          running = undefined;
        });
      return running;
    };
    app.addHook('onReady', (hookDone) => {
      void prune();
      timer = setInterval(() => void prune(), RATE_LIMIT_PRUNE_INTERVAL_MS);
      timer.unref();
      hookDone();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
    done();
  },
  { name: 'rate-limit-pruning' },
);
