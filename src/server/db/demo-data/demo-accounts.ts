/**
 * The demo school's documented sign-ins (README "Demo sign-ins"). The seeder creates exactly
 * these; tests and the start-up banner read them from here, so they never drift apart.
 */

export const DEMO_PASSWORD = 'portal-demo-2026';

export const DEMO_ADMIN = { username: 'admin', password: 'admin-demo-2026', name: 'Admin' } as const;

/** Every demo staff account but the administrator signs in with this password (12+ characters, D49). */
export const DEMO_STAFF_PASSWORD = 'staff-demo-2026';

/** One demo account per staff role (the administrator is DEMO_ADMIN), and a form teacher per class. */
export const DEMO_STAFF = {
  office: { username: 'office', password: DEMO_STAFF_PASSWORD, name: 'Olivia Thomas', role: 'office' },
  principal: { username: 'principal', password: DEMO_STAFF_PASSWORD, name: 'Dr. Ravi Maharaj', role: 'principal' },
  /** The form teacher of 5A, the class of the registered demo student. */
  formTeacher: { username: 'teacher.5a', password: DEMO_STAFF_PASSWORD, role: 'form_teacher', classId: '5A' },
} as const;

/** The username of the demo form teacher of a class: `teacher.5a` for 5A. */
export const demoTeacherUsername = (classId: string): string => `teacher.${classId.toLowerCase()}`;

const DEMO_TEACHER_NAME = /^teacher\.[1-6][a-z]$/;

/**
 * The published password of a demo staff user name (README "Demo sign-ins"), or null for any
 * other name. These open only the demo school's database (D35, D49).
 */
export function publishedDemoPassword(username: string | null): string | null {
  const name = username?.toLowerCase() ?? '';
  if (name === DEMO_ADMIN.username) return DEMO_ADMIN.password;
  if (name === DEMO_STAFF.office.username || name === DEMO_STAFF.principal.username || DEMO_TEACHER_NAME.test(name)) return DEMO_STAFF_PASSWORD;
  return null;
}

/**
 * The demo family: one parent's account linked to three children in different forms
 * (5A, 1A and 3A), signed in with this e-mail and password on the demo school only.
 */
export const DEMO_FAMILY = {
  email: 'family@example.com',
  password: 'family-demo-2026',
  name: 'Sandra Mohammed',
  childIds: ['20220001', '20260001', '20240001'],
} as const;

export const DEMO_STUDENTS = {
  /** Every step complete, documents uploaded, terms agreed; has reports and attendance. */
  registered: { student_id: '20220001', password: DEMO_PASSWORD, first_name: 'Aaliyah', last_name: 'Mohammed' },
  /** Signed in before, registration half done. */
  inProgress: { student_id: '20260001', password: DEMO_PASSWORD, first_name: 'Jaden', last_name: 'Ramdass' },
  /** Never signed in: first login with the birth certificate pin or SEA number + date of birth. */
  firstLogin: {
    student_id: '20260002',
    first_name: 'Keisha',
    last_name: 'Charles',
    birth_certificate_no: 'B26-0481516',
    sea_no: 'SEA2026-1048',
    date_of_birth: '2014-03-09',
  },
  /** Password reset by the office: signs in with the date of birth (yyyymmdd), then must change it. */
  passwordReset: { student_id: '20240001', first_name: 'Marcus', last_name: 'Baptiste', date_of_birth: '2012-07-21' },
} as const;
