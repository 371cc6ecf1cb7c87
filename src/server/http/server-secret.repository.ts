import crypto from 'node:crypto';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';

const SECRET_KEY = 'server_secret';

/**
 * The server's secret, the key of its HMACs (CSRF tokens, device cookies): 256 random bits made
 * by the first start and kept in `settings`, so every process on the database signs alike with
 * nothing to configure or distribute (docs/decisions.md D38). Insert-if-missing, then read: two
 * processes starting at once agree on the first one written.
 */
async function loadServerSecret(db: Db): Promise<Buffer> {
  const iso = nowIso();
  await db
    .insertInto('settings')
    .values({ key: SECRET_KEY, value: crypto.randomBytes(32).toString('base64url'), created_at: iso, updated_at: iso })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', SECRET_KEY).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64url');
}

/** The secret, read once it is first asked for and kept; a failed read is tried again next time. */
export function serverSecret(db: Db): () => Promise<Buffer> {
  let loaded: Promise<Buffer> | null = null;
  return () => {
    loaded ??= loadServerSecret(db).catch((error: unknown) => {
      loaded = null;
      throw error;
    });
    return loaded;
  };
}

/**
 * The secret read inside a caller's transaction (the notices' unsubscribe tokens are signed as the
 * notice is written, by code that has a transaction and no app).
 */
export const readServerSecret = loadServerSecret;
