import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_STAFF, DEMO_STUDENTS, demoTeacherUsername } from '../db/demo-data/demo-accounts.js';
import { OutboxMessageSchema, OutboxPageSchema } from '../../shared/outbox.schemas.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { SessionAnswerSchema } from '../../shared/auth.schemas.js';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { currentEngine } from '../../../tests/support/test-database.js';
import { TEST_PUBLIC_URL } from '../../../tests/support/test-config.js';
import { startSmtpInbox, type SmtpInbox } from '../../../tests/support/smtp-inbox.js';
import { retryDelayMs } from './mail-sender.js';
import { queueMessage } from './outbox.service.js';

/**
 * The outbox and its routes against a real SMTP server (smtp-inbox.ts) on both engines:
 * a message queued in a transaction exists only if the transaction commits; what arrives is read
 * back with mailparser; a refusing or absent server costs tries with a growing wait, then the
 * message is failed, and Resend starts it over; only administrators reach the Outbox.
 */

const MAX_TRIES = 3;
const RETRY_BASE_MS = 40;
const RETRY_MAX_MS = 10 * RETRY_BASE_MS;

/**
 * The sender's clock: the real time, or, while a test holds it, a time the test moves on by hand,
 * so the waits between tries pass when the test says, never because the machine was slow.
 */
const clock = {
  heldAt: undefined as number | undefined,
  now: (): number => clock.heldAt ?? Date.now(),
  /** Holds the clock at the real time now: call after queueing, so the message is due. */
  hold(): void {
    clock.heldAt = Date.now();
  },
  advance(ms: number): void {
    clock.heldAt = clock.now() + ms;
  },
};

let inbox: SmtpInbox;
let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  // The sender is not started: each test drains it when it wants the outbox sent.
  t = await createTestApp({ smtpUrl: inbox.url }, { mailSender: { maxTries: MAX_TRIES, retryBaseMs: RETRY_BASE_MS, retryMaxMs: RETRY_MAX_MS, smtpTimeoutMs: 5_000, now: clock.now } });
  admin = await new TestClient(t.app).signInAdmin();
});
afterAll(async () => {
  await t.close();
  await inbox.close();
});
beforeEach(async () => {
  clock.heldAt = undefined;
  inbox.refuseRecipients(null);
  await inbox.start();
});

