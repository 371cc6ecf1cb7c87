import type { Selectable } from 'kysely';
import { inGroupedTransaction, isPostgres, type Db } from '../db/database.js';
import type { OutboxState, OutboxTable } from '../db/schema.js';

/**
 * All SQL of the outbox (docs/decisions.md D53). A sender claims due rows (state
 * `sending`, a lease in `next_attempt_at`, its claim token, one more try counted), sends them and
 * finishes each with its token, so a sender whose lease ran out can no longer overwrite the row
 * another sender took over.
 */

export type OutboxRow = Selectable<OutboxTable>;

export interface NewMessage {
  to: string;
  template: string;
  /** The template's data as JSON. */
  data: string;
  messageKey: string;
  now: string;
}

/** Writes a queued message, due at once; answers its id. */
export async function insertMessage(db: Db, message: NewMessage): Promise<number> {
  const row = await db
    .insertInto('outbox')
    .values({
      to_address: message.to,
      template: message.template,
      data: message.data,
      message_key: message.messageKey,
      state: 'queued',
      tries: 0,
      next_attempt_at: message.now,
      created_at: message.now,
      updated_at: message.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findMessage(db: Db, id: number): Promise<OutboxRow | undefined> {
  return db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A page of messages, newest first, and how many match in all. */
export async function listMessages(db: Db, query: { state?: OutboxState | undefined; limit: number; offset: number }): Promise<{ rows: OutboxRow[]; total: number }> {
  let base = db.selectFrom('outbox');
  if (query.state) base = base.where('state', '=', query.state);
  const rows = await base.selectAll().orderBy('id', 'desc').limit(query.limit).offset(query.offset).execute();
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

/**
 * A failed or waiting message made due again with a fresh count of tries (the Outbox's Resend).
 * Answers false when the row is sent, or being sent, by now.
 */
export async function requeueMessage(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('outbox')
    .set({ state: 'queued', tries: 0, next_attempt_at: now, claim_token: null, updated_at: now })
    .where('id', '=', id)
    .where('state', 'in', ['queued', 'failed'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export interface Claim {
  now: string;
  /** When the claim's lease ends: then another sender may take the rows again. */
  leaseEndsAt: string;
  limit: number;
  token: string;
}

/**
 * Takes up to `limit` due rows for one sender: queued rows whose next try has come, and rows whose
 * sender's lease ran out (it died, or lost the database, mid-send). Each gets the claim's token and
 * lease and one more try, counted now, so a message that kills its sender still reaches its last try.
 */
export async function claimDueMessages(db: Db, claim: Claim): Promise<OutboxRow[]> {
  const rows = await inGroupedTransaction(db, async (trx) => {
    let due = trx
      .selectFrom('outbox')
      .select('id')
      .where('state', 'in', ['queued', 'sending'])
      .where('next_attempt_at', '<=', claim.now)
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(claim.limit);
    // The one difference between the engines. PostgreSQL may be shared by several portal processes
    // (docs/operations.md, "More than one process"): FOR UPDATE locks the rows this sender takes
    // until its claim commits, and SKIP LOCKED lets another sender pass over them to the next due
    // rows instead of waiting and then taking the same ones; a row claimed and committed meanwhile
    // is checked again and is no longer due. SQLite runs one writing transaction at a time, and
    // inGroupedTransaction begins it IMMEDIATE (the write lock first), so the read and the update
    // are one claim even with a second process on the file: the plain transaction is enough.
    if (isPostgres(trx)) due = due.forUpdate().skipLocked();
    const ids = (await due.execute()).map((row) => row.id);
    if (ids.length === 0) return [];
    return trx
      .updateTable('outbox')
      .set((eb) => ({ state: 'sending', tries: eb('tries', '+', 1), next_attempt_at: claim.leaseEndsAt, claim_token: claim.token, updated_at: claim.now }))
      .where('id', 'in', ids)
      .returningAll()
      .execute();
  });
  return rows.sort((a, b) => a.id - b.id);
}

/**
 * The mail server took the message; its data is replaced by `sentData` (the same without its links'
 * secrets). Answers false when the claim was no longer this sender's.
 */
export async function markSent(db: Db, id: number, token: string, now: string, sentData: string): Promise<boolean> {
  const result = await db
    .updateTable('outbox')
    .set({ state: 'sent', sent_at: now, next_attempt_at: now, claim_token: null, last_error: null, data: sentData, updated_at: now })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A try failed: queued again for `nextAttemptAt`, or failed for good when that is null. */
export async function markTryFailed(db: Db, id: number, token: string, outcome: { now: string; error: string; nextAttemptAt: string | null }): Promise<boolean> {
  const result = await db
    .updateTable('outbox')
    .set({
      state: outcome.nextAttemptAt === null ? 'failed' : 'queued',
      next_attempt_at: outcome.nextAttemptAt ?? outcome.now,
      claim_token: null,
      last_error: outcome.error,
      updated_at: outcome.now,
    })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Hands claimed rows back untried (the sender stops, or its lease is half gone): due at once, the try not counted. */
export async function releaseClaims(db: Db, ids: readonly number[], token: string, now: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('outbox')
    .set((eb) => ({ state: 'queued', tries: eb('tries', '-', 1), next_attempt_at: now, claim_token: null, updated_at: now }))
    .where('id', 'in', [...ids])
    .where('claim_token', '=', token)
    .where('state', '=', 'sending')
    .execute();
}
