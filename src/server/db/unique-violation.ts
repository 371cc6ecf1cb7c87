import type { IdentityField } from '../../shared/registration.fields.js';

/**
 * The name of the unique index or constraint a failed write broke, on either engine, or undefined
 * for any other error: for a service that turns its own index's refusal into an answer (409)
 * when two writes race past the check made before them.
 */
export function violatedUniqueIndex(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, constraint, message } = error as { code?: unknown; constraint?: unknown; message?: unknown };
  // PostgreSQL: unique_violation names the index in `constraint` (node-postgres).
  if (code === '23505' && typeof constraint === 'string') return constraint;
  // SQLite (better-sqlite3): "UNIQUE constraint failed: index 'name'" for an index on an expression.
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof message === 'string') return /index '([^']+)'/.exec(message)?.[1];
  return undefined;
}

/** The unique indexes of migration 0004 and the identity numbers they hold. */
const IDENTITY_INDEXES: Readonly<Record<string, IdentityField>> = {
  students_birth_certificate_no_unique: 'birth_certificate_no',
  students_sea_no_unique: 'sea_no',
};

/** The identity number whose unique index refused a write, or undefined for any other error. */
export function identityFieldOfError(error: unknown): IdentityField | undefined {
  const index = violatedUniqueIndex(error);
  return index !== undefined && Object.hasOwn(IDENTITY_INDEXES, index) ? IDENTITY_INDEXES[index] : undefined;
}
