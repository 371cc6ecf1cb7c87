import type { Kysely } from 'kysely';

/**
 * The audit log's reads by student are indexed: `(entity, entity_id)` serves a student's field
 * history and the rows about their record, documents and account; `actor_label` the rows they
 * made themselves. Together they let the audit view of one student read only that student's
 * rows (docs/decisions.md D32). Each index costs a save one more b-tree page at commit.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('audit_entity_idx').ifNotExists().on('audit_log').columns(['entity', 'entity_id']).execute();
  await db.schema.createIndex('audit_actor_idx').ifNotExists().on('audit_log').column('actor_label').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_actor_idx').ifExists().execute();
  await db.schema.dropIndex('audit_entity_idx').ifExists().execute();
}
