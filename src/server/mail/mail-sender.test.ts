import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { createDatabase } from '../db/database.js';
import { createTestApp, type TestApp } from '../../../tests/support/test-app.js';
import { testConfig } from '../../../tests/support/test-config.js';
import { currentEngine } from '../../../tests/support/test-database.js';
import { startSmtpInbox, type SmtpInbox } from '../../../tests/support/smtp-inbox.js';
import { MAIL_SENDER_DEFAULTS, messageIdOf, retryDelayMs } from './mail-sender.js';
import * as repo from './outbox.repository.js';
import { queueMessage } from './outbox.service.js';

/**
 * The sender against a real SMTP server: the server stops in the middle of a message and
 * comes back, and every message arrives once; a message whose sender died is sent after its lease;
 * a sender that stops hands its batch back; on PostgreSQL two processes drain one outbox and each
 * message leaves once. Messages are counted by their Message-ID, which the outbox keeps per message.
 */

const SCHOOL_DOMAIN = 'school.test';

async function queueMany(t: TestApp, prefix: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let n = 1; n <= count; n++) ids.push((await queueMessage(t.database.db, { to: `${prefix}${n}@example.com`, template: 'test-message', data: { requestedBy: 'Sender test' } })).id);
  return ids;
}

const rowsOf = (t: TestApp, ids: readonly number[]) => t.database.db.selectFrom('outbox').selectAll().where('id', 'in', [...ids]).orderBy('id').execute();

/** Each delivered Message-ID once, and exactly the outbox's messages. */
async function expectEachDeliveredOnce(t: TestApp, inbox: SmtpInbox, ids: readonly number[]): Promise<void> {
  const rows = await rowsOf(t, ids);
  const expected = rows.map((row) => messageIdOf(row.message_key, `office@${SCHOOL_DOMAIN}`)).sort();
  const delivered = inbox.messages.map((mail) => mail.messageId).filter((id) => expected.includes(id)).sort();
  expect(delivered).toEqual(expected);
  expect(new Set(delivered).size).toBe(ids.length);
  for (const row of rows) expect(inbox.messages.filter((mail) => mail.recipients.includes(row.to_address))).toHaveLength(1);
}

describe('backoff', () => {
  it('doubles from the base up to the cap: 30 s, 1, 2, 4 … minutes, an hour at most', () => {
    expect([1, 2, 3, 4, 7].map((tries) => retryDelayMs(tries, MAIL_SENDER_DEFAULTS))).toEqual([30_000, 60_000, 120_000, 240_000, 1_920_000]);
    expect(retryDelayMs(12, MAIL_SENDER_DEFAULTS)).toBe(3_600_000);
    expect(MAIL_SENDER_DEFAULTS.maxTries).toBe(8);
  });
});

