import type { Kysely } from 'kysely';
import { sentDataWithoutSecrets } from '../../mail/templates/index.js';

/**
 * Messages sent before the sender emptied their links' secrets (docs/security.md "Mail") lose
 * them now: a sent message keeps no live link in the database. Waiting and failed messages keep
 * theirs (sending or Resend needs them). The down migration changes nothing: an emptied secret
 * cannot be brought back, and nothing needs it.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  const rows = (await db.selectFrom('outbox').select(['id', 'data']).where('state', '=', 'sent').execute()) as { id: number; data: string }[];
  for (const row of rows) {
    const data = sentDataWithoutSecrets(row.data);
    if (data !== row.data) await db.updateTable('outbox').set({ data }).where('id', '=', row.id).execute();
  }
}

export async function down(): Promise<void> {
  // Nothing to undo (see above).
}
