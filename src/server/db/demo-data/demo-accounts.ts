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
