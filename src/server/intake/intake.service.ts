import { IMPORT_MAX_ROWS, listName } from '../../shared/students.schemas.js';
import { schoolToday, toDayFirstDate } from '../../shared/dates.js';
import { sexSchoolWarning, type IntakeClass, type IntakeCounts, type IntakeFinaliseResult, type IntakeFinaliseRun, type IntakeUndoAnswer, type IntakeView } from '../../shared/intake.schemas.js';
import { FIELD_MESSAGES, findField, identityKey, IDENTITY_TAKEN_MESSAGES, type FieldValue } from '../../shared/registration.fields.js';
import { createStudentNumberer } from '../../shared/student-numbering.js';
import * as students from '../students/students.service.js';
import { checkRow, loadLookupResolver, normaliseHeader, problemsByRow, readHeadingRow, sheetRequestOf, writeNewStudent } from '../students/student-import.js';
import { recordEntry } from '../enrolment/enrolment.service.js';
import { writeAudit, type AuditEntry } from '../audit/audit.repository.js';
import { nowIso, type Db } from '../db/database.js';
import { identityFieldOfError, violatedUniqueIndex } from '../db/unique-violation.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import type { Actor } from '../http/request-context.js';
import { listLookup } from '../lookups/lookups.service.js';
import { readSpreadsheet, type SheetRow } from '../spreadsheets/spreadsheet-upload.js';
import * as repo from './intake.repository.js';

/**
 * The new Form 1 from the SEA placement list (docs/decisions.md D61): the list is read by
 * the one upload reader and checked row by row with the field catalogue's rules through the
 * student import's own row check; the children wait in the intake while the office allocates
 * classes (Balance, or one move at a time), then Finalise makes each a student with an ID by the
 * school's numbering rule, in one transaction.
 */

/** The placement list's fields (catalogue names); the primary school is the record's previous school. */
const INTAKE_FIELDS = ['sea_no', 'first_name', 'middle_name', 'last_name', 'date_of_birth', 'sex', 'previous_school'] as const;
type IntakeField = (typeof INTAKE_FIELDS)[number];
const REQUIRED_FIELDS: readonly IntakeField[] = ['sea_no', 'first_name', 'last_name', 'date_of_birth', 'sex', 'previous_school'];

/** How the screen and the error bodies name a column: the catalogue's label, the list's own word for the school. */
function labelOf(field: string): string {
  return field === 'previous_school' ? 'Primary School' : (findField(field)?.label ?? field);
}

/** Heading (normalised) → field: each field's column name and label, and 'Primary School'. */
const INTAKE_HEADINGS: ReadonlyMap<string, string> = new Map(
  INTAKE_FIELDS.flatMap((name) => [name, findField(name)!.label, labelOf(name)].map((heading) => [normaliseHeader(heading), name] as const)),
);
const INTAKE_SHEET = sheetRequestOf(INTAKE_HEADINGS, IMPORT_MAX_ROWS);

interface CheckedIntakeRow {
  row: number;
  values: Record<string, FieldValue>;
  errors: Record<string, string[]>;
}

/**
 * One row: the catalogue's rules (through the student import's check), every column but the
 * middle name required, and the primary school one of the lookup's, compared as headings are
 * (letters and digits, case ignored) and stored as the list writes it. An unknown school is
 * refused (D61): the record's Previous School takes listed schools only, and Balance groups by it.
 */
function checkIntakeRow(sheetRow: SheetRow, columns: readonly (string | null)[], ctx: { today: string; resolve: Parameters<typeof checkRow>[2]['resolve']; schools: ReadonlyMap<string, string> }): CheckedIntakeRow {
  const { values, errors } = checkRow(sheetRow, columns, { today: ctx.today, existing: new Map(), resolve: ctx.resolve });
  for (const field of REQUIRED_FIELDS) {
    if (!(field in values) && !errors[field]) (errors[field] ??= []).push(FIELD_MESSAGES.required);
  }
  const school = values.previous_school;
  if (typeof school === 'string') {
    const listed = ctx.schools.get(normaliseHeader(school));
    if (listed) values.previous_school = listed;
    else (errors.previous_school ??= []).push(`'${school}' is not in the list of primary schools. Write the name as the list has it.`);
  }
  return { row: sheetRow.rowNumber, values, errors };
}