const db = () => t.database.db;
const row = (id: number) => db().selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const outboxCount = async () => Number((await db().selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const deliveredTo = (address: string) => inbox.messages.filter((mail) => mail.recipients.includes(address));

async function sendTest(to: string): Promise<number> {
  const response = await admin.post('/api/outbox/test', { to });
  expect(response.statusCode, response.body).toBe(201);
  return OutboxMessageSchema.parse(response.json()).id;
}

describe(`the outbox on ${currentEngine()}`, () => {
  it('sends the test message through the SMTP server: subject, text and HTML parts, the school as sender, links to PUBLIC_URL', async () => {
    const id = await sendTest('head.of.year@example.com');
    expect((await row(id)).state).toBe('queued');
    expect(await t.app.mailSender.drain()).toMatchObject({ sent: 1, failed: 0 });
    const [mail] = deliveredTo('head.of.year@example.com');
    expect(mail).toBeDefined();
    expect(mail!.subject).toBe('Test message from St. Andrew’s Secondary School');
    expect(mail!.from).toBe('office@school.test');
    expect(mail!.to).toEqual(['head.of.year@example.com']);
    const adminName = SessionAnswerSchema.parse((await admin.get('/api/session')).json()).user!.name;
    expect(mail!.text).toContain(`${adminName} sent it from the Outbox to check that the portal can send e-mail.`);
    expect(mail!.text).toContain(`Open the student portal:\n${TEST_PUBLIC_URL}/`);
    expect(mail!.html).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
    expect(mail!.html).toContain('<h1 ');
    expect(mail!.html).toContain('<title>Test message from St. Andrew’s Secondary School</title>');
    expect(mail!.links).toEqual([`${TEST_PUBLIC_URL}/`, `${TEST_PUBLIC_URL}/`]);
    expect(mail!.html).not.toMatch(/<img|<script/i);

    const stored = await row(id);
    expect(stored).toMatchObject({ state: 'sent', tries: 1, last_error: null, claim_token: null });
    // The Message-ID is the outbox's own, in the sender's domain, the same on every try.
    expect(mail!.messageId).toBe(`<${stored.message_key}@school.test>`);

    const page = OutboxPageSchema.parse((await admin.get('/api/outbox')).json());
    expect(page.smtp_configured).toBe(true);
    expect(page.max_tries).toBe(MAX_TRIES);
    const listed = page.messages.find((message) => message.id === id);
    expect(listed).toMatchObject({ to: 'head.of.year@example.com', subject: mail!.subject, state: 'sent', tries: 1, last_error: null, next_attempt_at: null });
    expect(listed!.sent_at).toBe(stored.sent_at);
    // The list never carries a message's body.
    expect(JSON.stringify(page)).not.toContain('check that the portal can send e-mail');

    const audit = await db().selectFrom('audit_log').select(['action', 'entity', 'entity_id', 'new_value', 'actor_label']).where('entity', '=', 'outbox').execute();
    expect(audit).toContainEqual({ action: 'outbox-test', entity: 'outbox', entity_id: String(id), new_value: 'head.of.year@example.com', actor_label: `admin:${DEMO_ADMIN.username}` });
  });

  it('queues a message in the transaction of what caused it: rolled back, nothing is stored or sent', async () => {
    const before = await outboxCount();
    const arrived = inbox.messages.length;
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await queueMessage(trx, { to: 'rolled.back@example.com', template: 'test-message', data: { requestedBy: 'Nobody' } });
          throw new Error('the change that caused the message failed');
        }),
    ).rejects.toThrow('the change that caused the message failed');
    expect(await outboxCount()).toBe(before);
    await db().transaction().execute((trx) => queueMessage(trx, { to: 'committed@example.com', template: 'test-message', data: { requestedBy: 'Somebody' } }));
    await t.app.mailSender.drain();
    expect(inbox.messages.slice(arrived).map((mail) => mail.recipients)).toEqual([['committed@example.com']]);
    expect(deliveredTo('rolled.back@example.com')).toEqual([]);
  });

  it('keeps no link secret once a message is sent: the mail has the link, the stored data and the Outbox do not', async () => {
    const secrets = { reset: 'reset-secret-0123456789abcdef', invite: 'invite-secret-0123456789abcdef', unsubscribe: 'unsubscribe.secret-0123456789' };
    const ids = await db()
      .transaction()
      .execute(async (trx) => [
        (await queueMessage(trx, { to: 'secrets.a@example.com', template: 'family-password-reset', data: { name: 'A Parent', token: secrets.reset } })).id,
        (await queueMessage(trx, { to: 'secrets.b@example.com', template: 'family-invitation', data: { studentName: 'A Child', token: secrets.invite } })).id,
        (await queueMessage(trx, { to: 'secrets.c@example.com', template: 'deadline-reminder', data: { studentNames: ['A Child'], studentIds: ['20220001'], deadline: '2026-12-01', unsubscribeToken: secrets.unsubscribe } })).id,
      ]);
    // Waiting to be sent, the data holds what the mail needs.
    for (const [i, secret] of Object.values(secrets).entries()) expect((await row(ids[i]!)).data).toContain(secret);
    expect(await t.app.mailSender.drain()).toMatchObject({ sent: 3, failed: 0 });
    const subjects: string[] = [];
    for (const [i, secret] of Object.values(secrets).entries()) {
      const [mail] = deliveredTo(`secrets.${'abc'[i]}@example.com`);
      expect(mail!.links.some((href) => href.includes(encodeURIComponent(secret))), `mail ${i} has its link`).toBe(true);
      const stored = await row(ids[i]!);
      expect(stored.state).toBe('sent');
      expect(stored.data).not.toContain(secret);
      subjects.push(mail!.subject);
    }
    const page = await admin.get('/api/outbox?page_size=100');
    expect(page.body).not.toMatch(/secret-0123456789/);
    // The Outbox still writes each sent message's subject from what is kept.
    const shown = OutboxPageSchema.parse(page.json()).messages.filter((m) => ids.includes(m.id));
    expect(shown.map((m) => m.subject).sort()).toEqual(subjects.sort());
  });

  it('escapes every value in the HTML part; the text part keeps it as typed', async () => {
    const hostile = `<script>alert("x")</script> & <a href="javascript:alert(1)">Ms. O'Neil</a>`;
    await queueMessage(db(), { to: 'escaping@example.com', template: 'test-message', data: { requestedBy: hostile } });
    await t.app.mailSender.drain();
    const [mail] = deliveredTo('escaping@example.com');
    expect(mail!.html).not.toContain('<script');
    expect(mail!.html).not.toContain('<a href="javascript');
    expect(mail!.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;a href=&quot;javascript:alert(1)&quot;&gt;Ms. O&#39;Neil&lt;/a&gt;');
    expect(mail!.links.every((href) => href.startsWith(TEST_PUBLIC_URL))).toBe(true);
    expect(mail!.text).toContain(hostile);
  });

  it('refuses bad input with 4xx and the error shape, and stores nothing', async () => {
    const before = await outboxCount();
    const cases: [string, unknown][] = [
      ['/api/outbox/test', { to: 'not an address' }],
      ['/api/outbox/test', { to: 'one@example.com, two@example.com' }],
      ['/api/outbox/test', { to: 'one@example.com\r\nBcc: everyone@example.com' }],
      ['/api/outbox/test', {}],
      ['/api/outbox/test', { to: ['one@example.com'] }],
      ['/api/outbox/abc/resend', undefined],
      ['/api/outbox/0/resend', undefined],
    ];
    for (const [url, body] of cases) {
      const response = await admin.post(url, body);
      expect(response.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(ApiErrorSchema.safeParse(response.json()).success).toBe(true);
    }
    const unknown = await admin.post('/api/outbox/999999/resend');
    expect(unknown.statusCode).toBe(404);
    for (const query of ['state=lost', 'page=0', 'page_size=500', 'page=x']) {
      expect((await admin.get(`/api/outbox?${query}`)).statusCode, query).toBe(400);
    }
    expect(await outboxCount()).toBe(before);
    // queueMessage itself refuses anything but one address, for callers that skipped a schema.
    await expect(queueMessage(db(), { to: 'a@example.com>, <b@example.com', template: 'test-message', data: { requestedBy: 'x' } })).rejects.toMatchObject({ statusCode: 400 });
    expect(await outboxCount()).toBe(before);
  });

  it('a server that refuses (550): each try counted, a doubling wait, failed after the last try; Resend starts over and delivers once', async () => {
    inbox.refuseRecipients({ code: 550, text: 'No such user here' });
    const id = await sendTest('refused@example.com');
    clock.hold();
    for (let tries = 1; tries <= MAX_TRIES; tries++) {
      // One drain is one try: the next is not due until the test moves the clock past the wait.
      await t.app.mailSender.drain();
      const stored = await row(id);
      expect(stored.tries).toBe(tries);
      expect(stored.last_error).toMatch(/550/);
      expect(stored.last_error).toMatch(/No such user here/);
      if (tries < MAX_TRIES) {
        expect(stored.state).toBe('queued');
        const waitMs = retryDelayMs(tries, { retryBaseMs: RETRY_BASE_MS, retryMaxMs: RETRY_MAX_MS });
        expect(waitMs).toBe(RETRY_BASE_MS * 2 ** (tries - 1));
        expect(Date.parse(stored.next_attempt_at) - Date.parse(stored.updated_at)).toBe(waitMs);
        // A moment before the wait ends the message is not tried; at its end it is.
        clock.advance(waitMs - 1);
        await t.app.mailSender.drain();
        expect((await row(id)).tries).toBe(tries);
        clock.advance(1);
      } else {
        expect(stored.state).toBe('failed');
      }
    }
    expect(retryDelayMs(2, { retryBaseMs: RETRY_BASE_MS, retryMaxMs: 1e9 })).toBe(2 * RETRY_BASE_MS);
    // Failed stays failed: no more tries however often the sender looks.
    await t.app.mailSender.drain();
    expect(await row(id)).toMatchObject({ state: 'failed', tries: MAX_TRIES });
    const listed = OutboxPageSchema.parse((await admin.get('/api/outbox?state=failed')).json()).messages.find((message) => message.id === id);
    expect(listed).toMatchObject({ state: 'failed', tries: MAX_TRIES, next_attempt_at: null });
    expect(listed!.last_error).toMatch(/No such user here/);
    expect(deliveredTo('refused@example.com')).toEqual([]);

    inbox.refuseRecipients(null);
    // Resend makes the message due at the real time: the sender's clock follows it again.
    clock.heldAt = undefined;
    const resent = await admin.post(`/api/outbox/${id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(OutboxMessageSchema.parse(resent.json())).toMatchObject({ id, state: 'queued', tries: 0 });
    await t.app.mailSender.drain();
    expect(await row(id)).toMatchObject({ state: 'sent', tries: 1, last_error: null });
    expect(deliveredTo('refused@example.com')).toHaveLength(1);
    // Once sent, never again.
    const again = await admin.post(`/api/outbox/${id}/resend`);
    expect(again.statusCode).toBe(409);
    await t.app.mailSender.drain();
    expect(deliveredTo('refused@example.com')).toHaveLength(1);
    const audit = await db().selectFrom('audit_log').select('action').where('entity', '=', 'outbox').where('entity_id', '=', String(id)).execute();
    expect(audit.map((entry) => entry.action).sort()).toEqual(['outbox-resend', 'outbox-test']);
  });

  it('a server that cannot be reached (connection refused) costs tries too, and the message waits with the reason', async () => {
    await inbox.stop();
    const id = await sendTest('unreachable@example.com');
    clock.hold();
    await t.app.mailSender.drain();
    const stored = await row(id);
    expect(stored).toMatchObject({ state: 'queued', tries: 1 });
    expect(stored.last_error).toMatch(/ECONNREFUSED|connect/i);
    await inbox.start();
    clock.advance(retryDelayMs(1, { retryBaseMs: RETRY_BASE_MS, retryMaxMs: RETRY_MAX_MS }));
    await t.app.mailSender.drain();
    expect(await row(id)).toMatchObject({ state: 'sent', tries: 2 });
    expect(deliveredTo('unreachable@example.com')).toHaveLength(1);
  });

  it('pages the Outbox newest first, with the total, and filters by state', async () => {
    for (const n of [1, 2, 3]) await queueMessage(db(), { to: `page${n}@example.com`, template: 'test-message', data: { requestedBy: 'Paging' } });
    const total = await outboxCount();
    const first = OutboxPageSchema.parse((await admin.get('/api/outbox?page_size=2')).json());
    expect(first.total).toBe(total);
    expect(first.messages.map((message) => message.to)).toEqual(['page3@example.com', 'page2@example.com']);
    const second = OutboxPageSchema.parse((await admin.get('/api/outbox?page_size=2&page=2')).json());
    expect(second.messages[0]!.to).toBe('page1@example.com');
    const queued = OutboxPageSchema.parse((await admin.get('/api/outbox?state=queued')).json());
    expect(queued.messages.every((message) => message.state === 'queued')).toBe(true);
    expect(queued.messages.map((message) => message.to)).toEqual(expect.arrayContaining(['page1@example.com', 'page2@example.com', 'page3@example.com']));
    await t.app.mailSender.drain();
  });

  it('the office and administrators reach the Outbox (D84): other staff and students 403, anonymous 401', async () => {
    const anonymous = new TestClient(t.app, '10.1.0.9');
    for (const [method, url] of [['GET', '/api/outbox'], ['POST', '/api/outbox/test'], ['POST', '/api/outbox/1/resend']] as const) {
      const response = await anonymous.request(method, url, { body: method === 'POST' ? { to: 'x@example.com' } : undefined });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
    const others = [
      await new TestClient(t.app, '10.1.0.11').signInAdmin(DEMO_STAFF.principal.username, DEMO_STAFF.principal.password),
      await new TestClient(t.app, '10.1.0.12').signInAdmin(demoTeacherUsername('5A'), DEMO_STAFF.formTeacher.password),
      await new TestClient(t.app, '10.1.0.13').signInStudent(DEMO_STUDENTS.registered.student_id, DEMO_STUDENTS.registered.password),
    ];
    const before = await outboxCount();
    for (const client of others) {
      const list = await client.get('/api/outbox');
      expect(list.statusCode).toBe(403);
      expect(ApiErrorSchema.parse(list.json()).code).toBe('forbidden');
      expect((await client.post('/api/outbox/test', { to: 'x@example.com' })).statusCode).toBe(403);
      expect((await client.post('/api/outbox/1/resend')).statusCode).toBe(403);
    }
    expect(await outboxCount()).toBe(before);
    const session = SessionAnswerSchema.parse((await admin.get('/api/session')).json());
    expect(session.user!.permissions).toContain('outbox.manage');

    // The office sees whether mail to families went out, and its menu offers the Outbox.
    const office = await new TestClient(t.app, '10.1.0.10').signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);
    const seen = OutboxPageSchema.parse((await office.get('/api/outbox')).json());
    expect(seen.messages.length).toBeGreaterThan(0);
    expect(SessionAnswerSchema.parse((await office.get('/api/session')).json()).user!.permissions).toContain('outbox.manage');
    // …and may send one again: a sent message is refused as such (409), not as forbidden.
    const sent = OutboxPageSchema.parse((await office.get('/api/outbox?state=sent')).json()).messages[0]!;
    expect((await office.post(`/api/outbox/${sent.id}/resend`)).statusCode).toBe(409);
    expect((await office.post('/api/outbox/999999/resend')).statusCode).toBe(404);
  });
});

describe(`the outbox without SMTP_URL on ${currentEngine()}`, () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await createTestApp({}, { mailSender: { start: true, pollIntervalMs: 10 } });
  });
  afterAll(() => plain.close());

  it('keeps every message queued and shows it on the Outbox', async () => {
    const client = await new TestClient(plain.app).signInAdmin();
    const response = await client.post('/api/outbox/test', { to: 'nobody@example.com' });
    expect(response.statusCode).toBe(201);
    expect(await plain.app.mailSender.drain()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    const page = OutboxPageSchema.parse((await client.get('/api/outbox')).json());
    expect(page.smtp_configured).toBe(false);
    expect(page.messages[0]).toMatchObject({ to: 'nobody@example.com', state: 'queued', tries: 0, subject: 'Test message from St. Andrew’s Secondary School' });
    const stored = await plain.database.db.selectFrom('outbox').select(['state', 'tries']).execute();
    expect(stored).toEqual([{ state: 'queued', tries: 0 }]);
  });
});
