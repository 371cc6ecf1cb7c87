import {
  ADD_STUDENT_FIELDS,
  IMPORT_MAX_ROWS,
  NEW_STUDENT_MESSAGES,
  NEW_STUDENT_REQUIRED,
  listName,
  type AddStudentInput,
  type AdminStudent,
  type ImportAction,
  type StudentImportResult,
  type StudentImportRow,
} from '../../shared/students.schemas.js';
import { StudentIdSchema } from '../../shared/auth.schemas.js';
import { fromDayFirstDate } from '../../shared/dates.js';
import { LOOKUPS, type LookupName } from '../../shared/lookups.schemas.js';
import { FORMER_STUDENT_MESSAGE } from '../../shared/rollover.schemas.js';
import {
  IDENTITY_FIELDS,
  IDENTITY_TAKEN_MESSAGES,
  WRITABLE_FIELDS,
  checkFieldValue,
  findField,
  identityKey,
  isIdentityField,
  type FieldValue,
  type RegistrationField,
} from '../../shared/registration.fields.js';
import { writeAudit } from '../audit/audit.repository.js';
import { nowIso, type Db } from '../db/database.js';
import { identityFieldOfError } from '../db/unique-violation.js';
import { recordEntry } from '../enrolment/enrolment.service.js';
import { AppError, badRequest, conflict } from '../http/errors.js';
import type { Actor } from '../http/request-context.js';
import { listLookup } from '../lookups/lookups.service.js';
import { loadExcelJs } from '../spreadsheets/exceljs.js';
// The one upload reader of every import (bounded, off the event loop, formulas never evaluated).
import { cellText, normaliseHeading, readSpreadsheet, type Cell, type SheetRequest, type SheetRow } from '../spreadsheets/spreadsheet-upload.js';
import * as repo from './students.repository.js';
import { restoreText } from '../spreadsheets/spreadsheet-cells.js';

/**
 * Import Students (docs/requirements.md R11): an XLSX or CSV whose header row names the columns (the
 * catalogue's labels or column names; 'Student ID' is required). Each row creates the student
 * with that ID or updates the one that exists, by the field catalogue's rules. A dry run
 * answers what every row would do and every problem; the import itself re-checks everything
 * inside one transaction and writes all rows or none.
 *
 * Rules beyond the catalogue (docs/decisions.md):
 * - an empty cell leaves the stored value as it is (a short file never wipes a record);
 * - a new student needs first name, last name, date of birth and class, and a birth certificate
 *   pin or SEA number (the first sign-in asks for one of them with the date of birth);
 * - a pin or SEA number may belong to one student only;
 * - codes or names are accepted for lookups (religion 'HIN' or 'Hindu'), Yes/No for switches,
 *   dates as yyyy-MM-dd or dd/MM/yyyy, phones with or without the (868) prefix;
 * - the terms-agreement fields are the parents' to set and cannot be imported.
 */

/** Fields an import may set: the writable catalogue, less the parents' agreement to the terms. */
export const IMPORTABLE_FIELDS: readonly RegistrationField[] = WRITABLE_FIELDS.filter((field) => field.step !== 'complete');

/** The columns of the downloadable template, in order (the enrolment data an office has). */
export const TEMPLATE_FIELDS = [
  'first_name',
  'middle_name',
  'last_name',
  'sex',
  'date_of_birth',
  'birth_certificate_no',
  'sea_no',
  'class_id',
  'house_code',
  'previous_school',
] as const;

/** A heading as the imports compare them: letters and digits only, lower-case ('Date of Birth' → 'dateofbirth'). */
export const normaliseHeader = (text: string) => normaliseHeading(text, 'letters-and-digits');

/** Heading (normalised) → field name: the catalogue's names and labels, and 'Student ID'/'ID'. */
export const HEADER_TO_FIELD: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>([
    ['id', 'id'],
    ['studentid', 'id'],
  ]);
  for (const field of IMPORTABLE_FIELDS) {
    for (const key of [normaliseHeader(field.name), normaliseHeader(field.label)]) {
      const taken = map.get(key);
      if (taken && taken !== field.name) throw new Error(`Import headings clash: '${key}' names ${taken} and ${field.name}.`);
      map.set(key, field.name);
    }
  }
  return map;
})();

