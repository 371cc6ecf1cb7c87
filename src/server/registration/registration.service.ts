import { schoolToday } from '../../shared/dates.js';
import {
  CROSS_FIELD_NAMES,
  crossFieldProblems,
  dayRuleMessages,
  findField,
  IDENTITY_TAKEN_MESSAGES,
  isIdentityField,
  REGISTRATION_FIELDS,
  type FieldValue,
  type IdentityField,
} from '../../shared/registration.fields.js';
import { computeProgress, type ProgressFlags } from '../../shared/registration.progress.js';
import {
  AGREEING_KINDS,
  DECLARATION_MESSAGES,
  WINDOW_MESSAGES,
  type Agreement,
  type RegistrationPeriod,
  type RegistrationStatus,
  type SaveRegistrationPeriodInput,
  type SaveStudentAnswer,
  type StudentRecord,
} from '../../shared/registration.schemas.js';
import type { SaveStudentBody } from '../../shared/registration-save.schemas.js';
import { writeAudit } from '../audit/audit.repository.js';
import { inGroupedTransaction, nowIso, type Db } from '../db/database.js';
import { identityFieldOfError } from '../db/unique-violation.js';
import { AppError, badRequest, forbidden, notFound } from '../http/errors.js';
import type { Actor } from '../http/request-context.js';
import { isFamilyCaller, isStudentCaller, mayAgreeToDeclaration, type Caller } from '../access/roles.js';
import { authorizeStudentRow } from '../access/scopes.js';
import { isLookupValue } from '../lookups/lookups.service.js';
import { REVIEW_MESSAGES } from '../../shared/review.schemas.js';
import * as family from '../family/family.service.js';
import * as reRegistration from '../re-registration/re-registration.service.js';
import type { ReRegistrationStep, StudentReRegistration } from '../../shared/re-registration.schemas.js';
import * as repo from './registration.repository.js';

// ---------------------------------------------------------------------------------------------
// Reading the record

/** Who agreed to the declaration, while it is agreed; a name of null: agreed before it was recorded. */
function agreementOf(row: repo.StudentRow): Agreement | null {
  if (Number(row.agree_terms_conditions) !== 1) return null;
  const kind = (AGREEING_KINDS as readonly string[]).includes(row.agreed_by_kind ?? '') ? (row.agreed_by_kind as Agreement['kind']) : null;
  return { name: row.agreed_by_name, kind, at: row.agreed_at };
}

function toRecord(row: repo.StudentRow, progress: ProgressFlags, familyLinked: boolean): StudentRecord {
  const source = row as unknown as Record<string, FieldValue>;
  const record: StudentRecord = {
    id: row.id,
    house_code: row.house_code,
    class_id: row.class_id,
    agree_terms_date: row.agree_terms_date,
    updated_at: row.updated_at,
    progress,
    agreement: agreementOf(row),
    family_linked: familyLinked,
  };
  for (const field of REGISTRATION_FIELDS) record[field.name] = source[field.name] ?? null;
  return record;
}

/** The registration record with its progress flags (computed now, so never stale). */
export async function getStudentRecord(db: Db, id: string, now = new Date()): Promise<StudentRecord> {
  const found = await repo.findStudentRow(db, id);
  if (!found) throw notFound('No student has this ID.');
  const progress = computeProgress(found.row, found.documentTypes, { today: schoolToday(now) });
  return toRecord(found.row, progress, await repo.hasLinkedFamily(db, id));
}

// ---------------------------------------------------------------------------------------------
// The registration window (docs/requirements.md R6)

/** No window row at all: registration is closed. */
const CLOSED: Pick<RegistrationPeriod, 'open' | 'deadline'> = { open: 0, deadline: null };

/** The window that applies to a form level: its own row, else the default, else closed. */
async function periodFor(db: Db, formLevel: number | null): Promise<Pick<RegistrationPeriod, 'open' | 'deadline'>> {
  const own = formLevel === null ? undefined : await repo.findPeriod(db, formLevel);
  const period = own ?? (await repo.findPeriod(db, null));
  return period ?? CLOSED;
}

/**
 * Whether editing is allowed: open = 1 and the deadline, a date, not passed. The deadline day is
 * included through its end in Trinidad time, judged by the server's clock (docs/decisions.md).
 */
function statusOf(period: Pick<RegistrationPeriod, 'open' | 'deadline'>, today: string, formLevel: number | null): RegistrationStatus {
  const base = { open: period.open, deadline: period.deadline, form_level: formLevel };
  if (period.open !== 1) return { ...base, editable: false, reason: WINDOW_MESSAGES.closed };
  if (period.deadline !== null && today > period.deadline) {
    return { ...base, editable: false, reason: WINDOW_MESSAGES.deadlinePassed(period.deadline) };
  }
  return { ...base, editable: true };
}

