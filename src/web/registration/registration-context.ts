import { createContext, useContext } from 'react';
import type { RegistrationStatus, StudentRecord } from '../../shared/registration.schemas.js';

/** What every registration step reads: whose record, the record itself and whether it may change. */
export interface RegistrationContextValue {
  studentId: string;
  record: StudentRecord;
  status: RegistrationStatus | undefined;
  /** Students: the window's verdict (SPEC §4); administrators may always edit. */
  editable: boolean;
  role: 'student' | 'admin';
}

export const RegistrationContext = createContext<RegistrationContextValue | null>(null);

/** The registration context of the surrounding layout; the Documents and Complete steps use it too. */
export function useRegistration(): RegistrationContextValue {
  const value = useContext(RegistrationContext);
  if (!value) throw new Error('useRegistration() must be used inside the registration layout.');
  return value;
}