/** What the reader keeps of an uploaded file: the columns with a heading of the map (already normalised). */
export function sheetRequestOf(headings: ReadonlyMap<string, string>, maxRows: number): SheetRequest {
  const byField: Record<string, string[]> = {};
  for (const [heading, field] of headings) (byField[field] ??= []).push(heading);
  return { headingRule: 'letters-and-digits', maxRows, columns: byField };
}

const STUDENT_SHEET: SheetRequest = sheetRequestOf(HEADER_TO_FIELD, IMPORT_MAX_ROWS);

// ---- reading the file ----------------------------------------------------------------------------

export interface ImportSheet {
  /** Field name per column index (null = ignored column). */
  columns: (string | null)[];
  ignoredColumns: string[];
  rows: SheetRow[];
}

/**
 * A heading row → which field each column holds (by the import's map of normalised headings), the
 * headings it ignores, and the heading each field was found under; refuses a column twice.
 */
export function readHeadingRow(header: SheetRow, headings: ReadonlyMap<string, string>, labelOf: (field: string) => string) {
  const columns: (string | null)[] = [];
  const ignoredColumns: string[] = [];
  const seen = new Map<string, string>();
  header.cells.forEach((cell) => {
    const heading = cellText(cell);
    const field = headings.get(normaliseHeader(heading)) ?? null;
    if (field && seen.has(field)) throw badRequest(`The columns '${seen.get(field)}' and '${heading}' both hold ${labelOf(field)}. Keep one.`);
    if (field) seen.set(field, heading);
    else if (heading !== '') ignoredColumns.push(heading);
    columns.push(field);
  });
  return { columns, ignoredColumns, seen };
}

/** The header row → which field each column holds; refuses a file without 'Student ID' or with a column twice. */
export function readHeader(sheet: SheetRow[]): ImportSheet {
  const [header, ...rows] = sheet;
  if (!header) throw badRequest('The file is empty. Use the template: a heading row, then one student a row.');
  const { columns, ignoredColumns, seen } = readHeadingRow(header, HEADER_TO_FIELD, (field) => (field === 'id' ? 'the Student ID' : (findField(field)?.label ?? field)));
  if (!seen.has('id')) throw badRequest("The file needs a 'Student ID' column. Download the template to see the headings.");
  if (rows.length === 0) throw badRequest('The file has no student rows under its headings.');
  return { columns, ignoredColumns, rows };
}

// ---- checking one row ----------------------------------------------------------------------------

/** Value → stored value of each select drawn from a lookup, by code or name (case-insensitive). */
export type LookupResolver = (lookup: LookupName, text: string) => string | null;

export async function loadLookupResolver(db: Db): Promise<LookupResolver> {
  const names = [...new Set(IMPORTABLE_FIELDS.filter((f) => f.control === 'select' && f.lookup).map((f) => f.lookup!))];
  const maps = new Map<LookupName, Map<string, string>>();
  await Promise.all(
    names.map(async (name) => {
      const { value, label } = LOOKUPS[name];
      const map = new Map<string, string>();
      const rows = (await listLookup(db, name)) as Record<string, unknown>[];
      // Names first, so a code that equals another row's name still means its own row.
      for (const row of rows) map.set(String(row[label]).toLowerCase(), String(row[value]));
      for (const row of rows) map.set(String(row[value]).toLowerCase(), String(row[value]));
      maps.set(name, map);
    }),
  );
  return (lookup, text) => maps.get(lookup)?.get(text.trim().toLowerCase()) ?? null;
}

export interface RowContext {
  today: string;
  existing: ReadonlyMap<string, repo.StudentRow>;
  resolve: LookupResolver;
}

export interface CheckedRow {
  row: number;
  id: string | null;
  /** Field → value to store (all sent values, changed or not). */
  values: Record<string, FieldValue>;
  errors: Record<string, string[]>;
  existing: repo.StudentRow | undefined;
}

const YES = new Set(['yes', 'y', 'true', '1']);
const NO = new Set(['no', 'n', 'false', '0']);

