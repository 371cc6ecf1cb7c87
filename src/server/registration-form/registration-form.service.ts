import { schoolDateTime } from '../../shared/dates.js';
import type { RecordValues } from '../../shared/registration.fields.js';
import type { Db } from '../db/database.js';
import * as documents from '../documents/documents.service.js';
import { listLookup } from '../lookups/lookups.service.js';
import type { PdfImage } from '../pdf/printout.js';
import { renderPdf } from '../pdf/render-on-pool.js';
import * as registration from '../registration/registration.service.js';
import type { RegistrationFormContent } from '../../shared/registration-form.schemas.js';
import { registrationFormContent, type RegistrationFormData } from './registration-form.content.js';
import { buildRegistrationForm } from './registration-form.pdf.js';

const isPictureMime = (mime: string): mime is PdfImage['mime'] => mime === 'image/png' || mime === 'image/jpeg';

function labelMap(rows: readonly object[], value: string, label: string): Map<string, string> {
  return new Map(rows.map((row) => [String((row as Record<string, unknown>)[value]), String((row as Record<string, unknown>)[label])]));
}

/** Everything the form prints, read from the record, its documents and the lookups. */
export async function loadRegistrationForm(db: Db, studentId: string, schoolName: string, now = new Date()): Promise<RegistrationFormData> {
  const record = await registration.getStudentRecord(db, studentId, now);
  const [files, religions, ethnicGroups, houses] = await Promise.all([
    documents.documentsForForm(db, studentId),
    listLookup(db, 'religions'),
    listLookup(db, 'ethnicGroups'),
    listLookup(db, 'houses'),
  ]);
  // The bytes as stored: the detected kind (documents' sniffing) decides the mime type.
  const picture = files.picture && isPictureMime(files.picture.mime) ? { mime: files.picture.mime, bytes: files.picture.bytes } : null;
  return {
    schoolName,
    studentId,
    record: record as unknown as RecordValues,
    lookupLabels: {
      religion_code: labelMap(religions, 'code', 'religion'),
      ethnic_group_code: labelMap(ethnicGroups, 'id', 'group_type'),
      house_code: labelMap(houses, 'id', 'name'),
    },
    uploaded: files.uploaded,
    reviewStates: files.states,
    picture,
    agreedOn: Number(record.agree_terms_conditions) === 1 ? record.agree_terms_date : null,
    agreement: record.agreement,
    printedAt: schoolDateTime(now),
  };
}

/**
 * The form as PDF bytes. A picture the PDF library cannot read (its header was right, the rest
 * was not) must not cost the parent the whole form: it is printed with an empty photo box.
 */
export async function renderRegistrationForm(data: RegistrationFormData): Promise<Buffer> {
  try {
    return await renderPdf(buildRegistrationForm(data));
  } catch (error) {
    if (data.picture === null) throw error;
    return renderPdf(buildRegistrationForm({ ...data, picture: null }));
  }
}

/** The form's content as data, for the phone's view (the same words the PDF prints, D75). */
export async function loadRegistrationFormContent(db: Db, studentId: string, schoolName: string): Promise<RegistrationFormContent> {
  return registrationFormContent(await loadRegistrationForm(db, studentId, schoolName));
}
