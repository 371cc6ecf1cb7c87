import { schoolToday, toDayFirstDate } from '../../shared/dates.js';
import { listName } from '../../shared/students.schemas.js';
import { academicYearLabel } from '../../shared/school.constants.js';
import {
  RolloverPreviewSchema,
  defaultRolloverTarget,
  retainedTarget,
  sameDayNextYear,
  type RolloverClass,
  type RolloverPlanInput,
  type RolloverPreview,
  type RolloverRun,
  type RolloverRunAnswer,
  type RolloverState,
  type RolloverTerm,
} from '../../shared/rollover.schemas.js';
import { writeAudit, type AuditEntry } from '../audit/audit.repository.js';
import { nowIso, type Db } from '../db/database.js';
import { violatedUniqueIndex } from '../db/unique-violation.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import type { Actor } from '../http/request-context.js';
import { closeReRegistration, isReRegistrationOpen, openReRegistration } from '../re-registration/re-registration.service.js';
import { recordGraduations, undoGraduations } from '../enrolment/enrolment.service.js';
import * as repo from './rollover.repository.js';

/**
 * The year rollover (docs/decisions.md D60). `planRollover` checks a plan against the
 * school and answers what it would do; the preview answers that, and the run carries it out in
 * one transaction, as a list of steps, each returning the before-state its undo restores. The run
 * stores every step's before-state in `year_rollovers`; the undo, the same school day, calls each
 * step's undo in reverse order.
 */

/** A plan checked against the school: which students go where. */
export interface ResolvedPlan {
  fromYear: number;
  toYear: number;
  /**
   * Each class with students on the roll (or named in the mapping): the students who go with it
   * and their target (null: they leave), and its retained students with the class each goes to
   * (their own, or the next form's for a leaving class's student who stays on; D79).
   */
  moves: { from: string; formLevel: number; to: string | null; studentIds: string[]; retained: { id: string; to: string }[] }[];
  classes: { id: string; form_level: number }[];
  terms: RolloverTerm[];
  deadline: string | null;
  periods: number;
  reviews: number;
}

/** What a step sees while the run or the undo works. */
export interface RolloverContext {
  trx: Db;
  plan: ResolvedPlan;
  actor: Actor;
  /** The school's day of the run: former students' `left_on`. */
  today: string;
  at: string;
}

/**
 * One part of the run. `run` changes the school and answers the before-state (plain JSON) that
 * `undo` needs to put it back exactly; both work inside the run's (or the undo's) transaction.
 */
export interface RolloverStep<Before> {
  name: string;
  run(ctx: RolloverContext): Promise<Before>;
  undo(trx: Db, before: Before, ctx: { actor: Actor; at: string }): Promise<void>;
}

// ---- the steps ---------------------------------------------------------------------------------

interface ClassesBefore {
  /** Each student the run moved, let go or retained, with the class they were in. */
  students: { id: string; class_id: string; left: boolean }[];
}

/**
 * Classes move up by the mapping; the classes mapped to nothing leave and are kept as former
 * students. A retained student goes to their own target instead (D79), audited on their own.
 */
const moveClasses: RolloverStep<ClassesBefore> = {
  name: 'classes',
  async run({ trx, plan, actor, today }) {
    const before: ClassesBefore = { students: [] };
    const audit: AuditEntry[] = [];
    for (const move of plan.moves) {
      if (move.studentIds.length > 0) {
        if (move.to === null) await repo.markLeft(trx, move.studentIds, today, move.from);
        if (move.to === null) await recordGraduations(trx, move.studentIds, today, move.from, actor); // enrolment history (D80)
        else await repo.moveStudents(trx, move.studentIds, move.to);
      }
      for (const id of move.studentIds) {
        before.students.push({ id, class_id: move.from, left: move.to === null });
        audit.push({ ...actor, action: 'rollover', entity: 'student', entity_id: id, field: move.to === null ? 'left_on' : 'class_id', old_value: move.from, new_value: move.to ?? today });
      }
      for (const kept of move.retained) {
        if (kept.to !== move.from) await repo.moveStudents(trx, [kept.id], kept.to);
        before.students.push({ id: kept.id, class_id: move.from, left: false });
        audit.push({ ...actor, action: 'rollover-retain', entity: 'student', entity_id: kept.id, field: 'class_id', old_value: move.from, new_value: kept.to });
      }
    }
    for (let i = 0; i < audit.length; i += 200) await writeAudit(trx, audit.slice(i, i + 200));
    return before;
  },
  async undo(trx, before, { actor }) {
    const byClass = new Map<string, string[]>();
    for (const student of before.students) byClass.set(student.class_id, [...(byClass.get(student.class_id) ?? []), student.id]);
    for (const [classId, ids] of byClass) await repo.restoreClass(trx, ids, classId);
    await undoGraduations(trx, before.students.filter((s) => s.left).map((s) => s.id)); // enrolment history (D80)
    const audit: AuditEntry[] = before.students.map((s) => ({
      ...actor,
      action: 'rollover-undo',
      entity: 'student',
      entity_id: s.id,
      field: s.left ? 'left_on' : 'class_id',
      old_value: null,
      new_value: s.class_id,
    }));
    for (let i = 0; i < audit.length; i += 200) await writeAudit(trx, audit.slice(i, i + 200));
  },
};