/** The window of a student's form level (or the default window for null or an unknown student). */
export async function getRegistrationStatus(db: Db, studentId: string | null, now = new Date()): Promise<RegistrationStatus> {
  // Every save asks this: the form level and both windows come in one read.
  const window = studentId === null ? undefined : await repo.findWindowOfStudent(db, studentId);
  if (window) return statusOfWindow(window, schoolToday(now));
  return statusOf(await periodFor(db, null), schoolToday(now), null);
}

/** The windows of several students (a family's home cards, D76) in one read; an unknown student is left out. */
export async function getRegistrationStatuses(db: Db, studentIds: readonly string[], now = new Date()): Promise<Map<string, RegistrationStatus>> {
  const today = schoolToday(now);
  const windows = await repo.findWindowsOfStudents(db, studentIds);
  return new Map([...windows].map(([id, window]) => [id, statusOfWindow(window, today)] as const));
}

/** The window, closed to the family while the office has the record verified (D56). */
function statusOfWindow(window: repo.StudentWindow, today: string): RegistrationStatus {
  const status = statusOf(window.period ?? CLOSED, today, window.formLevel);
  return window.review === 'verified' ? { ...status, editable: false, reason: REVIEW_MESSAGES.readOnly } : status;
}

// ---------------------------------------------------------------------------------------------
// Saving fields (POST /api/student)

const asText = (value: FieldValue | undefined): string | null => (value === null || value === undefined ? null : String(value));

/** 409 naming the identity number another student has, on its field (the screens show it there). */
function identityTaken(field: IdentityField): AppError {
  const message = IDENTITY_TAKEN_MESSAGES[field];
  return new AppError(409, 'conflict', message, { [field]: [message] });
}

/** The sent fields split by the rules of the school's day (no future dates): what may be saved, and why the rest may not. */
function checkSchoolDay(sent: Omit<SaveStudentBody, 'id'>, today: string): { changes: Record<string, FieldValue>; dayErrors: Record<string, string[]> } {
  const changes: Record<string, FieldValue> = {};
  // No prototype: a field named like an Object.prototype member must not find one.
  const dayErrors: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const [name, value] of Object.entries(sent)) {
    const field = findField(name);
    if (!field || value === undefined) continue;
    const messages = dayRuleMessages(field, value, { today });
    if (messages.length > 0) dayErrors[name] = messages;
    else changes[name] = value;
  }
  return { changes, dayErrors };
}

/** What the caller may not send at all: a read-only field from a family, nothing, or the declaration from anyone but a linked family account (D75). */
function checkCallerMayChange(caller: Caller, changes: Record<string, FieldValue>): void {
  if (isFamilyCaller(caller)) {
    const readOnly = Object.keys(changes).filter((name) => findField(name)?.readOnlyForStudents);
    if (readOnly.length > 0) {
      throw badRequest('This field is read-only.', Object.fromEntries(readOnly.map((name) => [name, ['This field is read-only.']])));
    }
  }
  if (Object.keys(changes).length === 0) throw badRequest('Send at least one field to save.');
  // The declaration is the parent's: only a family account linked to the child agrees (or
  // withdraws) online; the link was checked with the row before this.
  if ('agree_terms_conditions' in changes && !mayAgreeToDeclaration(caller)) {
    throw forbidden(isStudentCaller(caller) ? DECLARATION_MESSAGES.studentRefused : DECLARATION_MESSAGES.staffRefused);
  }
}

/** Selects drawn from a lookup must name a row of it (towns, religions, classes…). */
async function checkLookups(trx: Db, changes: Record<string, FieldValue>): Promise<void> {
  const lookupErrors: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(changes)) {
    const field = findField(name);
    if (field?.control === 'select' && field.lookup && typeof value === 'string' && !(await isLookupValue(trx, field.lookup, value))) {
      lookupErrors[name] = ['Choose one of the listed values.'];
    }
  }
  if (Object.keys(lookupErrors).length > 0) throw badRequest(Object.values(lookupErrors)[0]![0]!, lookupErrors);
}

/**
 * The date the terms were agreed, and who agreed, follow the agreement (server-managed, D75):
 * sets `agree_terms_date` among the changes and answers the agreement's own columns.
 */
async function agreementColumns(
  trx: Db,
  caller: Caller,
  changes: Record<string, FieldValue>,
  old: Record<string, FieldValue>,
  { today, now }: { today: string; now: Date },
): Promise<Record<string, string | number | null>> {
  if (!('agree_terms_conditions' in changes) || changes.agree_terms_conditions === old.agree_terms_conditions) return {};
  const agreed = changes.agree_terms_conditions === 1;
  changes.agree_terms_date = agreed ? today : null;
  return {
    agreed_by_user_id: agreed ? caller.userId : null,
    agreed_by_name: agreed ? await repo.findAccountName(trx, caller.userId) : null,
    // A family account's: the only kind that may agree (checkCallerMayChange).
    agreed_by_kind: agreed ? caller.kind : null,
    agreed_at: agreed ? now.toISOString() : null,
  };
}

