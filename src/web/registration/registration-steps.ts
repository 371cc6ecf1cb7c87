import type { ProgressFlags } from '../../shared/registration.progress.js';

/** The six registration steps (docs/requirements.md R4), in order: path under /registration, label and flag. */
export const REGISTRATION_STEPS = [
  { path: 'student-data', label: 'Student Data', short: 'Student', flag: 'studentData' },
  { path: 'family-data', label: 'Family Data', short: 'Family', flag: 'familyData' },
  { path: 'health-data', label: 'Health Data', short: 'Health', flag: 'healthData' },
  { path: 'other-data', label: 'Other Data', short: 'Other', flag: 'otherData' },
  { path: 'documents', label: 'Documents', short: 'Docs', flag: 'documents' },
  { path: 'complete', label: 'Complete', short: 'Complete', flag: 'submit' },
] as const satisfies readonly { path: string; label: string; short: string; flag: keyof ProgressFlags }[];

export type RegistrationStepPath = (typeof REGISTRATION_STEPS)[number]['path'];