/** The new year's three terms. */
const createTerms: RolloverStep<{ term_ids: number[] }> = {
  name: 'terms',
  async run({ trx, plan, at }) {
    return { term_ids: await repo.insertTerms(trx, plan.toYear, plan.terms, at) };
  },
  async undo(trx, before) {
    await repo.deleteTerms(trx, before.term_ids);
  },
};

/** Every registration window opens again, with the plan's deadline (the default window is created when the school has none). */
const resetPeriods: RolloverStep<{ periods: repo.PeriodRow[]; created_ids: number[] }> = {
  name: 'registration-periods',
  async run({ trx, plan, at }) {
    const periods = await repo.listPeriods(trx);
    await repo.openAllPeriods(trx, plan.deadline, at);
    const created_ids = periods.some((p) => p.form_level === null) ? [] : [await repo.insertDefaultPeriod(trx, plan.deadline, at)];
    return { periods, created_ids };
  },
  async undo(trx, before) {
    await repo.deletePeriods(trx, before.created_ids);
    for (const period of before.periods) await repo.restorePeriod(trx, period);
  },
};

/** The office's verified / returned decisions of the old year go, so families can edit their records again (D56). */
const clearReviews: RolloverStep<{ reviews: repo.ReviewRow[] }> = {
  name: 'registration-reviews',
  async run({ trx }) {
    const reviews = await repo.listReviews(trx);
    await repo.deleteAllReviews(trx);
    return { reviews };
  },
  async undo(trx, before) {
    await repo.restoreReviews(trx, before.reviews);
  },
};

/**
 * Every returning student is asked to confirm each registration step for the new year (D62), after
 * the classes moved, so the leavers are not asked. A year the administrator already opened by hand
 * is left as it is, and the undo leaves it open too.
 */
const openNewYearReRegistration: RolloverStep<{ year: number; opened: boolean }> = {
  name: 're-registration',
  async run({ trx, plan, actor }) {
    if (await isReRegistrationOpen(trx, plan.toYear)) return { year: plan.toYear, opened: false };
    await openReRegistration(trx, { year: plan.toYear, actor });
    return { year: plan.toYear, opened: true };
  },
  async undo(trx, before, { actor }) {
    if (before.opened) await closeReRegistration(trx, before.year, actor);
  },
};

/** The run's steps, in order; the undo takes them in reverse. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each step's before-state is its own type, stored as JSON
const STEPS: readonly RolloverStep<any>[] = [moveClasses, createTerms, resetPeriods, clearReviews, openNewYearReRegistration];

// ---- the plan ----------------------------------------------------------------------------------

const noTerms = () => conflict('The school has no academic terms yet: there is no year to roll over from.');

/** The default plan: every class to the next form's class of the same letter (Form 5 and 6 leave), the terms one year on, no deadline. */
async function defaultPlan(db: Db, fromYear: number): Promise<RolloverPlanInput> {
  const [classes, terms] = await Promise.all([repo.listFormClasses(db), repo.listTermsOf(db, fromYear)]);
  const choices = classes.map((c) => ({ class_id: c.id, form_level: c.form_level }));
  const byTerm = new Map(terms.map((t) => [t.term, t]));
  return {
    mapping: classes.map((c) => ({ from: c.id, to: defaultRolloverTarget(c.id, c.form_level, choices) })),
    terms: ([1, 2, 3] as const).map((term) => {
      const current = byTerm.get(term);
      return { term, start_date: current ? sameDayNextYear(current.start_date) : '', end_date: current ? sameDayNextYear(current.end_date) : '' };
    }),
    registration_deadline: null,
    retained: [],
  };
}

/**
 * When the school may roll over from `fromYear` (D79): once that year has begun, that is once the
 * first of its terms has started in school time. A rollover ran today into a year that starts in
 * September must not be followed by another that same day (two year-groups would leave).
 * Answers null when it may today, else the first day it may and the reason.
 */
