import type { Kysely } from 'kysely';

/**
 * Staff sign-in with the school's own provider (OpenID Connect, docs/decisions.md D96).
 * - `users.sign_in_email`: the staff member's school e-mail, which the administrator writes on the
 *   account; a provider's verified address finds the account by it. Stored lower-case, unique.
 * - `users.oidc_issuer`, `users.oidc_subject`: the provider and its `sub` for the account, kept at
 *   the first sign-in; later sign-ins find the account by them, so a renamed address still works.
 *   Unique together (a subject is unique only within its issuer).
 * NULLs repeat freely on both engines. Down: the indexes and the columns go.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('users').addColumn('sign_in_email', 'text').execute();
  await db.schema.alterTable('users').addColumn('oidc_issuer', 'text').execute();
  await db.schema.alterTable('users').addColumn('oidc_subject', 'text').execute();
  await db.schema.createIndex('users_sign_in_email_idx').unique().on('users').column('sign_in_email').execute();
  await db.schema.createIndex('users_oidc_subject_idx').unique().on('users').columns(['oidc_issuer', 'oidc_subject']).execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropIndex('users_oidc_subject_idx').execute();
  await db.schema.dropIndex('users_sign_in_email_idx').execute();
  await db.schema.alterTable('users').dropColumn('oidc_subject').execute();
  await db.schema.alterTable('users').dropColumn('oidc_issuer').execute();
  await db.schema.alterTable('users').dropColumn('sign_in_email').execute();
}
