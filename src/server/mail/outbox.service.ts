import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { writeAudit } from '../audit/audit.repository.js';
import { nowIso, type Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { conflict, fieldError, notFound } from '../http/errors.js';
import type { Actor } from '../http/request-context.js';
import { EmailAddressSchema, type OutboxListQuery, type OutboxMessage, type OutboxPage, type SendTestMessageInput } from '../../shared/outbox.schemas.js';
import * as repo from './outbox.repository.js';
import { isMailTemplateName, renderStoredMail, type MailContext, type MailTemplateData, type MailTemplateName } from './templates/index.js';

/**
 * The outbox (docs/decisions.md D53). Every feature that sends mail calls `queueMessage`
 * with the transaction of what caused the message, so the message exists exactly when that change
 * does; the sender (mail-sender.ts) delivers it afterwards. The rest serves the Outbox screen.
 */

/**
 * Queues a message in `db`, which should be the transaction of the change that causes it (a
 * rolled-back change sends nothing). The template is rendered when the message is sent, with the
 * configuration of that moment (D53). Throws a 400 naming `to` for anything but one address.
 */
export async function queueMessage<T extends MailTemplateName>(
  db: Db | Transaction<Database>,
  message: { to: string; template: T; data: MailTemplateData<T> },
): Promise<{ id: number }> {
  const to = EmailAddressSchema.safeParse(message.to);
  if (!to.success) throw fieldError('to', to.error.issues[0]?.message ?? 'Enter a valid e-mail address.');
  if (!isMailTemplateName(message.template)) throw new Error(`no mail template is named "${String(message.template)}"`);
  const id = await repo.insertMessage(db, { to: to.data, template: message.template, data: JSON.stringify(message.data), messageKey: randomUUID(), now: nowIso() });
  return { id };
}

/** The subject the screen shows; a message this version cannot write says which template it used. */
function subjectOf(row: repo.OutboxRow, context: MailContext): string {
  try {
    return renderStoredMail(row.template, JSON.parse(row.data), context).subject;
  } catch {
    return `(${row.template}: cannot be written)`;
  }
}

function toMessage(row: repo.OutboxRow, context: MailContext): OutboxMessage {
  return {
    id: row.id,
    to: row.to_address,
    subject: subjectOf(row, context),
    template: row.template,
    state: row.state,
    tries: row.tries,
    last_error: row.last_error,
    created_at: row.created_at,
    sent_at: row.sent_at,
    next_attempt_at: row.state === 'queued' || row.state === 'sending' ? row.next_attempt_at : null,
  };
}

/** A page of the Outbox, newest first. Bodies never leave the server: the screen needs none. */
export async function listOutbox(
  db: Db,
  query: OutboxListQuery,
  context: MailContext,
  sender: { maxTries: number; configured: boolean },
): Promise<OutboxPage> {
  const { rows, total } = await repo.listMessages(db, { state: query.state, limit: query.page_size, offset: (query.page - 1) * query.page_size });
  return {
    messages: rows.map((row) => toMessage(row, context)),
    total,
    page: query.page,
    page_size: query.page_size,
    max_tries: sender.maxTries,
    smtp_configured: sender.configured,
  };
}

/** Resend: a failed or waiting message is due again now, with all its tries ahead of it. */
export async function resendMessage(db: Db, id: number, actor: Actor, context: MailContext): Promise<OutboxMessage> {
  const row = await db.transaction().execute(async (trx) => {
    const found = await repo.findMessage(trx, id);
    if (!found) throw notFound('No message has this id.');
    if (found.state === 'sent') throw conflict('This message was sent already; it is not sent twice.');
    if (found.state === 'sending' || !(await repo.requeueMessage(trx, id, nowIso()))) {
      throw conflict('This message is being sent right now; see how it went in a moment.');
    }
    await writeAudit(trx, { ...actor, action: 'outbox-resend', entity: 'outbox', entity_id: String(id), field: 'to', old_value: null, new_value: found.to_address });
    return repo.findMessage(trx, id);
  });
  return toMessage(row!, context);
}

/** The Outbox's "Send a test message": queued like any other, so it shows how the school's mail goes. */
export async function queueTestMessage(db: Db, input: SendTestMessageInput, requestedBy: string, actor: Actor, context: MailContext): Promise<OutboxMessage> {
  const row = await db.transaction().execute(async (trx) => {
    const { id } = await queueMessage(trx, { to: input.to, template: 'test-message', data: { requestedBy } });
    await writeAudit(trx, { ...actor, action: 'outbox-test', entity: 'outbox', entity_id: String(id), field: 'to', old_value: null, new_value: input.to });
    return repo.findMessage(trx, id);
  });
  return toMessage(row!, context);
}
