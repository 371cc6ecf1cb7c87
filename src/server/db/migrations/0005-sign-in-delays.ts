import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Failed sign-ins slow an account down instead of locking it (docs/decisions.md D37): the delay
 * lives in `rate_limits` beside every other throttle (`blocked_until_ms`, the earliest time the
 * key's next attempt is checked), so the account's own lock columns on `users` go.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

function bigintType(db: Db): 'bigint' | 'integer' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'bigint' : 'integer';
}

export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('rate_limits')
    .addColumn('blocked_until_ms', bigintType(db), (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').dropColumn('failed_attempts').execute();
  await db.schema.alterTable('users').dropColumn('locked_until').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('users').addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('users').addColumn('locked_until', 'text').execute();
  await db.schema.alterTable('rate_limits').dropColumn('blocked_until_ms').execute();
}
