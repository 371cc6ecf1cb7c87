import { schoolToday } from '../../shared/dates.js';
import { findSlot } from '../../shared/documents.slots.js';
import {
  fieldChangeLabel,
  isReRegistrationStep,
  RE_REGISTRATION_MESSAGES,
  RE_REGISTRATION_STEPS,
  reRegistrationStepLabel,
  type FieldChange,
  type ReRegistrationChanges,
  type ReRegistrationList,
  type ReRegistrationStep,
  type StudentReRegistration,
} from '../../shared/re-registration.schemas.js';
import { writeAudit } from '../audit/audit.repository.js';
import { nowIso, type Db } from '../db/database.js';
import { conflict, notFound } from '../http/errors.js';
import type { Actor } from '../http/request-context.js';
import * as repo from './re-registration.repository.js';

/**
 * Re-registration (docs/decisions.md D62). Opening a year asks every returning record
 * (a student in a class) to confirm each step again; "Nothing changed" or a change saved on a
 * step confirms it; the office reads what changed from the audit log since the opening. Every
 * function takes `db` or the caller's transaction, so the year rollover can open (and its undo
 * close) re-registration inside its own transaction.
 */

const STEP_KEYS: readonly ReRegistrationStep[] = RE_REGISTRATION_STEPS.map((step) => step.key);

/** The audit columns of an actor, and no other field a wider object passed as one carries. */
function auditActor(actor: Actor): Actor {
  return { actor_user_id: actor.actor_user_id, actor_label: actor.actor_label, ip: actor.ip, request_id: actor.request_id };
}

/** Whether the year's re-registration is open (the rollover opens it only when it is not). */
export async function isReRegistrationOpen(db: Db, year: number): Promise<boolean> {
  return (await repo.findYear(db, year)) !== undefined;
}

/**
 * Opens the year's re-registration inside the caller's transaction: a pending confirmation of
 * each step for every student in a class now, and an audit row. Refused (409) when the year is
 * already open, so a second click or a rerun never resets what families confirmed. Changes
 * nothing else: a verified record stays verified (the rollover decides that, D62).
 */
export async function openReRegistration(trx: Db, { year, actor }: { year: number; actor: Actor }): Promise<{ year: number; students: number }> {
  if (await repo.findYear(trx, year)) throw conflict(RE_REGISTRATION_MESSAGES.alreadyOpen(year));
  const at = nowIso();
  await repo.insertYear(trx, { year, opened_by: actor.actor_user_id, at });
  const students = await repo.insertPendingSteps(trx, year, STEP_KEYS, at);
  await writeAudit(trx, { ...auditActor(actor), action: 'open', entity: 're_registration', entity_id: String(year), field: null, old_value: null, new_value: `${students} students` });
  return { year, students };
}

/**
 * Undoes `openReRegistration` inside the caller's transaction: the year and every confirmation of
 * it go (the audit log keeps what was confirmed and changed). Answers null when the year was never
 * opened, so an undo that runs twice is harmless.
 */
export async function closeReRegistration(trx: Db, year: number, actor?: Actor): Promise<{ year: number; students: number } | null> {
  if (!(await repo.findYear(trx, year))) return null;
  const students = await repo.deleteYear(trx, year);
  if (actor) await writeAudit(trx, { ...auditActor(actor), action: 'close', entity: 're_registration', entity_id: String(year), field: null, old_value: `${students} students`, new_value: null });
  return { year, students };
}

/**
 * The year an administrator is offered to open: the newest year the school has terms for (the
 * rollover creates the new year's), else the academic year of today (it starts in September).
 */
export async function listReRegistrations(db: Db, now = new Date()): Promise<ReRegistrationList> {
  const today = schoolToday(now);
  const calendarYear = Number(today.slice(0, 4));
  const byDate = Number(today.slice(5, 7)) >= 9 ? calendarYear : calendarYear - 1;
  return { suggested_year: (await repo.newestTermYear(db)) ?? byDate, years: await repo.listYears(db) };
}

