import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { runDueAttendanceDigest } from './notices.service.js';

/** How often the process asks whether the day's digest is due. */
export const DIGEST_CHECK_INTERVAL_MS = 60_000;

/**
 * The attendance digest's clock (D57): runs in the server process like the mail sender,
 * started by the real server only (test apps ask for it or call `runAttendanceDigest`). Each
 * minute it asks whether the school's digest time has come; the run is idempotent in the
 * database, so several processes may all ask.
 */
export class DigestTimer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly onSent: () => void,
    private readonly intervalMs = DIGEST_CHECK_INTERVAL_MS,
  ) {}

  /** One check now (the timer's tick). */
  check(): Promise<void> {
    this.running ??= runDueAttendanceDigest(this.db)
      .then((result) => {
        if (result) this.log.info({ sent: result.sent }, 'attendance digest sent');
        if (result && result.sent > 0) this.onSent();
      })
      .catch((error: unknown) => this.log.error({ err: error }, 'attendance digest failed'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  start(): void {
    this.timer ??= setInterval(() => void this.check(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