/** An SEA number a student already has, or an earlier row of the file has (compared as the first login does). */
function checkSeaNumbers(rows: readonly CheckedIntakeRow[], identifiers: readonly { id: string; sea_no: string | null }[]): void {
  const owners = new Map(identifiers.flatMap((s) => (s.sea_no ? [[identityKey(s.sea_no), s.id] as const] : [])));
  const firstRow = new Map<string, number>();
  for (const row of rows) {
    const sea = row.values.sea_no;
    if (typeof sea !== 'string') continue;
    const key = identityKey(sea);
    const owner = owners.get(key);
    const twin = firstRow.get(key);
    if (owner) (row.errors.sea_no ??= []).push(`Student ${owner} already has this SEA Number.`);
    else if (twin !== undefined) (row.errors.sea_no ??= []).push(`Row ${twin} has the same SEA Number.`);
    else firstRow.set(key, row.row);
  }
}

/**
 * Reads and checks the placement list; stores it as the intake when every row is right, else
 * refuses with 400 and every problem as 'row N: Column' (as Import Students does) and stores
 * nothing. An intake already imported must be finalised or cleared first (409).
 */
export async function importIntake(db: Db, bytes: Buffer, options: { fileName: string; actor: Actor; today: string }): Promise<IntakeView> {
  const { header, rows } = await readSpreadsheet(bytes, INTAKE_SHEET);
  if (!header) throw badRequest('The file is empty. Write a heading row (SEA Number, First Name, …), then one child a row.');
  const { columns, seen } = readHeadingRow(header, INTAKE_HEADINGS, labelOf);
  const missing = REQUIRED_FIELDS.filter((field) => !seen.has(field));
  if (missing.length > 0) {
    throw badRequest(`The file needs ${missing.length === 1 ? 'a column' : 'the columns'} ${missing.map((f) => `'${labelOf(f)}'`).join(', ')}.`);
  }
  if (rows.length === 0) throw badRequest('The file has no rows under its headings.');

  const imported = db.transaction().execute(async (trx) => {
    if ((await repo.countIntake(trx)) > 0) throw conflict('An SEA list is already imported. Finalise it, or clear it to import the list again.');
    const [resolve, schoolRows, identifiers] = await Promise.all([loadLookupResolver(trx), listLookup(trx, 'primarySchools'), students.listIdentifiers(trx)]);
    const schools = new Map((schoolRows as { name: string }[]).map((s) => [normaliseHeader(s.name), s.name]));
    const checked = rows.map((row) => checkIntakeRow(row, columns, { today: options.today, resolve, schools }));
    checkSeaNumbers(checked, identifiers);
    const wrong = checked.filter((row) => Object.keys(row.errors).length > 0);
    if (wrong.length > 0) {
      throw badRequest(`${wrong.length === 1 ? '1 row has' : `${wrong.length} rows have`} problems; nothing was imported.`, problemsByRow(wrong, labelOf));
    }
    const at = nowIso();
    const text = (value: FieldValue | undefined) => (value === undefined || value === null ? null : String(value));
    await repo.insertIntake(
      trx,
      checked.map(({ row, values }) => ({
        row_number: row,
        file_name: options.fileName,
        sea_no: text(values.sea_no)!,
        first_name: text(values.first_name)!,
        middle_name: text(values.middle_name),
        last_name: text(values.last_name)!,
        date_of_birth: text(values.date_of_birth)!,
        sex: text(values.sex) as 'Female' | 'Male',
        primary_school: text(values.previous_school)!,
        class_id: null,
        created_at: at,
        updated_at: at,
      })),
    );
    await writeAudit(trx, { ...options.actor, action: 'import', entity: 'intake', entity_id: null, field: null, old_value: null, new_value: `${options.fileName}: ${checked.length} children` });
  });
  // Two imports at once: the second one's SEA numbers meet the first's in the intake's unique index.
  await imported.catch((error: unknown) => {
    if (violatedUniqueIndex(error) === 'intake_students_sea_no_idx') throw conflict('An SEA list was imported at the same time. Look at the intake before importing again.');
    throw error;
  });
  return intakeView(db);
}

