import type { Kysely } from 'kysely';

/**
 * The audit log loses its (entity, entity_id) index. Its entries are ordered by student, so every
 * save wrote one more page of it (1.31 of the 1.84 WAL pages a save's commit wrote on SQLite), the
 * largest single cost of an autosave; a student's history now scans the log, off the event loop
 * (db/off-loop-reads.ts). docs/decisions.md D31, docs/performance.md (autosave).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_entity_idx').ifExists().execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('audit_entity_idx').ifNotExists().on('audit_log').columns(['entity', 'entity_id']).execute();
}
