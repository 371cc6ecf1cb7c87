import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import * as repo from './outbox.repository.js';
import { renderStoredMail, sentDataWithoutSecrets, type MailContext, type RenderedMail } from './templates/index.js';

/**
 * The sender (docs/decisions.md D53): runs in every portal process that has SMTP_URL,
 * takes due messages from the outbox and hands each to the mail server with nodemailer. Every
 * step is a database call or a socket, so it never holds the event loop; one drain runs at a time
 * per process, and several processes share the work through the repository's claims. A message
 * that fails waits `retryDelayMs` and is tried again, up to `maxTries` tries, then is `failed`.
 */

export interface MailSenderSettings {
  /** How often a running sender looks for due messages. */
  pollIntervalMs: number;
  /** The wait after the first failed try; each further failure doubles it. */
  retryBaseMs: number;
  /** The longest wait between two tries. */
  retryMaxMs: number;
  /** Tries before a message is marked failed. */
  maxTries: number;
  /** How long a claim holds a message; a message claimed longer ago (its sender died) is due again. */
  leaseMs: number;
  /** Messages claimed at once. */
  batchSize: number;
  /** nodemailer's connection, greeting and idle-socket timeouts: a mail server that hangs is a failed try. */
  smtpTimeoutMs: number;
  /**
   * The sender's clock, in milliseconds since the epoch: what is due, when a retry is due, when a
   * lease ends. Date.now; a test passes its own to step through retry waits without waiting.
   */
  now: () => number;
}

/**
 * Eight tries 30 s, 1, 2, 4, 8, 16 and 32 minutes apart: about an hour of a mail server's outage
 * is ridden out before a message shows as failed (and can be resent).
 */
export const MAIL_SENDER_DEFAULTS: Readonly<MailSenderSettings> = Object.freeze({
  pollIntervalMs: 5_000,
  retryBaseMs: 30_000,
  retryMaxMs: 60 * 60_000,
  maxTries: 8,
  leaseMs: 5 * 60_000,
  batchSize: 10,
  smtpTimeoutMs: 30_000,
  now: Date.now,
});

/** The wait after the `tries`-th failed try: exponential, capped. */
export function retryDelayMs(tries: number, settings: Pick<MailSenderSettings, 'retryBaseMs' | 'retryMaxMs'>): number {
  return Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** Math.max(0, tries - 1));
}

/** What one drain did. */
export interface DrainResult {
  sent: number;
  /** Failed tries that will be tried again. */
  retrying: number;
  /** Messages given up (their last try failed, or they could not be written). */
  failed: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A failure as the Outbox shows it: one line, at most 500 characters. */
function reasonOf(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
  return (text || 'The mail server refused the message.').slice(0, 500);
}

/** `<key@domain>`: the domain of MAIL_FROM, so the id is the school's, and the same on every try. */
export function messageIdOf(messageKey: string, fromAddress: string): string {
  const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1) || 'localhost';
  return `<${messageKey}@${domain}>`;
}

