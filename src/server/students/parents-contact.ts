import type { Content, TableCell } from 'pdfmake/interfaces.js';
import { REGISTRATION_STATE_LABELS, listName, type RegistrationState } from '../../shared/students.schemas.js';
import { formatPhone, visibleSections } from '../../shared/registration.fields.js';
import { COLORS, dataTable, pageFooter, schoolHeader, sectionTitle } from '../pdf/pieces.js';
import { PAGE_SIZES, type PrintoutFrame } from '../pdf/printout.js';
import type { ContactRow } from './students.repository.js';
import { classTitle, type ReportHeading } from './registration-report.pdf.js';
import type { SheetColumn } from '../spreadsheets/xlsx-writer.js';

/**
 * Parents Contact (docs/requirements.md R11, under Reports): per student the mother's, father's and
 * guardian's names, phones and e-mails, and the emergency contact, per class or for the whole
 * school, as a PDF and as a spreadsheet. A parent section the living status hides (R4) is
 * left out of the PDF, so an old number of a parent no longer at home is not called by mistake;
 * the spreadsheet keeps every stored value for the office to sort out. The PDF is made a class
 * at a time (pdf/printout-in-parts.ts, D63).
 */

type Party = 'mother' | 'father' | 'guardian';

interface Person {
  name: string | null;
  mobile: string | null;
  home: string | null;
  work: string | null;
  email: string | null;
}

function personOf(row: ContactRow, party: Party): Person {
  switch (party) {
    case 'mother':
      return { name: row.mother_name, mobile: row.mobile_phone_mother, home: row.mother_home_phone, work: row.mother_business_phone, email: row.email_mother };
    case 'father':
      return { name: row.father_name, mobile: row.mobile_phone_father, home: row.father_home_phone, work: row.father_business_phone, email: row.email_father };
    case 'guardian':
      return { name: row.guardian_name, mobile: row.mobile_phone_guardian, home: row.home_phone_guardian, work: row.business_phone_guardian, email: row.email_guardian };
  }
}

/** Whether a parent section is shown for the record: by living status, or (none chosen yet) when it has a name. */
function isShown(row: ContactRow, party: Party): boolean {
  if (row.living_status) return visibleSections(row.living_status).includes(party);
  return Boolean(personOf(row, party).name);
}

function personCell(person: Person | null): TableCell {
  if (!person || !(person.name || person.mobile || person.home || person.work || person.email)) return { text: '—', color: COLORS.muted };
  const lines: Content[] = [{ text: person.name ?? '(no name)', bold: true }];
  const phone = (label: string, value: string | null) => {
    const text = formatPhone(value);
    if (text) lines.push({ text: `${label} ${text}` });
  };
  phone('Mobile', person.mobile);
  phone('Home', person.home);
  phone('Work', person.work);
  if (person.email) lines.push({ text: person.email, color: COLORS.accent });
  return { stack: lines };
}

function emergencyCell(row: ContactRow): TableCell {
  if (!row.emergency_contact && !row.emergency_home_phone) return { text: '—', color: COLORS.muted };
  const lines: Content[] = [{ text: row.emergency_contact ?? '(no name)', bold: true }];
  if (row.relation_to_child) lines.push({ text: row.relation_to_child, color: COLORS.muted });
  const phone = formatPhone(row.emergency_home_phone);
  if (phone) lines.push({ text: phone });
  return { stack: lines };
}

export interface ContactClass {
  classId: string | null;
  formLevel: number | null;
  formTeacher: string | null;
  students: ContactRow[];
  /**
   * Absent: the whole class. Present: a piece of a class larger than a part (D94), which starts on
   * a new page, '(continued)' after the first, its heading counting the whole class's students.
   */
  piece?: { continued: boolean; studentCount: number };
}

/** What every part shares: Letter, landscape, the foot (PdfInParts numbers the pages). */
export function parentsContactFrame(heading: ReportHeading): PrintoutFrame {
  return {
    pageSize: { width: PAGE_SIZES.letter.height, height: PAGE_SIZES.letter.width },
    pageOrientation: 'landscape',
    pageMargins: [36, 36, 36, 44],
    info: { title: `Parents Contact — ${heading.scope}`, author: heading.schoolName },
    defaultStyle: { fontSize: 8 },
    footer: pageFooter(`${heading.schoolName} · Parents Contact · ${heading.scope} · printed ${heading.printedAt}. Confidential: for school use only.`),
  };
}

