import type { FamilyChild } from '../../shared/family.schemas.js';

/** How the family screens name a child: "Jaden Ramdass", or the Student ID without a name. */
export function childName(child: Pick<FamilyChild, 'first_name' | 'last_name' | 'student_id'>): string {
  return [child.first_name, child.last_name].filter(Boolean).join(' ') || child.student_id;
}

/** The child switcher's line: "Jaden Ramdass · Form 1 1A" (the name alone for a child in no class). */
export function childLabel(child: Pick<FamilyChild, 'first_name' | 'last_name' | 'student_id' | 'class_name'>): string {
  return child.class_name ? `${childName(child)} · ${child.class_name}` : childName(child);
}

/**
 * Who reaches a child's record, as My children says it: "You and John Ramdass", "You only";
 * the server lists this account first.
 */
export function linkedPeople(child: Pick<FamilyChild, 'guardians'>): string {
  const others = child.guardians.filter((guardian) => !guardian.is_you).map((guardian) => guardian.name);
  if (others.length === 0) return 'You only';
  const last = others.pop()!;
  return others.length === 0 ? `You and ${last}` : `You, ${others.join(', ')} and ${last}`;
}
