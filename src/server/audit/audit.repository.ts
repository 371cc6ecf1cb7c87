import type { Insertable } from 'kysely';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { AuditLogTable } from '../db/schema.js';

export type AuditEntry = Omit<Insertable<AuditLogTable>, 'created_at' | 'updated_at'>;

/** Appends rows to the audit log; pass the transaction that made the change so both commit together. */
export async function writeAudit(db: Db, entries: AuditEntry | AuditEntry[]): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries];
  if (list.length === 0) return;
  const iso = nowIso();
  await db
    .insertInto('audit_log')
    .values(list.map((entry) => ({ ...entry, created_at: iso, updated_at: iso })))
    .execute();
}