function rolloverWaitsFor(fromYear: number, terms: readonly { start_date: string }[], today: string): { day: string; reason: string } | null {
  const firstStart = terms.map((t) => t.start_date).sort()[0];
  if (firstStart === undefined || firstStart <= today) return null;
  return {
    day: firstStart,
    reason: `The school is already in ${academicYearLabel(fromYear)}, which begins on ${toDayFirstDate(firstStart)}. The rollover to ${academicYearLabel(fromYear + 1)} is possible from that day.`,
  };
}

/**
 * Checks a plan against the school on the school day `today` and resolves it: the year being left
 * has begun (else 409 with the day the rollover becomes possible), every class with students has
 * a move, every target is a class of the next form, every retained student is on the roll in a
 * class, the new year's first term starts after the current year ends. Throws 400 with every
 * problem by field; answers who goes where.
 */
export async function planRollover(db: Db, input: RolloverPlanInput, today: string = schoolToday()): Promise<ResolvedPlan> {
  const fromYear = await repo.findCurrentYear(db);
  if (fromYear === null) throw noTerms();
  const [classes, students, currentTerms, periods, reviews] = await Promise.all([
    repo.listFormClasses(db),
    repo.listRollStudents(db),
    repo.listTermsOf(db, fromYear),
    repo.listPeriods(db),
    repo.countReviews(db),
  ]);
  const waits = rolloverWaitsFor(fromYear, currentTerms, today);
  if (waits) throw conflict(waits.reason);
  const byId = new Map(classes.map((c) => [c.id.toUpperCase(), c]));
  const studentsOf = new Map<string, string[]>();
  for (const s of students) studentsOf.set(s.class_id, [...(studentsOf.get(s.class_id) ?? []), s.id]);

  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  await checkRetained(db, input.retained, new Set(students.map((s) => s.id)), add);
  const retained = new Set(input.retained);
  const choices = classes.map((c) => ({ class_id: c.id, form_level: c.form_level }));
  const moveOf = (from: { id: string; form_level: number }, to: string | null): ResolvedPlan['moves'][number] => {
    const all = studentsOf.get(from.id) ?? [];
    return {
      from: from.id,
      formLevel: from.form_level,
      to,
      studentIds: all.filter((id) => !retained.has(id)),
      retained: all.filter((id) => retained.has(id)).map((id) => ({ id, to: retainedTarget({ class_id: from.id, form_level: from.form_level }, to === null, choices) })),
    };
  };
  const moves: ResolvedPlan['moves'] = [];
  input.mapping.forEach((move, index) => {
    const from = byId.get(move.from.toUpperCase());
    if (!from) return add(`mapping.${index}.from`, `The school has no class ${move.from}.`);
    if (move.to === null) return void moves.push(moveOf(from, null));
    const to = byId.get(move.to.toUpperCase());
    if (!to) return add(`mapping.${index}.to`, `There is no class ${move.to}: choose a class of Form ${from.form_level + 1}, or let ${from.id} leave.`);
    if (to.form_level !== from.form_level + 1) return add(`mapping.${index}.to`, `${from.id} moves up one form: choose a class of Form ${from.form_level + 1}, not ${to.id}.`);
    moves.push(moveOf(from, to.id));
  });
  const mapped = new Set(moves.map((m) => m.from));
  const named = new Set(input.mapping.map((m) => m.from.toUpperCase()));
  for (const c of classes) {
    const count = studentsOf.get(c.id)?.length ?? 0;
    if (count > 0 && !mapped.has(c.id) && !named.has(c.id.toUpperCase())) add('mapping', `Say where ${c.id} goes (${count} students).`);
  }
  // Students in a class the school no longer lists would be left behind silently.
  for (const [classId, ids] of studentsOf) if (!byId.has(classId.toUpperCase())) add('mapping', `${ids.length} students are in ${classId}, which is not a form class: move them first.`);

  const lastEnd = currentTerms.map((t) => t.end_date).sort().at(-1);
  const firstStart = input.terms[0]?.start_date;
  if (lastEnd && firstStart && firstStart <= lastEnd) {
    add('terms.0.start_date', `Term 1 of ${academicYearLabel(fromYear + 1)} must start after ${academicYearLabel(fromYear)} ends (${toDayFirstDate(lastEnd)}).`);
  }
  if (Object.keys(errors).length > 0) throw badRequest('The rollover plan has problems: nothing was changed.', errors);
  return {
    fromYear,
    toYear: fromYear + 1,
    moves,
    classes: classes.map((c) => ({ id: c.id, form_level: c.form_level })),
    terms: input.terms,
    deadline: input.registration_deadline,
    periods: periods.some((p) => p.form_level === null) ? periods.length : periods.length + 1,
    reviews,
  };
}

