import type { SessionUser } from '../../shared/auth.schemas.js';
import { formClassName } from '../../shared/form-class.js';
import type { SchoolAction, StudentAction } from '../../shared/staff.js';

/**
 * What the admin area shows a staff role (docs/decisions.md "Each role's admin area"):
 * read from the session's `permissions` and `student_permissions`, which the server's policy
 * writes. Nothing here compares role names; these only hide what the server would refuse.
 */

type Who = Pick<SessionUser, 'permissions' | 'student_permissions'> | null | undefined;

/** Whether the signed-in person may take the action (on the students they can see, for a student action). */
export function canTake(user: Who, action: SchoolAction | StudentAction): boolean {
  if (!user) return false;
  return (user.permissions as readonly string[]).includes(action) || (user.student_permissions as readonly string[]).includes(action);
}

/**
 * Whether the person reaches every class: those who may export every student at once do; the rest
 * (a form teacher) only the classes of the session's `class_ids`. It also decides "All classes" in
 * the report screens' class choice, which the server answers only to them.
 */
export function reachesEveryClass(user: Who): boolean {
  return canTake(user, 'students.export');
}

/** The classes a class choice offers this person, in the school's order. */
export function classChoicesFor<C extends { id: string }>(user: (Who & Pick<SessionUser, 'class_ids'>) | null | undefined, classes: readonly C[]): C[] {
  if (!user) return [];
  if (reachesEveryClass(user)) return [...classes];
  return classes.filter((formClass) => user.class_ids.includes(formClass.id));
}

/** The class a screen opens on: none chosen ('') for someone who reaches every class, else their first. */
export function firstClassOf(user: (Who & Pick<SessionUser, 'class_ids'>) | null | undefined): string {
  if (!user || reachesEveryClass(user)) return '';
  return user.class_ids[0] ?? '';
}

/**
 * The Dashboard's heading for someone who sees only their classes: "Form 5 5A — Mrs. J. Francis"
 * (every class of theirs, in order); null for everyone else, whose heading stays "Students".
 */
export function classListTitle(
  user: (Who & Pick<SessionUser, 'class_ids' | 'name'>) | null | undefined,
  classes: readonly { id: string; form_level: number | null }[],
): string | null {
  if (!user || reachesEveryClass(user)) return null;
  const ids = user.class_ids;
  if (ids.length === 0) return `No class assigned — ${user.name}`;
  const names = ids.map((id) => formClassName(id, classes.find((formClass) => formClass.id === id)?.form_level) ?? id);
  return `${names.join(', ')} — ${user.name}`;
}