/** One cell's text → the raw value its field's rules check (the forms an office writes, made canonical). */
function normaliseValue(field: RegistrationField, text: string, resolve: LookupResolver): { value: unknown } | { error: string } {
  switch (field.control) {
    case 'switch':
    case 'yesno': {
      const lower = text.toLowerCase();
      // The export's words for a question nobody answered (D75) read back as not answered.
      if (field.control === 'yesno' && lower === 'not answered') return { value: null };
      if (YES.has(lower)) return { value: 1 };
      if (NO.has(lower)) return { value: 0 };
      return { error: 'Write Yes or No.' };
    }
    case 'date': {
      // dd/MM/yyyy read by the one reading of a typed date (D77); anything else is left for the rules to judge.
      return { value: fromDayFirstDate(text) ?? text };
    }
    case 'phone': {
      if (!/^[\d\s()+.-]+$/.test(text)) return { value: text };
      let digits = text.replace(/\D/g, '');
      if (digits.length === 10 && digits.startsWith('868')) digits = digits.slice(3);
      else if (digits.length === 11 && digits.startsWith('1868')) digits = digits.slice(4);
      return { value: digits };
    }
    case 'select': {
      if (field.options) return { value: field.options.find((option) => option.toLowerCase() === text.toLowerCase()) ?? text };
      if (field.lookup) {
        const value = resolve(field.lookup, text);
        return value === null ? { error: `'${text}' is not one of the listed values.` } : { value };
      }
      return { value: text };
    }
    default:
      return { value: text };
  }
}

const asText = (value: FieldValue | undefined): string | null => (value === null || value === undefined ? null : String(value));

/** Checks one data row against the catalogue and the import's own rules (no uniqueness across rows). */
export function checkRow(sheetRow: SheetRow, columns: readonly (string | null)[], ctx: RowContext): CheckedRow {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const values: Record<string, FieldValue> = {};
  let id: string | null = null;

  columns.forEach((name, index) => {
    if (!name) return;
    const cell = sheetRow.cells[index];
    if (cell?.kind === 'formula') {
      add(name, `Formulas are not imported (${cell.text}); type the value itself.`);
      return;
    }
    const text = restoreText(cellText(cell));
    if (name === 'id') {
      const parsed = StudentIdSchema.safeParse(text);
      if (parsed.success) id = parsed.data;
      else add('id', parsed.error.issues[0]?.message ?? 'Student ID is required.');
      return;
    }
    if (text === '') return; // an empty cell leaves the stored value as it is
    const field = findField(name)!;
    const normalised = normaliseValue(field, text, ctx.resolve);
    if ('error' in normalised) {
      add(name, normalised.error);
      return;
    }
    const check = checkFieldValue(field, normalised.value, { today: ctx.today });
    if (check.ok) values[name] = check.value;
    else for (const message of check.messages) add(name, message);
  });

  const existing = id === null ? undefined : ctx.existing.get(id);
  // A former student's record is kept read-only (D60), by a file as much as by a form.
  if (existing?.left_on) add('id', FORMER_STUDENT_MESSAGE);
  if (id !== null && !existing) {
    for (const name of NEW_STUDENT_REQUIRED) {
      if (!(name in values) && !errors[name]) add(name, NEW_STUDENT_MESSAGES.required);
    }
    if (!('birth_certificate_no' in values) && !('sea_no' in values) && !errors.birth_certificate_no && !errors.sea_no) {
      add('birth_certificate_no', NEW_STUDENT_MESSAGES.pinOrSea);
    }
  }
  return { row: sheetRow.rowNumber, id, values, errors, existing };
}

/** The fields whose value would change (for a new student: every value sent). */
export function changedFields(checked: CheckedRow): string[] {
  const old = checked.existing as unknown as Record<string, FieldValue> | undefined;
  return Object.entries(checked.values)
    .filter(([name, value]) => !old || asText(old[name]) !== asText(value))
    .map(([name]) => name);
}

/**
 * Problems between rows and with other students: an ID twice in the file, a pin or SEA number
 * another student already has (in the school or earlier in the file).
 */