/**
 * The rules between fields (place in family, D77), on the record as this save would leave it,
 * when the save changes one of their fields (an old record that breaks them still saves others);
 * then a birth certificate pin or SEA number belongs to one student (D40), as the import checks.
 */
async function checkChangedRecord(trx: Db, id: string, old: Record<string, FieldValue>, changes: Record<string, FieldValue>, changed: [string, FieldValue][]): Promise<void> {
  const changedNames = changed.map(([name]) => name);
  const crossErrors = changedNames.some((name) => CROSS_FIELD_NAMES.has(name)) ? crossFieldProblems({ ...old, ...changes }, changedNames) : {};
  const firstCrossError = Object.values(crossErrors)[0]?.[0];
  if (firstCrossError !== undefined) throw badRequest(firstCrossError, crossErrors);
  for (const [name, value] of changed) {
    if (isIdentityField(name) && typeof value === 'string' && (await repo.isIdentityTaken(trx, name, value, id))) throw identityTaken(name);
  }
}

/**
 * Writes the changed columns (a save racing another past the identity check is refused by the
 * unique index, answered the same), one audit row per field, and what a change sets off: the
 * old parent address told of a student's change (D66), a returned record reopened, and a
 * family's re-registration step confirmed (D62; an office correction confirms nothing).
 */
async function writeChanges(
  trx: Db,
  caller: Caller,
  actor: Actor,
  { id, row, window }: { id: string; row: repo.StudentRow; window: repo.StudentWindow },
  changed: [string, FieldValue][],
  { agreedBy, updatedAt }: { agreedBy: Record<string, string | number | null>; updatedAt: string },
): Promise<void> {
  const old = row as unknown as Record<string, FieldValue>;
  await repo.updateStudentColumns(trx, id, { ...Object.fromEntries(changed), ...agreedBy }, updatedAt).catch((error: unknown) => {
    const field = identityFieldOfError(error);
    throw field ? identityTaken(field) : error;
  });
  await writeAudit(
    trx,
    changed.map(([name, value]) => ({ ...actor, action: 'update', entity: 'student', entity_id: id, field: name, old_value: asText(old[name]), new_value: asText(value) })),
  );
  if (isStudentCaller(caller)) {
    await family.tellOldParentAddresses(trx, row, changed.map(([name, value]) => ({ field: name, oldValue: asText(old[name]), newValue: asText(value) })));
  }
  if (isFamilyCaller(caller) && window.review === 'returned') await reopenReturned(trx, actor, id);
  if (isFamilyCaller(caller)) await reRegistration.confirmChangedSteps(trx, actor, id, changed.map(([name]) => findField(name)?.step ?? ''));
}

/**
 * Saves only the fields sent, whose values the route's schema has checked against the catalogue's
 * rules (`SaveStudentBodySchema`); here the rules that need more than the value: the school's day
 * (no future dates), the caller and the database. In one transaction: read the old values
 * (locked), write the changes, one audit row per changed field, the new progress flags and
 * `updated_at`. Students: only their own record, never house_code/class_id, and only while the
 * window is open. Administrators may save any record at any time (office corrections).
 */
export async function saveStudentFields(db: Db, caller: Caller, actor: Actor, body: SaveStudentBody, now = new Date()): Promise<SaveStudentAnswer> {
  const today = schoolToday(now);
  const { id, ...sent } = body;
  const { changes, dayErrors } = checkSchoolDay(sent, today);

  // Saves arriving together share one commit (group commit); each still answers only after it.
  return inGroupedTransaction(db, async (trx) => {
    // The row, its document slots and the registration window in one read, and the caller's
    // reach judged on that row (the route leaves it to this read: the student is read once). A
    // refusal comes before any other answer, as the access layer's would.
    const found = await repo.findStudentForSave(trx, id, { lock: true });
    authorizeStudentRow(caller, 'student.edit', id, found?.row);
    const firstDayError = Object.values(dayErrors)[0]?.[0];
    if (firstDayError !== undefined) throw badRequest(firstDayError, dayErrors);
    checkCallerMayChange(caller, changes);
    await checkLookups(trx, changes);

    if (!found) throw notFound('No student has this ID.');
    const { row, documentTypes, window } = found;
    if (isFamilyCaller(caller)) {
      // Refused before anything is written (the work's savepoint is rolled back, empty).
      const status = statusOfWindow(window, today);
      if (!status.editable) throw new AppError(422, 'registration_closed', status.reason ?? WINDOW_MESSAGES.closed);
    }
    const old = row as unknown as Record<string, FieldValue>;
    const agreedBy = await agreementColumns(trx, caller, changes, old, { today, now });
    const changed = Object.entries(changes).filter(([name, value]) => asText(old[name]) !== asText(value));
    await checkChangedRecord(trx, id, old, changes, changed);
    const updatedAt = nowIso();
    if (changed.length > 0) await writeChanges(trx, caller, actor, { id, row, window }, changed, { agreedBy, updatedAt });
    // The row read for this save is its own: the record after the save is that row with the
    // changes written onto it (the audit rows above hold the old values already).
    const after = Object.assign(old, changes, agreedBy);
    const progress = computeProgress(after, documentTypes, { today });
    await repo.upsertProgress(trx, id, progress, updatedAt);
    return { id, saved: changes, progress, updated_at: changed.length > 0 ? updatedAt : row.updated_at };
  });
}