describe(`the sender on ${currentEngine()}`, () => {
  let inbox: SmtpInbox;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
  });
  afterAll(() => inbox.close());

  it('the SMTP server stops in the middle of a message and starts again: every message is delivered later, none lost, none twice', async () => {
    // The sender runs with the app, as in production, at test speed.
    const t = await createTestApp(
      { smtpUrl: inbox.url },
      { mailSender: { start: true, pollIntervalMs: 20, retryBaseMs: 50, retryMaxMs: 400, batchSize: 4, smtpTimeoutMs: 5_000 } },
    );
    try {
      const arrivalsBefore = inbox.arrivals;
      const stopped = inbox.stopAtArrival(arrivalsBefore + 4);
      const ids = await queueMany(t, 'midsend', 12);
      t.app.mailSender.wake();
      await stopped;
      // While the server is away the sender keeps trying and records why it could not send.
      await vi.waitFor(
        async () => {
          const waiting = (await rowsOf(t, ids)).filter((row) => row.state === 'queued' && row.last_error !== null);
          expect(waiting.length).toBeGreaterThan(0);
        },
        { timeout: 15_000, interval: 20 },
      );
      const deliveredBeforeRestart = inbox.messages.filter((mail) => mail.recipients[0]?.startsWith('midsend')).length;
      expect(deliveredBeforeRestart).toBe(3);
      await inbox.start();
      await vi.waitFor(
        async () => {
          expect((await rowsOf(t, ids)).map((row) => row.state)).toEqual(ids.map(() => 'sent'));
        },
        { timeout: 30_000, interval: 20 },
      );
      await expectEachDeliveredOnce(t, inbox, ids);
      // Thirteen arrivals or more for twelve messages: the fourth was cut off before its acknowledgement.
      expect(inbox.arrivals - arrivalsBefore).toBeGreaterThan(12);
      const rows = await rowsOf(t, ids);
      // The message cut off mid-send went again, as did those that met the closed port.
      expect(rows[3]!.tries).toBeGreaterThanOrEqual(2);
      expect(rows.slice(0, 3).map((row) => row.tries)).toEqual([1, 1, 1]);
      expect(rows.every((row) => row.last_error === null && row.claim_token === null && row.sent_at !== null)).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('a message held by a sender that died is sent once its lease has run out; one still leased is left alone', async () => {
    const t = await createTestApp({ smtpUrl: inbox.url });
    try {
      const db = t.database.db;
      const [expired, leased] = await queueMany(t, 'lease', 2);
      const past = new Date(Date.now() - 1_000).toISOString();
      const future = new Date(Date.now() + 60_000).toISOString();
      await db.updateTable('outbox').set({ state: 'sending', tries: 1, claim_token: 'dead-process', next_attempt_at: past }).where('id', '=', expired!).execute();
      await db.updateTable('outbox').set({ state: 'sending', tries: 1, claim_token: 'busy-process', next_attempt_at: future }).where('id', '=', leased!).execute();
      expect(await t.app.mailSender.drain()).toMatchObject({ sent: 1 });
      const [first, second] = await rowsOf(t, [expired!, leased!]);
      expect(first).toMatchObject({ state: 'sent', tries: 2 });
      expect(second).toMatchObject({ state: 'sending', tries: 1, claim_token: 'busy-process' });
      await expectEachDeliveredOnce(t, inbox, [expired!]);
      expect(inbox.messages.filter((mail) => mail.recipients.includes(second!.to_address))).toEqual([]);
      // The dead sender, should it wake, can no longer finish the row another sender took over.
      expect(await repo.markSent(db, expired!, 'dead-process', new Date().toISOString(), '{}')).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('a sender that stops lets the message in hand finish and hands the rest of its batch back, untried', async () => {
    const slow = await startSmtpInbox({ acceptDelayMs: 50 });
    const t = await createTestApp({ smtpUrl: slow.url }, { mailSender: { batchSize: 10 } });
    try {
      const ids = await queueMany(t, 'stopping', 6);
      const draining = t.app.mailSender.drain();
      await slow.waitForMessages(1);
      await t.app.mailSender.stop();
      const result = await draining;
      const rows = await rowsOf(t, ids);
      const sent = rows.filter((row) => row.state === 'sent');
      expect(result.sent).toBe(sent.length);
      expect(sent.length).toBeLessThan(ids.length);
      expect(slow.messages).toHaveLength(sent.length);
      for (const row of rows.filter((r) => r.state !== 'sent')) expect(row).toMatchObject({ state: 'queued', tries: 0, claim_token: null });
    } finally {
      await t.close();
      await slow.close();
    }
  });
});

describe.runIf(currentEngine() === 'postgres')('two processes on one PostgreSQL', () => {
  it('two senders draining one outbox at once deliver each message exactly once', async () => {
    const slow = await startSmtpInbox({ acceptDelayMs: 10 });
    const first = await createTestApp({ smtpUrl: slow.url }, { mailSender: { batchSize: 2 } });
    const secondDb = createDatabase({ databaseUrl: first.database.location.databaseUrl });
    const second = await buildApp(testConfig({ smtpUrl: slow.url }), { db: secondDb }, { logger: false, webRoot: '/nonexistent', mailSender: { start: false, batchSize: 2 } });
    try {
      const ids = await queueMany(first, 'twoproc', 30);
      const [a, b] = await Promise.all([first.app.mailSender.drain(), second.mailSender.drain()]);
      expect(a.sent + b.sent).toBe(30);
      // Both took part: the claims split the outbox between them rather than one waiting for the other.
      expect(a.sent).toBeGreaterThan(0);
      expect(b.sent).toBeGreaterThan(0);
      expect((await rowsOf(first, ids)).map((row) => [row.state, row.tries])).toEqual(ids.map(() => ['sent', 1]));
      await expectEachDeliveredOnce(first, slow, ids);
      expect(slow.messages).toHaveLength(30);
    } finally {
      await second.close();
      await secondDb.destroy();
      await first.close();
      await slow.close();
    }
  });
});
