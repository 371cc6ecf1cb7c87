import { REGISTRATION_FIELDS, formatPhone, yesNoText, type FieldValue, type RegistrationField } from '../../shared/registration.fields.js';
import { computeProgress, type ProgressFlags } from '../../shared/registration.progress.js';
import { reasonText, type EnrolmentEvent } from '../../shared/enrolment.schemas.js';
import type { Db } from '../db/database.js';
import { latestEnrolmentEventsOf } from '../enrolment/enrolment.service.js';
import * as repo from './students.repository.js';
import type { SheetColumn } from '../spreadsheets/xlsx-writer.js';

/**
 * 'Registration Data.xlsx' (docs/requirements.md R11 Export Data; `GET /api/registration-data-spreadsheet`):
 * every student with every field of the catalogue, headed by the catalogue's labels; codes
 * shown as names (religion, ethnic group, house); switches as Yes/No; dates as dates; the six
 * progress flags computed exactly as the registration screens compute them.
 */

/**
 * Records read per query. Small on purpose: a page stays alive while its rows are written, and a
 * page that outlives two of V8's young-generation collections is copied to the old generation and
 * then waits there for a full GC. 500-row pages left about 20 MB behind per export (the server's
 * peak grew by that much from one export to the next); 50-row pages are written well within one
 * collection, at the same CPU (docs/performance.md).
 */
const PAGE_SIZE = 50;

/** A record ready for the sheet: the row, its progress and the lookup names. */
export interface ExportRow {
  record: repo.StudentRow;
  progress: ProgressFlags;
  /** The newest entry of the enrolment history, and the newest exit (D80). */
  enrolment: { entry?: EnrolmentEvent; exit?: EnrolmentEvent };
}

/** A former student's exit; a student on the roll has none, even one readmitted after an earlier exit. */
const exitOf = (row: ExportRow) => (row.record.left_on ? row.enrolment.exit : undefined);

const yesNo = (value: unknown) => (Number(value) === 1 ? 'Yes' : 'No');

function fieldColumn(field: RegistrationField, names: repo.LookupNames): SheetColumn<ExportRow> {
  const raw = (row: ExportRow) => (row.record as unknown as Record<string, FieldValue>)[field.name] ?? null;
  const byLookup: Map<string, string> | undefined =
    field.lookup === 'religions' ? names.religions : field.lookup === 'ethnicGroups' ? names.ethnicGroups : field.lookup === 'houses' ? names.houses : undefined;
  if (byLookup) {
    const nameOf = (row: ExportRow) => {
      const code = raw(row);
      return code === null ? null : (byLookup.get(String(code)) ?? String(code));
    };
    return { header: field.label, kind: 'text', value: nameOf };
  }
  switch (field.control) {
    case 'switch':
      return { header: field.label, kind: 'text', width: Math.max(8, field.label.length + 2), value: (row) => yesNo(raw(row)) };
    case 'yesno':
      // Yes, No or Not answered (D75): an unanswered question is never exported as No.
      return { header: field.label, kind: 'text', width: Math.max(14, field.label.length + 2), value: (row) => yesNoText(raw(row)) };
    case 'date':
      return { header: field.label, kind: 'date', width: Math.max(12, field.label.length + 2), value: raw };
    case 'number':
      return { header: field.label, kind: 'number', value: raw };
    case 'phone':
      return { header: field.label, kind: 'text', width: Math.max(16, field.label.length + 2), value: (row) => formatPhone(raw(row) === null ? null : String(raw(row))) };
    default:
      return { header: field.label, kind: 'text', ...(field.maxLength && field.maxLength > 50 ? { width: 40 } : {}), value: raw };
  }
}

const PROGRESS_COLUMNS: readonly (readonly [keyof ProgressFlags, string])[] = [
  ['studentData', 'Student Data Complete'],
  ['familyData', 'Family Data Complete'],
  ['healthData', 'Health Data Complete'],
  ['otherData', 'Other Data Complete'],
  ['documents', 'Documents Complete'],
  ['submit', 'Registration Submitted'],
];

/** The sheet's columns: Student ID, every catalogue field, the progress flags, Last Updated. */
export function registrationColumns(names: repo.LookupNames): SheetColumn<ExportRow>[] {
  return [
    { header: 'Student ID', kind: 'text', width: 12, value: (row) => row.record.id },
    ...REGISTRATION_FIELDS.map((field) => fieldColumn(field, names)),
    ...PROGRESS_COLUMNS.map(([flag, header]): SheetColumn<ExportRow> => ({ header, kind: 'text', value: (row) => yesNo(row.progress[flag]) })),
    { header: 'Last Updated', kind: 'datetime', width: 18, value: (row) => row.record.updated_at },
    // Former students (D60) appear only when the export asks for them; these say who they are.
    { header: 'Left On', kind: 'date', width: 12, value: (row) => row.record.left_on },
    { header: 'Left From Class', kind: 'text', width: 10, value: (row) => row.record.left_class },
    // The enrolment history's current entry, and a former student's exit (D80).
    { header: 'Entry Date', kind: 'date', width: 12, value: (row) => row.enrolment.entry?.on ?? null },
    { header: 'Entry Reason', kind: 'text', width: 24, value: (row) => (row.enrolment.entry ? reasonText(row.enrolment.entry) : null) },
    { header: 'Exit Date', kind: 'date', width: 12, value: (row) => exitOf(row)?.on ?? null },
    { header: 'Exit Reason', kind: 'text', width: 36, value: (row) => {
      const exit = exitOf(row);
      return exit ? [reasonText(exit), exit.note].filter(Boolean).join(' — ') : null;
    } },
  ];
}

/**
 * The records page by page (keyset by id), each page with its progress and enrolment: three
 * queries a page (the records, their documents, their enrolment history), never the whole table at once.
 */
export async function* registrationPages(db: Db, today: string, pageSize = PAGE_SIZE, includeFormer = false): AsyncGenerator<ExportRow[]> {
  let afterId: string | null = null;
  for (;;) {
    const records = await repo.pageStudentRecords(db, afterId, pageSize, null, includeFormer);
    if (records.length === 0) return;
    const ids = records.map((r) => r.id);
    const [documents, enrolment] = await Promise.all([repo.listDocumentTypesOf(db, ids), latestEnrolmentEventsOf(db, ids)]);
    yield records.map((record) => ({
      record,
      progress: computeProgress(record as unknown as Record<string, FieldValue>, documents.get(record.id) ?? [], { today }),
      enrolment: enrolment.get(record.id) ?? {},
    }));
    if (records.length < pageSize) return;
    afterId = records[records.length - 1]!.id;
  }
}