function stateOf(found: Awaited<ReturnType<typeof repo.findStudentSteps>>): StudentReRegistration {
  if (!found) return { year: null, opened_at: null, steps: [], pending: 0 };
  const byStep = new Map(found.steps.map((row) => [row.step, row]));
  const steps = STEP_KEYS.filter((key) => byStep.has(key)).map((key) => {
    const row = byStep.get(key)!;
    return { step: key, label: reRegistrationStepLabel(key), confirmed_at: row.confirmed_at, confirmed_by: row.confirmed_by_label, how: row.how };
  });
  return { year: found.year.year, opened_at: found.year.opened_at, steps, pending: steps.filter((step) => step.confirmed_at === null).length };
}

async function requireStudent(db: Db, studentId: string): Promise<void> {
  if (!(await repo.studentExists(db, studentId))) throw notFound('No student has this ID.');
}

/** The record's newest re-registration and where each step stands (year null: none asks anything). */
export async function getStudentReRegistration(db: Db, studentId: string): Promise<StudentReRegistration> {
  await requireStudent(db, studentId);
  return stateOf(await repo.findStudentSteps(db, studentId));
}

/**
 * Confirms a step as it is ("Nothing changed") in the record's newest re-registration, with its
 * audit row. 409 when none asks anything of the record; a step already confirmed stays as it was
 * (answered, not audited again). The registration window is the caller's to check (the family's
 * rules live in the registration service).
 */
export async function confirmUnchanged(trx: Db, actor: Actor, studentId: string, step: ReRegistrationStep): Promise<StudentReRegistration> {
  await requireStudent(trx, studentId);
  const found = await repo.findStudentSteps(trx, studentId);
  if (!found || !found.steps.some((row) => row.step === step)) throw conflict(RE_REGISTRATION_MESSAGES.notOpen);
  const at = nowIso();
  const marked = await repo.confirmPendingSteps(trx, { studentId, steps: [step] }, { userId: actor.actor_user_id, label: actor.actor_label, how: 'unchanged', at });
  if (marked.length > 0) {
    await writeAudit(trx, { ...auditActor(actor), action: 're-register', entity: 'registration', entity_id: studentId, field: step, old_value: 'pending', new_value: 'unchanged' });
  }
  return stateOf(await repo.findStudentSteps(trx, studentId));
}

/**
 * Confirms the steps a family's saved change touched (a field of a data step, an upload): called
 * inside the save's transaction. Steps outside re-registration (the terms) and steps already
 * confirmed are left alone; nothing happens when no re-registration asks anything of the record.
 */
export async function confirmChangedSteps(trx: Db, actor: Actor, studentId: string, steps: Iterable<string>): Promise<void> {
  const wanted = [...new Set(steps)].filter(isReRegistrationStep);
  if (wanted.length === 0) return;
  const marked = await repo.confirmPendingSteps(trx, { studentId, steps: wanted }, { userId: actor.actor_user_id, label: actor.actor_label, how: 'changed', at: nowIso() });
  await writeAudit(
    trx,
    marked.map((step) => ({ ...auditActor(actor), action: 're-register', entity: 'registration', entity_id: studentId, field: step, old_value: 'pending', new_value: 'changed' })),
  );
}

/**
 * What changed in the record since its re-registration opened, field by field, from the audit log
 * (each `update` row of the record holds one field's old and new value; each upload its slot's
 * file). Several edits of one field read as one change: the value before the first, the value after
 * the last, by whom and when the last; a field set back to where it was is no change.
 */
export async function getReRegistrationChanges(db: Db, studentId: string): Promise<ReRegistrationChanges> {
  const state = await getStudentReRegistration(db, studentId);
  if (state.opened_at === null) return { ...state, changes: [] };
  const rows = await repo.listChangesSince(db, studentId, state.opened_at);
  const byField = new Map<string, FieldChange>();
  for (const row of rows) {
    const name = row.field!;
    const key = `${row.entity}:${name}`;
    const { label, step } = row.entity === 'document' ? { label: findSlot(name)?.label ?? name, step: 'documents' } : fieldChangeLabel(name);
    const before = byField.get(key);
    byField.set(key, {
      field: name,
      label,
      step,
      old_value: before ? before.old_value : row.old_value,
      new_value: row.new_value,
      by: row.actor_label,
      at: row.created_at,
    });
  }
  return { ...state, changes: [...byField.values()].filter((change) => change.old_value !== change.new_value) };
}