// ---- the allocation ------------------------------------------------------------------------------

const ZERO: IntakeCounts = { total: 0, female: 0, male: 0 };
const countIn = (counts: IntakeCounts, sex: string | null, n = 1): IntakeCounts => ({
  total: counts.total + n,
  female: counts.female + (sex === 'Female' ? n : 0),
  male: counts.male + (sex === 'Male' ? n : 0),
});

/**
 * The intake and the Form 1 classes side by side: counts by sex and by primary school, who is
 * already in each, each child's warning (a sex that does not match a girls' or boys' school,
 * D79) and the finalises with the server's verdict on their undo on the school day `today`.
 */
export async function intakeView(db: Db, today: string = schoolToday()): Promise<IntakeView> {
  const [rows, classIds, finalises] = await Promise.all([repo.listIntake(db), repo.listFormOneClassIds(db), repo.listFinalises(db)]);
  const existing = await repo.countStudentsByClassAndSex(db, classIds);
  const classes: IntakeClass[] = classIds.map((id) => {
    const mine = rows.filter((row) => row.class_id === id);
    const bySchool = new Map<string, number>();
    for (const row of mine) bySchool.set(row.primary_school, (bySchool.get(row.primary_school) ?? 0) + 1);
    return {
      id,
      intake: mine.reduce((counts, row) => countIn(counts, row.sex), ZERO),
      bySchool: [...bySchool].map(([school, count]) => ({ school, count })).sort((a, b) => b.count - a.count || a.school.localeCompare(b.school)),
      existing: existing.filter((e) => e.class_id === id).reduce((counts, e) => countIn(counts, e.sex, e.n), ZERO),
    };
  });
  return {
    fileName: rows[0]?.file_name ?? null,
    classes,
    students: rows.map((row) => ({
      id: row.id,
      row: row.row_number,
      sea_no: row.sea_no,
      first_name: row.first_name,
      middle_name: row.middle_name,
      last_name: row.last_name,
      date_of_birth: row.date_of_birth,
      sex: row.sex,
      primary_school: row.primary_school,
      class_id: row.class_id,
      warning: sexSchoolWarning(row),
    })),
    unallocated: rows.filter((row) => row.class_id === null).length,
    finalises: finaliseRunsOf(finalises, today),
  };
}

/** What a finalise stored of the students it created: each one's ID, list row and class. */
interface FinalisedStudent {
  id: string;
  row: number;
  class_id: string;
}

const finalisedStudentsOf = (row: repo.FinaliseRow): FinalisedStudent[] => JSON.parse(row.students) as FinalisedStudent[];

/** The finalises as the screen lists them: the undo is offered for today's newest standing one only (as the rollover's, D60). */
function finaliseRunsOf(rows: readonly repo.FinaliseRow[], today: string): IntakeFinaliseRun[] {
  const newestStanding = rows.find((row) => row.undone_at === null)?.id ?? null;
  return rows.map((row) => {
    const students = finalisedStudentsOf(row);
    return {
      id: row.id,
      finalised_on: row.finalised_on,
      finalised_at: row.created_at,
      file_name: row.file_name,
      count: students.length,
      first_id: students[0]?.id ?? null,
      last_id: students.at(-1)?.id ?? null,
      undone_at: row.undone_at,
      can_undo: row.undone_at === null && row.id === newestStanding && row.finalised_on === today,
    };
  });
}