/**
 * Every retained ID must be a student on the roll in a class (D79): an unknown ID, a former
 * student or a student in no class is a problem of that entry (`retained.N`).
 */
async function checkRetained(db: Db, ids: readonly string[], onRoll: ReadonlySet<string>, add: (field: string, message: string) => void): Promise<void> {
  const missing = ids.filter((id) => !onRoll.has(id));
  if (missing.length === 0) return;
  const found = new Map((await repo.findStudentsByIds(db, missing)).map((s) => [s.id, s]));
  ids.forEach((id, index) => {
    if (onRoll.has(id)) return;
    const student = found.get(id);
    if (!student) add(`retained.${index}`, `No student has the ID ${id}.`);
    else if (student.left_on !== null) add(`retained.${index}`, `${id} has left the school: only students on the roll can stay in their form.`);
    else add(`retained.${index}`, `${id} is in no class: only students in a class move up or stay.`);
  });
}

/** The counts a plan shows: per class, who goes where, who is retained and how many each class holds after. */
export function previewOf(plan: ResolvedPlan): RolloverPreview {
  const moveOf = new Map(plan.moves.map((m) => [m.from, m]));
  const arriving = new Map<string, number>();
  const arrive = (classId: string, n: number) => arriving.set(classId, (arriving.get(classId) ?? 0) + n);
  for (const m of plan.moves) {
    if (m.to) arrive(m.to, m.studentIds.length);
    for (const kept of m.retained) arrive(kept.to, 1);
  }
  const classes: RolloverClass[] = plan.classes.map((c) => ({
    class_id: c.id,
    form_level: c.form_level,
    students: (moveOf.get(c.id)?.studentIds.length ?? 0) + (moveOf.get(c.id)?.retained.length ?? 0),
    to: moveOf.get(c.id)?.to ?? null,
    after: arriving.get(c.id) ?? 0,
    retained: moveOf.get(c.id)?.retained.length ?? 0,
  }));
  const count = (leaving: boolean) => plan.moves.filter((m) => (m.to === null) === leaving).reduce((n, m) => n + m.studentIds.length, 0);
  return {
    from_year: plan.fromYear,
    to_year: plan.toYear,
    classes,
    moving: count(false),
    leaving: count(true),
    retained: plan.moves.reduce((n, m) => n + m.retained.length, 0),
    terms: plan.terms,
    periods: plan.periods,
    registration_deadline: plan.deadline,
    reviews_cleared: plan.reviews,
  };
}

/** The dry run: what the run would do with this plan, nothing written. */
export async function previewRollover(db: Db, input: RolloverPlanInput, now = new Date()): Promise<RolloverPreview> {
  return previewOf(await planRollover(db, input, schoolToday(now)));
}

function runOf(row: repo.RolloverRow, newestStandingId: number | null, today: string): RolloverRun {
  return {
    id: row.id,
    from_year: row.from_year,
    to_year: row.to_year,
    run_on: row.run_on,
    run_at: row.created_at,
    undone_at: row.undone_at,
    can_undo: row.undone_at === null && row.id === newestStandingId && row.run_on === today,
    summary: RolloverPreviewSchema.parse(JSON.parse(row.summary)),
  };
}

async function listRuns(db: Db, today: string): Promise<RolloverRun[]> {
  const rows = await repo.listRollovers(db);
  const newestStanding = rows.find((row) => row.undone_at === null)?.id ?? null;
  return rows.map((row) => runOf(row, newestStanding, today));
}

/**
 * The screen's start: the year being left, every class with its students, the default plan, the
 * past runs, and the day from which a rollover is possible when it is not today (D79).
 */
