import { schoolDateTime } from '../../shared/dates.js';
import { formClassName } from '../../shared/form-class.js';
import { listSchoolDays } from '../../shared/school-days.js';
import type { Db } from '../db/database.js';
import { notFound } from '../http/errors.js';
import { renderPdf } from '../pdf/render-on-pool.js';
import { resolveReportClass } from './students.service.js';
import type { FormClassRow } from './students.repository.js';
import * as repo from './bulk.repository.js';
import { buildClassList, buildClassRegister, type ClassPrintHeading } from './class-print.pdf.js';

/** A class's printouts (docs/decisions.md D83), laid out on the worker pool like every class report. */

export interface PrintedClass {
  classId: string;
  bytes: Buffer;
}

async function requireClass(db: Db, classId: string): Promise<FormClassRow> {
  const formClass = await resolveReportClass(db, classId);
  if (!formClass) throw notFound(`The school has no form class ${classId}.`);
  return formClass;
}

function classHeading(schoolName: string, formClass: FormClassRow, now: Date): ClassPrintHeading {
  const name = formClassName(formClass.id, formClass.form_level) ?? formClass.id;
  return { schoolName, className: formClass.form_teacher ? `${name} — Form Teacher: ${formClass.form_teacher}` : name, printedAt: schoolDateTime(now) };
}

/** The class's students by name ('Last, First'), as the other class reports order them. */
async function classRoll(db: Db, classId: string): Promise<repo.ClassRollRow[]> {
  const students = await repo.listClassRoll(db, classId);
  return students.sort(
    (a, b) => (a.last_name ?? '').localeCompare(b.last_name ?? '', 'en') || (a.first_name ?? '').localeCompare(b.first_name ?? '', 'en') || a.id.localeCompare(b.id),
  );
}

export async function makeClassList(db: Db, schoolName: string, classId: string, now = new Date()): Promise<PrintedClass> {
  const formClass = await requireClass(db, classId);
  const heading = classHeading(schoolName, formClass, now);
  const bytes = await renderPdf(buildClassList({ ...heading, students: await classRoll(db, formClass.id) }));
  return { classId: formClass.id, bytes };
}

/** 'November 2026' for '2026-11'. */
function monthLabel(month: string): string {
  return new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T12:00:00Z`));
}

/** The last day of a month (yyyy-MM-dd) for 'yyyy-MM'. */
function lastDayOf(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, monthNumber, 0)).toISOString().slice(0, 10);
}

/** A blank register for a month: the school days (weekdays less the school's holidays) as columns. */
export async function makeClassRegister(db: Db, schoolName: string, classId: string, month: string, now = new Date()): Promise<PrintedClass> {
  const formClass = await requireClass(db, classId);
  const heading = classHeading(schoolName, formClass, now);
  const first = `${month}-01`;
  const last = lastDayOf(month);
  const days = listSchoolDays(first, last, await repo.listHolidayDates(db, first, last));
  const bytes = await renderPdf(buildClassRegister({ ...heading, students: await classRoll(db, formClass.id), monthLabel: monthLabel(month), days }));
  return { classId: formClass.id, bytes };
}
