import type { Kysely } from 'kysely';

/**
 * The audit log's (entity, entity_id) index was dropped here to save a page per autosave
 * (docs/decisions.md D31); 0003 puts it back (D32). Kept as it ran, since databases have applied it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_entity_idx').ifExists().execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('audit_entity_idx').ifNotExists().on('audit_log').columns(['entity', 'entity_id']).execute();
}
