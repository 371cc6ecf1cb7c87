import type { Insertable } from 'kysely';
import type { Db } from '../db/database.js';
import { definedKeysOf, nowIso, preparedQuery } from '../db/database.js';
import type { AuditLogTable } from '../db/schema.js';

export type AuditEntry = Omit<Insertable<AuditLogTable>, 'created_at' | 'updated_at'>;
type AuditRow = Insertable<AuditLogTable>;

/**
 * The insert of a few rows, compiled once per shape (every registration save writes one or two;
 * docs/performance.md). Longer lists (imports) are rare and of ever-new lengths: built each time.
 */
const insertFewAuditRows = preparedQuery(
  (db: Db, { rows }: { rows: AuditRow[] }) => db.insertInto('audit_log').values(rows),
  ({ rows }) => rows.map(definedKeysOf).join(';'),
);
const MAX_PREPARED_ROWS = 8;

/** Appends rows to the audit log; pass the transaction that made the change so both commit together. */
export async function writeAudit(db: Db, entries: AuditEntry | AuditEntry[]): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries];
  if (list.length === 0) return;
  const iso = nowIso();
  const rows = list.map((entry) => ({ ...entry, created_at: iso, updated_at: iso }));
  if (rows.length <= MAX_PREPARED_ROWS) await insertFewAuditRows(db, { rows });
  else await db.insertInto('audit_log').values(rows).execute();
}
