import { DOCUMENT_SLOTS, requiredDocumentTypes } from '../../shared/documents.slots.js';
import { schoolToday } from '../../shared/dates.js';
import { computeProgress } from '../../shared/registration.progress.js';
import type { FamilyHome, FamilyHomeChild, FamilyHomeToday } from '../../shared/family-home.schemas.js';
import { formClassName } from '../../shared/form-class.js';
import { getDayAttendanceOf } from '../attendance/attendance.service.js';
import type { Db } from '../db/database.js';
import { getRegistrationStatuses } from '../registration/registration.service.js';
import * as repo from './family-home.repository.js';

/** The six steps the registration header counts (the terms' own flag is part of Submit). */
const PROGRESS_STEPS = ['studentData', 'familyData', 'healthData', 'otherData', 'documents', 'submit'] as const;

const slotLabel = (type: string) => DOCUMENT_SLOTS.find((slot) => slot.type === type)?.label ?? type;

/**
 * The home cards of the children named (the route passes only those the access module lets the
 * account read), in that order: registration progress and deadline, documents missing or returned,
 * today's attendance and the newest posted report card (D76). A fixed number of reads, whatever
 * the number of children.
 */
export async function getFamilyHome(db: Db, studentIds: readonly string[], now = new Date()): Promise<FamilyHome> {
  const date = schoolToday(now);
  if (studentIds.length === 0) return { date, children: [] };
  const [rows, statuses, documents, reports, day] = await Promise.all([
    repo.listChildRows(db, studentIds),
    getRegistrationStatuses(db, studentIds, now),
    repo.listDocumentStates(db, studentIds),
    repo.listPostedReportTerms(db, studentIds),
    getDayAttendanceOf(db, studentIds, date),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row] as const));
  const children: FamilyHomeChild[] = [];
  for (const id of studentIds) {
    const row = byId.get(id);
    if (!row) continue;
    const status = statuses.get(id);
    const files = documents.filter((document) => document.student_id === id);
    const uploaded = new Set(files.map((file) => file.file_type));
    // Computed now from the record, as the registration screens do (getStudentRecord), so never stale.
    const progress = computeProgress(row, uploaded, { today: date });
    const latest = reports.filter((report) => report.student_id === id).sort((a, b) => b.year - a.year || b.term - a.term)[0];
    const today: FamilyHomeToday =
      day.kind === 'recorded'
        ? {
            status: day.days.get(id)!.status,
            time_in: day.days.get(id)!.timeIn,
          }
        : { status: day.kind, time_in: null };
    children.push({
      student_id: id,
      first_name: row.first_name,
      last_name: row.last_name,
      class_name: formClassName(row.class_id, row.form_level),
      registration: {
        steps_done: PROGRESS_STEPS.filter((step) => progress[step] === 1).length,
        steps_total: PROGRESS_STEPS.length,
        submitted: progress.submit === 1,
        review: row.review_state ?? null,
        deadline: status?.deadline ?? null,
        editable: status?.editable ?? false,
        reason: status?.reason ?? null,
      },
      documents: {
        missing: requiredDocumentTypes(row)
          .filter((type) => !uploaded.has(type))
          .map((type) => ({ type, label: slotLabel(type) })),
        returned: files
          .filter((file) => file.review_state === 'returned')
          .map((file) => ({
            type: file.file_type,
            label: slotLabel(file.file_type),
            reason: file.review_reason,
          })),
      },
      today,
      latest_report: latest ? { year: latest.year, term: latest.term } : null,
    });
  }
  return { date, children };
}
