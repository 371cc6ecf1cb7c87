/**
 * How a form class is written for people, as the spec titles a report card (SPEC §2, Term Report
 * screen: 'Form {form_level} {class_id}'): 'Form 4 4A'. The one place every screen takes it from.
 * Without a known form level the class id alone; without a class, 'Form 4'; with neither, null,
 * for the screen to word ('Not recorded').
 */
export function formClassName(classId: string | null | undefined, formLevel: number | null | undefined): string | null {
  const hasLevel = formLevel !== null && formLevel !== undefined;
  if (!classId) return hasLevel ? `Form ${formLevel}` : null;
  return hasLevel ? `Form ${formLevel} ${classId}` : classId;
}
