import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Each uploaded photo keeps its thumbnail beside it (docs/decisions.md D74): made with sharp the
 * first time a screen asks for it, stored, and served from here afterwards. Empty until then, and
 * emptied when the slot's file is replaced.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('documents')
    .addColumn('thumbnail', db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob')
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('documents').dropColumn('thumbnail').execute();
}