/**
 * Balance (D61): the children in one line, girls then boys, each sex by primary school (by name),
 * each school by last name, first name and SEA number; then dealt to the classes in turn, like
 * cards, the turn carrying on from one group to the next. Each sex is a run of the line, so every
 * class gets the same number of girls and of boys give or take one, and each school's girls (and
 * boys) spread across the classes the same way; the totals differ by one at most. The same intake
 * and classes always give the same allocation. Students already in the classes are not counted.
 */
export function balanceAllocation(children: readonly repo.IntakeRow[], classIds: readonly string[]): Map<number, string> {
  const sexOrder = (sex: string) => (sex === 'Female' ? 0 : 1);
  const line = [...children].sort(
    (a, b) =>
      sexOrder(a.sex) - sexOrder(b.sex) ||
      a.primary_school.localeCompare(b.primary_school) ||
      a.last_name.localeCompare(b.last_name) ||
      a.first_name.localeCompare(b.first_name) ||
      a.sea_no.localeCompare(b.sea_no),
  );
  return new Map(line.map((child, index) => [child.id, classIds[index % classIds.length]!]));
}

async function requireFormOneClasses(db: Db): Promise<string[]> {
  const classIds = await repo.listFormOneClassIds(db);
  if (classIds.length === 0) throw conflict('The school has no Form 1 classes to allocate to. Add them first.');
  return classIds;
}

/** Allocates the whole intake by `balanceAllocation`, replacing every earlier choice. */
export async function balanceIntake(db: Db, actor: Actor): Promise<IntakeView> {
  await db.transaction().execute(async (trx) => {
    const rows = await repo.listIntake(trx);
    if (rows.length === 0) throw badRequest('The intake is empty: import the SEA placement list first.');
    const classIds = await requireFormOneClasses(trx);
    const plan = balanceAllocation(rows, classIds);
    const at = nowIso();
    for (const classId of classIds) {
      const moving = rows.filter((row) => plan.get(row.id) === classId && row.class_id !== classId).map((row) => row.id);
      await repo.setIntakeClassOf(trx, moving, classId, at);
    }
    await writeAudit(trx, { ...actor, action: 'balance', entity: 'intake', entity_id: null, field: null, old_value: null, new_value: `${rows.length} children in ${classIds.join(', ')}` });
  });
  return intakeView(db);
}

/** Moves one child of the intake to a Form 1 class, or back to not allocated (null). */
export async function moveIntakeStudent(db: Db, id: number, classId: string | null, actor: Actor): Promise<IntakeView> {
  await db.transaction().execute(async (trx) => {
    const row = await repo.findIntakeStudent(trx, id);
    if (!row) throw notFound('That child is not in the intake (it may have been cleared or finalised).');
    if (classId !== null && !(await repo.listFormOneClassIds(trx)).includes(classId)) {
      throw badRequest('Choose one of the Form 1 classes.', { class_id: ['Choose one of the Form 1 classes.'] });
    }
    if (row.class_id === classId) return;
    await repo.setIntakeClassOf(trx, [id], classId, nowIso());
    await writeAudit(trx, { ...actor, action: 'update', entity: 'intake', entity_id: row.sea_no, field: 'class_id', old_value: row.class_id, new_value: classId });
  });
  return intakeView(db);
}

/** Clears the intake before it is finalised (the list is imported again); audited with the count. */
export async function clearIntake(db: Db, actor: Actor): Promise<IntakeView> {
  await db.transaction().execute(async (trx) => {
    const removed = await repo.clearIntake(trx);
    if (removed > 0) await writeAudit(trx, { ...actor, action: 'clear', entity: 'intake', entity_id: null, field: null, old_value: null, new_value: `${removed} children` });
  });
  return intakeView(db);
}

/**
 * Finalise (D61): in one transaction every child becomes a student in their class with the next
 * ID of the entry year (the school's year today: Form 1 joins in September of the year its SEA
 * list comes), in class order then by name; with the SEA number, date of birth, sex, names and
 * primary school, and a first-login account, each audited as a create (Import Students' own
 * write). The intake is then empty. Any child without a class, or whose SEA number a student got
 * meanwhile, refuses the whole finalise and changes nothing; so does a second finalise of the same
 * intake at the same moment (409, the reason said).
 */
