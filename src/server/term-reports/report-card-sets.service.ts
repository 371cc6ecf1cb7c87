import { writeAudit } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import type { Caller } from '../access/roles.js';
import { notFound } from '../http/errors.js';
import type { Actor } from '../http/request-context.js';
import { joinRenderedPdfs, renderPdf } from '../pdf/render-on-pool.js';
import { POOL_THREADS } from '../workers/worker-pool.js';
import type { TermNumber } from '../../shared/school.constants.js';
import { REPORT_CARDS_PER_PART } from '../../shared/term-reports.schemas.js';
import { buildReportCardSet } from './report-card.pdf.js';
import * as repo from './term-reports.repository.js';
import { loadReportCards } from './term-reports.service.js';

/**
 * Report day (docs/decisions.md D59): a class's report cards as one PDF, a form level's
 * as one PDF per class. Which cards: the students in the class today who have results for the
 * term, in list order (the policy reaches a form teacher's students by today's class, so a
 * teacher prints exactly the cards they could open one by one). Each card is the single card's
 * content (report-card.pdf.ts); a part of REPORT_CARDS_PER_PART cards is one rendering on the
 * worker pool, and the parts are joined there too.
 */

export interface ClassCards {
  classId: string;
  formLevel: number | null;
  studentIds: string[];
}

export interface CardsPlan {
  classes: ClassCards[];
  total: number;
}

const termLabel = (year: number, term: number) => `${year} Term ${term}`;

/** The cards of one class, or 404 (no such class, or nobody in it with results for the term). */
export async function planClassCards(db: Db, classId: string, year: number, term: TermNumber): Promise<CardsPlan> {
  const formClass = await repo.findFormClass(db, classId);
  if (!formClass) throw notFound(`No form class is called ${classId}.`);
  const students = await repo.listClassStudentsWithResults(db, formClass.id, year, term);
  if (students.length === 0) throw notFound(`No student of ${formClass.id} has results for ${termLabel(year, term)}.`);
  return { classes: [{ classId: formClass.id, formLevel: formClass.form_level, studentIds: students.map((s) => s.id) }], total: students.length };
}

/** The cards of every class of a form level (classes without results left out), or 404. */
export async function planFormCards(db: Db, formLevel: number, year: number, term: TermNumber): Promise<CardsPlan> {
  const formClasses = await repo.listFormClassesOfLevel(db, formLevel);
  if (formClasses.length === 0) throw notFound(`The school has no Form ${formLevel} classes.`);
  const classes: ClassCards[] = [];
  for (const formClass of formClasses) {
    const students = await repo.listClassStudentsWithResults(db, formClass.id, year, term);
    if (students.length > 0) classes.push({ classId: formClass.id, formLevel: formClass.form_level, studentIds: students.map((s) => s.id) });
  }
  const total = classes.reduce((sum, c) => sum + c.studentIds.length, 0);
  if (total === 0) throw notFound(`No Form ${formLevel} student has results for ${termLabel(year, term)}.`);
  return { classes, total };
}

export interface BuildOptions {
  caller: Caller;
  year: number;
  term: TermNumber;
  schoolName: string;
  /** Called after each part is rendered with how many of the class's cards are done. */
  onProgress: (doneInClass: number) => void | Promise<void>;
  /** Stops the build between parts (the browser went away). */
  signal: AbortSignal;
}

/**
 * One class's cards as one PDF. Parts are rendered on the pool while the next part's data is
 * read; at most as many parts wait as the pool has threads, so one class never fills the pool's
 * queue and turns other users' documents away (worker-pool.ts MAX_QUEUED).
 */
export async function buildClassCardsPdf(db: Db, cards: ClassCards, options: BuildOptions): Promise<Buffer> {
  const { caller, year, term, schoolName, signal } = options;
  const now = new Date();
  const rendering: Promise<Buffer>[] = [];
  const parts: Buffer[] = [];
  let done = 0;
  const finishOldest = async (partSize: number[]) => {
    parts.push(await rendering.shift()!);
    done += partSize.shift()!;
    await options.onProgress(done);
  };
  const sizes: number[] = [];
  for (let start = 0; start < cards.studentIds.length; start += REPORT_CARDS_PER_PART) {
    signal.throwIfAborted();
    const ids = cards.studentIds.slice(start, start + REPORT_CARDS_PER_PART);
    const data = await loadReportCards(db, caller, ids, year, term, schoolName, now);
    const doc = buildReportCardSet(data, { classId: cards.classId, formLevel: cards.formLevel });
    // Long work: a family's own report card, asked meanwhile, is rendered before the next part.
    const render = renderPdf(doc, { batch: true });
    // A part that fails while an earlier one is awaited must not go unhandled; it is rethrown in turn.
    render.catch(() => undefined);
    rendering.push(render);
    sizes.push(ids.length);
    if (rendering.length >= POOL_THREADS) await finishOldest(sizes);
  }
  while (rendering.length > 0) await finishOldest(sizes);
  signal.throwIfAborted();
  return parts.length === 1 ? parts[0]! : joinRenderedPdfs(parts);
}

/**
 * One audit row per student whose card left in a class PDF or a form's zip, in one insert (D59):
 * the student's history shows the download as it shows a single card's view.
 */
export async function recordReportCardsPrinted(db: Db, actor: Actor, cards: ClassCards, year: number, term: number, how: string): Promise<void> {
  await writeAudit(
    db,
    cards.studentIds.map((studentId) => ({
      ...actor,
      action: 'report-card-printed',
      entity: 'student',
      entity_id: studentId,
      field: 'report_card',
      new_value: `${year}-${term} (${how})`,
    })),
  );
}
