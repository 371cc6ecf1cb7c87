import type { Db } from '../db/database.js';

/** What a scope check needs of a student: the class that places them in a form teacher's reach, and whether they have left. */
export interface StudentScope {
  class_id: string | null;
  left_on: string | null;
}

export function findStudentScope(db: Db, studentId: string): Promise<StudentScope | undefined> {
  return db.selectFrom('students').select(['class_id', 'left_on']).where('id', '=', studentId).executeTakeFirst();
}

export function findStudentLeftOn(db: Db, studentId: string): Promise<{ left_on: string | null } | undefined> {
  return db.selectFrom('students').select('left_on').where('id', '=', studentId).executeTakeFirst();
}

/** Whether any family account is linked to the student. */
export async function hasLinkedFamily(db: Db, studentId: string): Promise<boolean> {
  const row = await db.selectFrom('guardian_students').select('user_id').where('student_id', '=', studentId).limit(1).executeTakeFirst();
  return row !== undefined;
}