export function checkAcrossRows(rows: CheckedRow[], identifiers: readonly { id: string; birth_certificate_no: string | null; sea_no: string | null }[]): void {
  // Identity numbers compare by `identityKey`, as every save and the first login do.
  const owners = { birth_certificate_no: new Map<string, string>(), sea_no: new Map<string, string>() };
  for (const student of identifiers) {
    for (const key of IDENTITY_FIELDS) {
      const value = student[key];
      if (value) owners[key].set(identityKey(value), student.id);
    }
  }
  // The file's own values replace the stored ones of the students it names.
  for (const row of rows) {
    if (row.id === null) continue;
    for (const key of IDENTITY_FIELDS) {
      const old = row.existing?.[key];
      if (key in row.values && old && owners[key].get(identityKey(old)) === row.id) owners[key].delete(identityKey(old));
    }
  }
  const firstRowOfId = new Map<string, number>();
  const inFile = { birth_certificate_no: new Map<string, { id: string; row: number }>(), sea_no: new Map<string, { id: string; row: number }>() };
  for (const row of rows) {
    if (row.id === null) continue;
    const earlier = firstRowOfId.get(row.id);
    if (earlier !== undefined) (row.errors.id ??= []).push(`Student ID ${row.id} is also on row ${earlier}.`);
    else firstRowOfId.set(row.id, row.row);
    for (const key of IDENTITY_FIELDS) {
      const value = row.values[key];
      if (typeof value !== 'string') continue;
      const label = findField(key)!.label;
      const compared = identityKey(value);
      const owner = owners[key].get(compared);
      const twin = inFile[key].get(compared);
      if (owner && owner !== row.id) (row.errors[key] ??= []).push(`Student ${owner} already has this ${label}.`);
      else if (twin && twin.id !== row.id) (row.errors[key] ??= []).push(`Row ${twin.row} (student ${twin.id}) has the same ${label}.`);
      else inFile[key].set(compared, { id: row.id, row: row.row });
    }
  }
}

function actionOf(checked: CheckedRow): ImportAction {
  if (Object.keys(checked.errors).length > 0 || checked.id === null) return 'error';
  if (!checked.existing) return 'create';
  return changedFields(checked).length > 0 ? 'update' : 'unchanged';
}

function nameOf(checked: CheckedRow): string {
  const pick = (key: 'first_name' | 'last_name') => (checked.values[key] as string | undefined) ?? checked.existing?.[key] ?? null;
  return listName({ first_name: pick('first_name'), last_name: pick('last_name') });
}

/** Reads the file and checks every row against the database as `db` (or a transaction) sees it. */
async function evaluate(db: Db, bytes: Buffer, today: string) {
  const { header, rows: dataRows } = await readSpreadsheet(bytes, STUDENT_SHEET);
  const sheet = readHeader(header ? [header, ...dataRows] : []);
  const idColumn = sheet.columns.indexOf('id');
  const ids = [...new Set(sheet.rows.map((row) => cellText(row.cells[idColumn])).filter((id) => StudentIdSchema.safeParse(id).success))];
  const [existing, resolve, identifiers] = await Promise.all([repo.findStudentRecords(db, ids), loadLookupResolver(db), repo.listIdentifiers(db)]);
  const checked = sheet.rows.map((row) => checkRow(row, sheet.columns, { today, existing, resolve }));
  checkAcrossRows(checked, identifiers);
  const rows: StudentImportRow[] = checked.map((c) => {
    const action = actionOf(c);
    return { row: c.row, id: c.id, name: nameOf(c), action, errors: c.errors, changes: action === 'error' ? [] : changedFields(c) };
  });
  return { sheet, checked, rows };
}

function summaryOf(rows: readonly StudentImportRow[]) {
  const count = (action: ImportAction) => rows.filter((row) => row.action === action).length;
  return { created: count('create'), updated: count('update'), unchanged: count('unchanged'), errors: count('error') };
}

/** Every row's problems as one error body: 'row 3: Date of Birth' → its messages (the field's label names the column). */
export function problemsByRow(
  rows: readonly Pick<StudentImportRow, 'row' | 'errors'>[],
  labelOf: (field: string) => string = (field) => (field === 'id' ? 'Student ID' : (findField(field)?.label ?? field)),
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const row of rows) {
    for (const [field, messages] of Object.entries(row.errors)) {
      errors[`row ${row.row}: ${labelOf(field)}`] = messages;
    }
  }
  return errors;
}

export interface ImportOptions {
  dryRun: boolean;
  fileName: string;
  actor: Actor;
  today: string;
}

/**
 * The dry run answers every row's action and problems. The import re-checks inside one
 * transaction and, when any row has a problem, refuses with 400 (every problem listed) and
 * writes nothing; otherwise it writes every row, one audit row per change, and answers the same
 * result with `committed: true`. New students get a first-login account.
 */
