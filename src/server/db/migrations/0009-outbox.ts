import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The outbox (docs/decisions.md D53): every message the portal sends, written
 * in the transaction of what caused it and sent afterwards by the sender in the process.
 *
 * `next_attempt_at` is when the row is next due: a queued row's next try, or, while a sender holds
 * it (`sending`), the end of that sender's lease, after which another sender may take it again.
 * One column for both keeps "what is due" one range on one index. `message_key` is the left part
 * of the Message-ID, the same on every try, so a message delivered twice can be told apart.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Db): Promise<void> {
  let outbox = db.schema.createTable('outbox');
  outbox = isPostgres(db)
    ? outbox.addColumn('id', 'serial', (c) => c.primaryKey())
    : outbox.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await outbox
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('template', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('message_key', 'text', (c) => c.notNull().unique())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('queued').check(sql`state in ('queued', 'sending', 'sent', 'failed')`))
    .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('claim_token', 'text')
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The sender's question, "which rows are due", is `state in (queued, sending)` and a range of
  // next_attempt_at: one index answers it without reading the sent rows that pile up.
  await db.schema.createIndex('outbox_due_idx').on('outbox').columns(['state', 'next_attempt_at']).execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('outbox').execute();
}