/** One answer for an empty intake, whether nothing was imported or a finalise (or clear) took it a moment ago. */
const NOTHING_TO_FINALISE =
  'Nothing to finalise: the intake is empty. It was finalised or cleared meanwhile (in another window, or by someone else), or no SEA list is imported yet. Reload to see where it stands.';

export async function finaliseIntake(db: Db, actor: Actor, today: string): Promise<IntakeFinaliseResult> {
  const entryYear = Number(today.slice(0, 4));
  const finalised = db.transaction().execute(async (trx): Promise<IntakeFinaliseResult> => {
    // The children are taken out of the intake first, so two finalises never both number them; a
    // refusal below rolls the taking back with everything else.
    const rows = await repo.takeIntake(trx);
    if (rows.length === 0) throw conflict(NOTHING_TO_FINALISE);
    const unallocated = rows.filter((row) => row.class_id === null);
    if (unallocated.length > 0) {
      const message = `${unallocated.length === 1 ? '1 child has' : `${unallocated.length} children have`} no class yet. Press Balance or choose a class for each.`;
      throw badRequest(message, problemsByRow(unallocated.map((row) => ({ row: row.row_number, errors: { class_id: ['Choose a class.'] } })), () => 'Class'));
    }
    const identifiers = await students.listIdentifiers(trx);
    const checked = rows.map((row): CheckedIntakeRow => ({ row: row.row_number, values: { sea_no: row.sea_no }, errors: {} }));
    checkSeaNumbers(checked, identifiers);
    const taken = checked.filter((row) => Object.keys(row.errors).length > 0);
    if (taken.length > 0) throw conflict('A student already has an SEA number of the intake; nothing was finalised.', problemsByRow(taken, labelOf));

    const nextId = createStudentNumberer(await repo.listStudentIdsOfYear(trx, entryYear));
    const at = nowIso();
    const created: IntakeFinaliseResult['created'] = [];
    for (const row of rows) {
      let id: string;
      try {
        id = nextId(entryYear);
      } catch (error) {
        if (error instanceof RangeError) throw conflict(error.message);
        throw error;
      }
      const values: Record<string, FieldValue> = {
        first_name: row.first_name,
        middle_name: row.middle_name,
        last_name: row.last_name,
        sex: row.sex,
        date_of_birth: row.date_of_birth,
        sea_no: row.sea_no,
        previous_school: row.primary_school,
        class_id: row.class_id,
      };
      await writeNewStudent(trx, id, values, actor, at);
      await recordEntry(trx, { studentId: id, on: today, reason: 'form1_intake', classId: row.class_id }, actor); // enrolment history (D80)
      created.push({ id, sea_no: row.sea_no, name: listName(row), class_id: row.class_id! });
    }
    const finaliseId = await repo.insertFinalise(trx, {
      finalised_on: today,
      file_name: rows[0]!.file_name,
      students: JSON.stringify(created.map((child, index): FinalisedStudent => ({ id: child.id, row: rows[index]!.row_number, class_id: child.class_id }))),
      finalised_by_user_id: actor.actor_user_id,
      created_at: at,
      updated_at: at,
    });
    await writeAudit(trx, {
      ...actor,
      action: 'finalise',
      entity: 'intake',
      entity_id: null,
      field: null,
      old_value: null,
      new_value: `${created.length} students, ${created[0]!.id} to ${created.at(-1)!.id}`,
    });
    return { created, finalise_id: finaliseId };
  });
  // A save made meanwhile can take an SEA number first: its unique index refuses, nothing is kept.
  return finalised.catch((error: unknown) => {
    const field = identityFieldOfError(error);
    if (!field) throw error;
    throw conflict(`${IDENTITY_TAKEN_MESSAGES[field]} It was saved while the intake was finalised; nothing was finalised.`);
  });
}