// ---------------------------------------------------------------------------------------------
// Re-registration (D62)

/**
 * "Nothing changed" on a step of the record's re-registration. The family is held to the same
 * window as a save (closed, past the deadline, or verified: 422 with the reason); staff may confirm
 * on the family's behalf at any time.
 */
export async function confirmReRegistrationStep(db: Db, caller: Caller, actor: Actor, studentId: string, step: ReRegistrationStep, now = new Date()): Promise<StudentReRegistration> {
  if (isFamilyCaller(caller)) {
    const window = await repo.findWindowOfStudent(db, studentId);
    if (!window) throw notFound('No student has this ID.');
    const status = statusOfWindow(window, schoolToday(now));
    if (!status.editable) throw new AppError(422, 'registration_closed', status.reason ?? WINDOW_MESSAGES.closed);
  }
  return db.transaction().execute((trx) => reRegistration.confirmUnchanged(trx, actor, studentId, step));
}

// ---------------------------------------------------------------------------------------------
// The office's decision (D56)

/**
 * A returned record that the family changes goes back to the office: the return is removed (its
 * note stays in the audit log), so the record is submitted again once every step is complete.
 * Called inside the family's save or upload transaction.
 */
export async function reopenReturned(db: Db, actor: Actor, studentId: string): Promise<void> {
  const removed = await repo.deleteReview(db, studentId, 'returned');
  if (!removed) return;
  await writeAudit(db, {
    ...actor,
    action: 'resubmit',
    entity: 'registration',
    entity_id: studentId,
    field: 'review',
    old_value: 'returned',
    new_value: null,
  });
}

// ---------------------------------------------------------------------------------------------
// Administrators: the periods

/**
 * Recomputes and stores a student's progress flags from the record as it is now (inside the
 * caller's transaction), and answers them: for changes made outside the record, such as a
 * document uploaded or removed.
 */
export async function refreshProgress(db: Db, studentId: string, now = new Date()): Promise<ProgressFlags> {
  const record = await getStudentRecord(db, studentId, now);
  await repo.upsertProgress(db, studentId, record.progress, nowIso());
  return record.progress;
}

export function listRegistrationPeriods(db: Db): Promise<RegistrationPeriod[]> {
  return repo.listPeriods(db);
}

/** Sets open/deadline for a form level (or the default) and audits the change. */
export async function saveRegistrationPeriod(db: Db, actor: Actor, input: SaveRegistrationPeriodInput): Promise<RegistrationPeriod[]> {
  await db.transaction().execute(async (trx) => {
    const before = await repo.findPeriod(trx, input.form_level);
    await repo.savePeriod(trx, input);
    const label = input.form_level === null ? 'all' : String(input.form_level);
    const entries = (['open', 'deadline'] as const)
      .filter((key) => asText(before?.[key] ?? null) !== asText(input[key]))
      .map((key) => ({
        ...actor,
        action: before ? 'update' : 'create',
        entity: 'registration_period',
        entity_id: label,
        field: key,
        old_value: asText(before?.[key] ?? null),
        new_value: asText(input[key]),
      }));
    await writeAudit(trx, entries);
  });
  return repo.listPeriods(db);
}

/** Removes a form level's own window (the default applies again). */
export async function removeRegistrationPeriod(db: Db, actor: Actor, formLevel: number): Promise<RegistrationPeriod[]> {
  await db.transaction().execute(async (trx) => {
    const before = await repo.findPeriod(trx, formLevel);
    if (!before) throw notFound('This form level has no window of its own.');
    await repo.deletePeriod(trx, formLevel);
    await writeAudit(trx, { ...actor, action: 'delete', entity: 'registration_period', entity_id: String(formLevel), field: null, old_value: `open=${before.open} deadline=${before.deadline ?? ''}`, new_value: null });
  });
  return repo.listPeriods(db);
}
