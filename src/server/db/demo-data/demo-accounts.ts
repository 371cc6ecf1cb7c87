/**
 * The demo school's documented sign-ins (README "Demo sign-ins"). The seeder creates exactly
 * these; tests and the start-up banner read them from here, so they never drift apart.
 */

export const DEMO_PASSWORD = 'portal-demo-2026';

export const DEMO_ADMIN = { username: 'admin', password: 'admin-demo-2026', name: 'Admin' } as const;

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
