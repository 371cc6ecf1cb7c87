import { z } from 'zod';

/**
 * How a form class is written for people, as the term report list titles a report card
 * (docs/requirements.md R9: 'Form {form_level} {class_id}'): 'Form 4 4A'. The one place every
 * screen takes it from.
 * Without a known form level the class id alone; without a class, 'Form 4'; with neither, null,
 * for the screen to word ('Not recorded').
 */
export function formClassName(classId: string | null | undefined, formLevel: number | null | undefined): string | null {
  const hasLevel = formLevel !== null && formLevel !== undefined;
  if (!classId) return hasLevel ? `Form ${formLevel}` : null;
  return hasLevel ? `Form ${formLevel} ${classId}` : classId;
}

/** A form class as a query or a filter names it (3B): one rule for every list, report and queue. */
export const ClassIdSchema = z
  .string({ message: 'Choose a class.' })
  .trim()
  .regex(/^[A-Za-z0-9-]{1,10}$/, 'Name a form class such as 3B.');