// ---- the undo of a finalise (D79) -----------------------------------------------------------------

/**
 * Undoes a finalise on the school day it ran, as the rollover's undo (D60): only today's newest
 * standing finalise, once, and only while the intake is empty (a new list waits to be finalised or
 * cleared). Every student it created must be as it left them: the record unchanged, still in its
 * class, the account never signed in, no document, family link, attendance, result or office
 * decision; otherwise 409 naming them, and nothing changes. Then the children are back in the
 * intake with their class and list row, read from their records, and the students are deleted
 * (their accounts with them); audited per student and for the whole.
 */
export async function undoFinalise(db: Db, actor: Actor, id: number, now = new Date()): Promise<IntakeUndoAnswer> {
  const today = schoolToday(now);
  const count = await db.transaction().execute(async (trx) => {
    const row = await repo.findFinalise(trx, id);
    if (!row) throw notFound('There is no such finalise.');
    if (row.undone_at !== null) throw conflict('This finalise has already been undone.');
    if (row.finalised_on !== today) {
      throw conflict(`A finalise can be undone only on the day it ran (${toDayFirstDate(row.finalised_on)}); correct or delete the students one by one instead.`);
    }
    if (await repo.hasLaterFinalise(trx, id)) throw conflict('A later finalise stands: undo that one first.');
    if ((await repo.countIntake(trx)) > 0) throw conflict('An SEA list is imported and waiting: finalise or clear it first, then undo.');
    const finalised = finalisedStudentsOf(row);
    const ids = finalised.map((s) => s.id);
    const [records, used] = await Promise.all([repo.findStudentRecords(trx, ids), repo.findUsedStudents(trx, ids)]);
    const recordOf = new Map(records.map((r) => [r.id, r]));
    const changed = finalised.filter((s) => {
      const record = recordOf.get(s.id);
      return !record || used.has(s.id) || record.updated_at !== row.created_at || record.class_id !== s.class_id || record.left_on !== null || (record.sex !== 'Female' && record.sex !== 'Male');
    });
    if (changed.length > 0) {
      throw conflict(
        `${changed.length === 1 ? '1 new student was' : `${changed.length} new students were`} used or changed since the finalise (${changed.map((s) => s.id).join(', ')}): signed in, linked to a family, given a document, moved or edited. Nothing was undone; correct the students one by one instead.`,
      );
    }
    const at = nowIso();
    // The conditional update first: a second undo at the same time waits here and then finds it done.
    if (!(await repo.markFinaliseUndone(trx, id, actor.actor_user_id, at))) throw conflict('This finalise has already been undone.');
    await repo.insertIntake(
      trx,
      finalised.map((s) => {
        const record = recordOf.get(s.id)!;
        return {
          row_number: s.row,
          file_name: row.file_name,
          sea_no: record.sea_no ?? '',
          first_name: record.first_name ?? '',
          middle_name: record.middle_name,
          last_name: record.last_name ?? '',
          date_of_birth: record.date_of_birth ?? '',
          sex: record.sex as 'Female' | 'Male',
          primary_school: record.previous_school ?? '',
          class_id: s.class_id,
          created_at: at,
          updated_at: at,
        };
      }),
    );
    await repo.deleteStudents(trx, ids);
    const audit: AuditEntry[] = [
      ...ids.map((studentId) => ({ ...actor, action: 'finalise-undo', entity: 'student', entity_id: studentId, field: null, old_value: null, new_value: 'deleted: back in the new Form 1 intake' })),
      { ...actor, action: 'finalise-undo', entity: 'intake', entity_id: String(id), field: null, old_value: null, new_value: `${ids.length} students back in the intake` },
    ];
    for (let i = 0; i < audit.length; i += 200) await writeAudit(trx, audit.slice(i, i + 200));
    return ids.length;
  });
  return { message: `The finalise is undone: ${count === 1 ? '1 child is' : `${count} children are`} back in the intake, in the same classes.`, view: await intakeView(db, today) };
}