export async function importStudents(db: Db, bytes: Buffer, options: ImportOptions): Promise<StudentImportResult> {
  const answer = (rows: StudentImportRow[], sheet: ImportSheet, committed: boolean): StudentImportResult => ({
    dryRun: options.dryRun,
    committed,
    fileName: options.fileName,
    columns: sheet.columns.filter((c): c is string => c !== null),
    ignoredColumns: sheet.ignoredColumns,
    rows,
    summary: summaryOf(rows),
  });
  if (options.dryRun) {
    const { sheet, rows } = await evaluate(db, bytes, options.today);
    return answer(rows, sheet, false);
  }
  const imported = db.transaction().execute(async (trx) => {
    const { sheet, checked, rows } = await evaluate(trx, bytes, options.today);
    const summary = summaryOf(rows);
    if (summary.errors > 0) {
      const problems = problemsByRow(rows);
      throw badRequest(`${summary.errors === 1 ? '1 row has' : `${summary.errors} rows have`} problems; nothing was imported.`, problems);
    }
    const at = nowIso();
    const { actor } = options;
    // A file may move numbers between students (two pins swapped): the unique indexes check each
    // statement, so the numbers the file changes are cleared first, then written with the rest.
    for (const [index, c] of checked.entries()) {
      const moving = rows[index]!.action === 'update' ? rows[index]!.changes.filter(isIdentityField) : [];
      if (moving.length > 0) await repo.updateStudent(trx, c.id!, Object.fromEntries(moving.map((name) => [name, null])), at);
    }
    for (const [index, c] of checked.entries()) {
      const id = c.id!;
      const row = rows[index]!;
      if (row.action === 'create') {
        await writeNewStudent(trx, id, c.values, actor, at);
        // How an imported student came is not said by the file (D80).
        await recordEntry(trx, { studentId: id, on: options.today, reason: 'enrolled', classId: asText(c.values.class_id) || null }, actor);
      } else if (row.action === 'update') {
        const old = c.existing as unknown as Record<string, FieldValue>;
        const changes = Object.fromEntries(row.changes.map((name) => [name, c.values[name] ?? null]));
        await repo.updateStudent(trx, id, changes, at);
        await writeAudit(
          trx,
          row.changes.map((name) => ({ ...actor, action: 'update', entity: 'student', entity_id: id, field: name, old_value: asText(old[name]), new_value: asText(c.values[name]) })),
        );
      }
    }
    await writeAudit(trx, {
      ...actor,
      action: 'import',
      entity: 'students',
      entity_id: null,
      field: null,
      old_value: null,
      new_value: `${options.fileName}: created ${summary.created}, updated ${summary.updated}, unchanged ${summary.unchanged}`,
    });
    return answer(rows, sheet, true);
  });
  // A save made while the file was checked can take a number first: its unique index refuses.
  return imported.catch((error: unknown) => {
    const field = identityFieldOfError(error);
    if (!field) throw error;
    throw new AppError(409, 'conflict', `${IDENTITY_TAKEN_MESSAGES[field]} It was saved while the file was imported; nothing was imported. Check the file again.`);
  });
}

/** A new student's record, first-login account and audit row (inside the caller's transaction). */
export async function writeNewStudent(trx: Db, id: string, values: Record<string, FieldValue>, actor: Actor, at: string): Promise<void> {
  await repo.insertStudent(trx, id, values, at);
  await repo.insertFirstLoginUser(trx, id, [values.first_name, values.last_name].filter(Boolean).join(' '), at);
  await writeAudit(trx, { ...actor, action: 'create', entity: 'student', entity_id: id, field: null, old_value: null, new_value: JSON.stringify(values) });
}

// ---- one student from a form (Add Student) -------------------------------------------------------

/**
 * Add Student: one new student checked exactly as a file row naming a new ID (the catalogue's
 * rules, the new-student rules, the class among the school's, the pin and SEA number unique),
 * then written as the import writes it, audited as a create. An ID that exists, or a pin or SEA
 * number another student has, is a 409 with the field named; any other problem a 400.
 */