/** The school's header, which opens the first part. */
export function parentsContactHeader(heading: ReportHeading): Content {
  return schoolHeader(heading.schoolName, 'Parents Contact', heading.scope);
}

/**
 * A class's section of the Parents Contact PDF (Letter, landscape): a table on pages of its own
 * (D63). The first class follows the school's header (`opening`).
 */
export function parentsContactSection(group: ContactClass, opening?: Content): Content[] {
  const teacher = group.formTeacher ? ` — Form Teacher: ${group.formTeacher}` : '';
  const continued = group.piece?.continued ? ', continued' : '';
  const heading = `${classTitle(group)}${teacher} (${group.piece?.studentCount ?? group.students.length} students${continued})`;
  const top = opening ? [opening] : [];
  if (group.students.length === 0) return [...top, sectionTitle(heading), { text: 'No students in this class.', color: COLORS.muted }];
  return [
    ...top,
    dataTable(
      ['Student', 'Living Status', 'Mother', 'Father', 'Guardian', 'Emergency Contact'],
      group.students.map((row) => [
        { stack: [{ text: listName(row) || '—', bold: true }, { text: row.id, color: COLORS.muted }] },
        { text: row.living_status ?? '—' },
        ...(['mother', 'father', 'guardian'] as const).map((party) => personCell(isShown(row, party) ? personOf(row, party) : null)),
        emergencyCell(row),
      ]),
      [100, 55, '*', '*', '*', '*'],
      // The heading repeats on the class's continued pages.
      { caption: heading },
    ),
  ];
}

/** The Parents Contact spreadsheet's columns (the registration spreadsheet's style). */
export function contactColumns(): SheetColumn<ContactRow>[] {
  const text = (header: string, value: (row: ContactRow) => string | null): SheetColumn<ContactRow> => ({ header, kind: 'text', value });
  const partyColumns = (party: Party, title: string) => [
    text(`${title} Name`, (row) => personOf(row, party).name),
    text(`${title} Mobile Phone`, (row) => formatPhone(personOf(row, party).mobile)),
    text(`${title} Home Phone`, (row) => formatPhone(personOf(row, party).home)),
    text(`${title} Work Phone`, (row) => formatPhone(personOf(row, party).work)),
    text(`${title} E-mail`, (row) => personOf(row, party).email),
  ];
  return [
    { header: 'Student ID', kind: 'text', width: 12, value: (row) => row.id },
    text('Last Name', (row) => row.last_name),
    text('First Name', (row) => row.first_name),
    { header: 'Class', kind: 'text', width: 8, value: (row) => row.class_id },
    text('Living Status', (row) => row.living_status),
    ...partyColumns('mother', "Mother's"),
    ...partyColumns('father', "Father's"),
    ...partyColumns('guardian', "Guardian's"),
    text('Emergency Contact', (row) => row.emergency_contact),
    text('Emergency Contact Phone', (row) => formatPhone(row.emergency_home_phone)),
    text('Relation to Child', (row) => row.relation_to_child),
  ];
}

/** A call-list row: the contact row with the date of birth and the registration state. */
export type CallListRow = ContactRow & { date_of_birth: string | null; registration: RegistrationState };

/**
 * The call list of the filtered student list: who the student is, how far the registration has
 * come, and every parent's and the emergency contact's phones and e-mails (the Parents Contact
 * columns), so the office can ring round the families whose registration is not complete.
 */
export function callListColumns(): SheetColumn<CallListRow>[] {
  const columns: SheetColumn<CallListRow>[] = contactColumns();
  const afterClass = columns.findIndex((column) => column.header === 'Class') + 1;
  columns.splice(
    afterClass,
    0,
    { header: 'Date of Birth', kind: 'date', width: 12, value: (row) => row.date_of_birth },
    { header: 'Registration', kind: 'text', width: 13, value: (row) => REGISTRATION_STATE_LABELS[row.registration] },
  );
  return columns;
}