export async function getRolloverState(db: Db, now = new Date()): Promise<RolloverState> {
  const fromYear = await repo.findCurrentYear(db);
  if (fromYear === null) throw noTerms();
  const today = schoolToday(now);
  const [classes, students, plan, runs, terms] = await Promise.all([
    repo.listFormClasses(db),
    repo.listRollStudentNames(db),
    defaultPlan(db, fromYear),
    listRuns(db, today),
    repo.listTermsOf(db, fromYear),
  ]);
  const counts = new Map<string, number>();
  for (const s of students) counts.set(s.class_id, (counts.get(s.class_id) ?? 0) + 1);
  const order = new Map(classes.map((c, index) => [c.id, index]));
  const waits = rolloverWaitsFor(fromYear, terms, today);
  return {
    from_year: fromYear,
    to_year: fromYear + 1,
    classes: classes.map((c) => ({ class_id: c.id, form_level: c.form_level, students: counts.get(c.id) ?? 0 })),
    students: students
      .map((s) => ({ id: s.id, name: listName(s), class_id: s.class_id }))
      .sort((a, b) => (order.get(a.class_id) ?? 0) - (order.get(b.class_id) ?? 0) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
    plan,
    runs,
    not_before: waits?.day ?? null,
    not_before_reason: waits?.reason ?? null,
  };
}

/**
 * Runs the rollover: the plan is checked again inside the transaction (so what it moves is what is
 * there at that moment), every step runs, the run is stored with every step's before-state and
 * audited. Any failure rolls the whole of it back.
 */
export async function runRollover(db: Db, actor: Actor, input: RolloverPlanInput, now = new Date()): Promise<RolloverRunAnswer> {
  const today = schoolToday(now);
  try {
    const id = await db.transaction().execute(async (trx) => {
      const plan = await planRollover(trx, input, today);
      const at = nowIso();
      const ctx: RolloverContext = { trx, plan, actor, today, at };
      const before: Record<string, unknown> = {};
      for (const step of STEPS) before[step.name] = await step.run(ctx);
      const summary = previewOf(plan);
      const runId = await repo.insertRollover(trx, {
        from_year: plan.fromYear,
        to_year: plan.toYear,
        run_on: today,
        run_by_user_id: actor.actor_user_id,
        before_state: JSON.stringify(before),
        summary: JSON.stringify(summary),
        created_at: at,
        updated_at: at,
      });
      await writeAudit(trx, {
        ...actor,
        action: 'rollover',
        entity: 'school-year',
        entity_id: String(runId),
        field: 'year',
        old_value: academicYearLabel(plan.fromYear),
        new_value: `${academicYearLabel(plan.toYear)}: ${summary.moving} moved up, ${summary.leaving} left, ${summary.retained} retained, ${summary.terms.length} terms, ${summary.periods} windows opened, ${summary.reviews_cleared} reviews cleared`,
      });
      return runId;
    });
    const run = (await listRuns(db, today)).find((r) => r.id === id)!;
    return { message: `The school is now in ${academicYearLabel(run.to_year)}: ${run.summary.moving} students moved up, ${run.summary.leaving} left, ${run.summary.retained} retained.`, run };
  } catch (error) {
    // Two runs at once: the second one's terms meet the first one's (academic_terms is unique by year and term).
    if (violatedUniqueIndex(error) === 'academic_terms_year_term_uq' || isSqliteTermClash(error)) throw conflict('The new year already has its terms: another rollover ran at the same time. Reload the page.');
    throw error;
  }
}

function isSqliteTermClash(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message.includes('UNIQUE constraint failed: academic_terms.');
}

/**
 * Undoes a run, the school day it ran and while no later run stands: every step's undo, in reverse
 * order, from the stored before-state; the run is marked undone and the undo audited.
 */
export async function undoRollover(db: Db, actor: Actor, id: number, now = new Date()): Promise<RolloverRunAnswer> {
  const today = schoolToday(now);
  await db.transaction().execute(async (trx) => {
    const row = await repo.findRollover(trx, id);
    if (!row) throw notFound('There is no such rollover.');
    if (row.undone_at !== null) throw conflict('This rollover has already been undone.');
    if (row.run_on !== today) throw conflict(`A rollover can be undone only on the day it ran (${toDayFirstDate(row.run_on)}); correct classes and terms by hand instead.`);
    if (await repo.hasLaterRollover(trx, id)) throw conflict('A later rollover stands: undo that one first.');
    const at = nowIso();
    // The conditional update first: a second undo at the same time waits here and then finds it done.
    if (!(await repo.markUndone(trx, id, actor.actor_user_id, at))) throw conflict('This rollover has already been undone.');
    const before = JSON.parse(row.before_state) as Record<string, unknown>;
    for (const step of [...STEPS].reverse()) {
      if (step.name in before) await step.undo(trx, before[step.name], { actor, at });
    }
    await writeAudit(trx, {
      ...actor,
      action: 'rollover-undo',
      entity: 'school-year',
      entity_id: String(id),
      field: 'year',
      old_value: academicYearLabel(row.to_year),
      new_value: academicYearLabel(row.from_year),
    });
  });
  const run = (await listRuns(db, today)).find((r) => r.id === id) ?? runOf((await repo.findRollover(db, id))!, null, today);
  return { message: `The rollover to ${academicYearLabel(run.to_year)} is undone: the school is back in ${academicYearLabel(run.from_year)}.`, run };
}