export async function addOneStudent(db: Db, input: AddStudentInput, actor: Actor, today: string): Promise<AdminStudent> {
  const added = db.transaction().execute(async (trx): Promise<AdminStudent> => {
    const [existing, resolve, identifiers] = await Promise.all([repo.findStudentRecords(trx, [input.id]), loadLookupResolver(trx), repo.listIdentifiers(trx)]);
    if (existing.has(input.id)) throw conflict(NEW_STUDENT_MESSAGES.idTaken(input.id), { id: [NEW_STUDENT_MESSAGES.idTaken(input.id)] });
    // The form as a one-row file: the same column names, the same checks.
    const columns = ['id', ...ADD_STUDENT_FIELDS];
    const cells = columns.map((name): Cell => ({ kind: 'text', value: (input as Record<string, string | undefined>)[name] ?? '' }));
    const checked = checkRow({ rowNumber: 2, cells }, columns, { today, existing, resolve });
    throwIfProblems(checked.errors, badRequest);
    checkAcrossRows([checked], identifiers);
    throwIfProblems(checked.errors, conflict);
    const at = nowIso();
    await writeNewStudent(trx, input.id, checked.values, actor, at);
    const { values } = checked;
    // One student added by the office comes from another school (D80).
    await recordEntry(trx, { studentId: input.id, on: today, reason: 'transfer_in', classId: asText(values.class_id) || null }, actor);
    return {
      id: input.id,
      first_name: asText(values.first_name),
      last_name: asText(values.last_name),
      class_id: asText(values.class_id),
      date_of_birth: asText(values.date_of_birth),
      birth_certificate_no: asText(values.birth_certificate_no),
      updatedAt: at,
      registration: 'not_started',
    };
  });
  // A save made meanwhile can take the number first: its unique index refuses, with the field named.
  return added.catch((error: unknown) => {
    const field = identityFieldOfError(error);
    if (!field) throw error;
    throw conflict(IDENTITY_TAKEN_MESSAGES[field], { [field]: [IDENTITY_TAKEN_MESSAGES[field]] });
  });
}

function throwIfProblems(errors: Record<string, string[]>, refuse: (message: string, errors: Record<string, string[]>) => Error): void {
  const first = Object.values(errors)[0]?.[0];
  if (first !== undefined) throw refuse(first, errors);
}

// ---- the template --------------------------------------------------------------------------------

/** The downloadable template: the headings, and a second sheet saying what each column takes. */
export async function buildImportTemplate(): Promise<Buffer> {
  const { Workbook } = await loadExcelJs();
  const workbook = new Workbook();
  workbook.creator = 'School Portal';
  const fields = TEMPLATE_FIELDS.map((name) => findField(name)!);
  const students = workbook.addWorksheet('Students', { views: [{ state: 'frozen', ySplit: 1 }] });
  students.columns = [{ header: 'Student ID', width: 14 }, ...fields.map((field) => ({ header: field.label, width: Math.max(14, field.label.length + 4) }))];
  students.getRow(1).font = { bold: true };
  // Text cells, so Excel keeps leading zeros and does not turn IDs or dates into numbers.
  for (let c = 1; c <= fields.length + 1; c++) students.getColumn(c).numFmt = '@';

  const help = workbook.addWorksheet('How to fill it in');
  help.columns = [{ header: 'Column', width: 24 }, { header: 'What to write', width: 90 }];
  help.getRow(1).font = { bold: true };
  const rules: [string, string][] = [
    ['Student ID', 'Required. Letters, digits and dashes, up to 20. An existing ID updates that student; a new one creates the student.'],
    ['First Name, Last Name', 'Required for a new student. Up to 20 characters.'],
    ['Date of Birth', 'Required for a new student. yyyy-MM-dd (2014-03-09) or dd/MM/yyyy (09/03/2014); from 1950-01-01, not in the future.'],
    ['Birth Certificate Pin / SEA Number', 'A new student needs one of them: the first sign-in asks for it with the date of birth. Each belongs to one student only.'],
    ['Class', 'Required for a new student: a form class of the school, such as 1A.'],
    ['House', 'The house code or name.'],
    ['Sex', 'Female or Male.'],
    ['Empty cells', 'Leave the stored value as it is. Columns of the registration record may be added with their labels as headings (Religion, Town, ...).'],
  ];
  for (const rule of rules) help.addRow(rule);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
