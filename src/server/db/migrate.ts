import { inspect } from 'node:util';
import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { Db } from './database.js';
import * as initial from './migrations/0001-initial.js';
import * as auditEntityIndexDropped from './migrations/0002-audit-entity-index-dropped.js';
import * as auditIndexes from './migrations/0003-audit-indexes.js';
import * as uniqueIdentityNumbers from './migrations/0004-unique-identity-numbers.js';
import * as signInDelays from './migrations/0005-sign-in-delays.js';
import * as sessionRemember from './migrations/0006-session-remember.js';
import * as staffRoles from './migrations/0007-staff-roles.js';
import * as totp from './migrations/0008-totp.js';
import * as outbox from './migrations/0009-outbox.js';
import * as familyAccounts from './migrations/0010-family-accounts.js';
import * as reviewStates from './migrations/0011-review-states.js';
import * as notices from './migrations/0012-notices.js';
import * as yearRollover from './migrations/0013-year-rollover.js';
import * as seaIntake from './migrations/0014-sea-intake.js';
import * as reRegistration from './migrations/0015-re-registration.js';
import * as familyVerifyPassword from './migrations/0016-family-verify-password.js';
import * as outboxSentSecrets from './migrations/0017-outbox-sent-secrets.js';
import * as documentThumbnails from './migrations/0018-document-thumbnails.js';
import * as yesNoAnswers from './migrations/0019-yes-no-answers.js';
import * as intakeFinalises from './migrations/0020-intake-finalises.js';
import * as enrolmentHistory from './migrations/0021-enrolment-history.js';
import * as studentSearchName from './migrations/0022-student-search-name.js';
import * as paperDocuments from './migrations/0023-paper-documents.js';
import * as userRoleStaff from './migrations/0024-user-role-staff.js';
import * as absenceNotes from './migrations/0025-absence-notes.js';
import * as staffSchoolSignIn from './migrations/0026-staff-school-sign-in.js';

/** Migrations listed in code (not read from disk) so the built server and tests agree. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-audit-entity-index-dropped': auditEntityIndexDropped,
  '0003-audit-indexes': auditIndexes,
  '0004-unique-identity-numbers': uniqueIdentityNumbers,
  '0005-sign-in-delays': signInDelays,
  '0006-session-remember': sessionRemember,
  '0007-staff-roles': staffRoles,
  '0008-totp': totp,
  '0009-outbox': outbox,
  '0010-family-accounts': familyAccounts,
  '0011-review-states': reviewStates,
  '0012-notices': notices,
  '0013-year-rollover': yearRollover,
  '0014-sea-intake': seaIntake,
  '0015-re-registration': reRegistration,
  '0016-family-verify-password': familyVerifyPassword,
  '0017-outbox-sent-secrets': outboxSentSecrets,
  '0018-document-thumbnails': documentThumbnails,
  '0019-yes-no-answers': yesNoAnswers,
  '0020-intake-finalises': intakeFinalises,
  '0021-enrolment-history': enrolmentHistory,
  '0022-student-search-name': studentSearchName,
  '0023-paper-documents': paperDocuments,
  '0024-user-role-staff': userRoleStaff,
  '0025-absence-notes': absenceNotes,
  '0026-staff-school-sign-in': staffSchoolSignIn,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(MIGRATIONS) };

function migrator(db: Db): Migrator {
  return new Migrator({ db, provider });
}

function requireSuccess(result: MigrationResultSet, direction: string): void {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const reason = result.error instanceof Error ? result.error.message : inspect(result.error);
    throw new Error(`Migration ${direction} failed${failed ? ` at ${failed.migrationName}` : ''}: ${reason}`);
  }
}

/** Brings the schema to the newest version; throws (never just logs) on failure. */
export async function migrateToLatest(db: Db): Promise<void> {
  requireSuccess(await migrator(db).migrateToLatest(), 'up');
}

/** Undoes the newest applied migration; answers its name, or undefined when none was left. */
export async function migrateOneDown(db: Db): Promise<string | undefined> {
  const result = await migrator(db).migrateDown();
  requireSuccess(result, 'down');
  return result.results?.[0]?.migrationName;
}

/** Undoes every migration (used by the up → down → up test). */
export async function migrateAllDown(db: Db): Promise<void> {
  while (await migrateOneDown(db));
}
