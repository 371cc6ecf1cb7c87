import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Which engine a Kysely instance talks to, in a file of its own: the migrations ask it, and
 * schema.ts reads the migrations' column lists, so database.ts (which imports schema.ts) would
 * close a loop (D87). database.ts passes it on to everyone else.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: only the adapter is read
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