export class MailSender {
  readonly settings: Readonly<MailSenderSettings>;
  private readonly transport: Transporter | undefined;
  private readonly context: MailContext;
  private running: Promise<DrainResult> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private stopping = false;
  private stopped: Promise<void> | undefined;
  /** A wake arrived while a drain ran: drain again right after it, not a poll later. */
  private wanted = false;

  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'schoolName' | 'publicUrl'>,
    private readonly log: FastifyBaseLogger,
    settings: Partial<MailSenderSettings> = {},
  ) {
    this.settings = Object.freeze({ ...MAIL_SENDER_DEFAULTS, ...settings });
    this.context = { schoolName: config.schoolName, publicUrl: config.publicUrl };
    // nodemailer is loaded only where a mail server is configured (docs/performance.md, at-rest).
    this.transport = config.smtpUrl
      ? (createRequire(import.meta.url)('nodemailer') as typeof import('nodemailer')).createTransport({
          url: config.smtpUrl,
          connectionTimeout: this.settings.smtpTimeoutMs,
          greetingTimeout: this.settings.smtpTimeoutMs,
          socketTimeout: this.settings.smtpTimeoutMs,
          // Nothing in a message is a file or a URL to fetch; never let data make nodemailer read one.
          disableFileAccess: true,
          disableUrlAccess: true,
        })
      : undefined;
  }

  /** Whether a mail server is configured; without one nothing is sent and messages stay queued. */
  get configured(): boolean {
    return this.transport !== undefined;
  }

  /** Starts looking for due messages now and every poll interval (nothing without SMTP_URL). */
  start(): void {
    if (!this.transport || this.started || this.stopping) return;
    this.started = true;
    this.schedule(0);
  }

  /** Asks a started sender to look now: call after committing a message that should leave soon. */
  wake(): void {
    if (!this.started || this.stopping) return;
    if (this.running) this.wanted = true;
    else this.schedule(0);
  }

  /**
   * Sends every message due now, batch by batch, and answers what happened; a drain already
   * running is joined, not doubled. Without SMTP_URL it sends nothing.
   */
  drain(): Promise<DrainResult> {
    if (!this.transport) return Promise.resolve({ sent: 0, retrying: 0, failed: 0 });
    this.running ??= this.drainDue(this.transport).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Stops looking, lets the message being sent finish, hands the rest of its batch back, closes the transport. */
  stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    this.stopped ??= (async () => {
      await this.running?.catch(() => undefined);
      this.transport?.close();
    })();
    return this.stopped;
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
    // The sender never keeps a process alive on its own: the server does, and closes it on the way out.
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      await this.drain();
    } catch (error) {
      // The database is out of reach (a restart, a failover): look again at the next poll.
      this.log.warn({ err: error }, 'mail: could not read the outbox');
    }
    const again = this.wanted;
    this.wanted = false;
    this.schedule(again ? 0 : this.settings.pollIntervalMs);
  }

  private async drainDue(transport: Transporter): Promise<DrainResult> {
    const result: DrainResult = { sent: 0, retrying: 0, failed: 0 };
    const { leaseMs, batchSize } = this.settings;
    while (!this.stopping) {
      const token = randomUUID();
      const claimedAt = this.settings.now();
      const batch = await repo.claimDueMessages(this.db, { now: iso(claimedAt), leaseEndsAt: iso(claimedAt + leaseMs), limit: batchSize, token });
      if (batch.length === 0) break;
      for (const [index, row] of batch.entries()) {
        // A message is begun only in the first half of its lease, so it is done long before another
        // sender may take it; the rest of the batch goes back, due at once, its try not counted.
        if (this.stopping || this.settings.now() - claimedAt > leaseMs / 2) {
          await repo.releaseClaims(this.db, batch.slice(index).map((rest) => rest.id), token, iso(this.settings.now()));
          break;
        }
        result[await this.sendOne(transport, row, token)]++;
      }
    }
    return result;
  }

  private async sendOne(transport: Transporter, row: repo.OutboxRow, token: string): Promise<keyof DrainResult> {
    let mail: RenderedMail;
    try {
      mail = renderStoredMail(row.template, JSON.parse(row.data), this.context);
    } catch (error) {
      // No later try can write it either: failed at once, with the reason.
      this.log.error({ err: error, outboxId: row.id }, 'mail: a message could not be written');
      await repo.markTryFailed(this.db, row.id, token, { now: iso(this.settings.now()), error: `The message could not be written: ${reasonOf(error)}`, nextAttemptAt: null });
      return 'failed';
    }
    try {
      await transport.sendMail({
        from: { name: this.config.mailFrom.name, address: this.config.mailFrom.address },
        to: row.to_address,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        ...(mail.headers ? { headers: mail.headers } : {}),
        messageId: messageIdOf(row.message_key, this.config.mailFrom.address),
      });
    } catch (error) {
      const now = this.settings.now();
      const giveUp = row.tries >= this.settings.maxTries;
      const nextAttemptAt = giveUp ? null : iso(now + retryDelayMs(row.tries, this.settings));
      this.log.warn({ outboxId: row.id, tries: row.tries, giveUp, reason: reasonOf(error) }, 'mail: a try failed');
      await repo.markTryFailed(this.db, row.id, token, { now: iso(now), error: reasonOf(error), nextAttemptAt });
      return giveUp ? 'failed' : 'retrying';
    }
    // The mail server has the message. Should this write fail, the lease runs out and the message
    // goes once more: the one way it can arrive twice, with the same Message-ID (D53).
    if (!(await repo.markSent(this.db, row.id, token, iso(this.settings.now()), sentDataWithoutSecrets(row.data)))) {
      this.log.warn({ outboxId: row.id }, 'mail: sent after its lease ran out; another sender may have sent it too');
    }
    return 'sent';
  }
}
