/**
 * Whose record a family account has open. A parent chooses one of the linked children
 * in the header's child switcher; every student screen (dashboard, registration, documents, term
 * reports, attendance) then shows that child, as staff name a student with `?student=ID`. The
 * choice is kept in the tab's sessionStorage, so plain links (the dashboard's cards, the
 * registration steps) keep it, and sign-out (which clears the tab's storage) forgets it.
 */

const CHOSEN_CHILD_KEY = 'portal.family.child';

/**
 * The child a family account's screen shows: the one the address names (`?student=`, even one not
 * linked: the server refuses it and the screen says so), else the one chosen in this tab while it
 * is still linked, else the first linked child; null with no child linked.
 */
export function childShownTo(childIds: readonly string[], named: string | null, remembered: string | null): string | null {
  if (named) return named;
  if (remembered && childIds.includes(remembered)) return remembered;
  return childIds[0] ?? null;
}

/** The child chosen in this tab, or null (also where there is no browser storage). */
export function readChosenChild(): string | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage.getItem(CHOSEN_CHILD_KEY);
  } catch {
    return null;
  }
}

/** Remembers the chosen child for this tab. */
export function rememberChild(studentId: string): void {
  try {
    window.sessionStorage.setItem(CHOSEN_CHILD_KEY, studentId);
  } catch {
    // Storage refused (a private window's quota): the choice then lasts while the address names it.
  }
}
