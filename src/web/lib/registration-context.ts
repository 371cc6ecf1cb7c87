import { createContext, useContext } from 'react';
import type { RegistrationStatus, StudentRecord } from '../../shared/registration.schemas.js';
import type { SessionUser } from '../../shared/auth.schemas.js';

/**
 * What every registration step reads from the registration frame: whose record, the record itself
 * and whether it may change. The frame is the registration feature's; the Documents step (the
 * documents feature) sits in it too, so the context is shared here.
 */
export interface RegistrationContextValue {
  studentId: string;
  record: StudentRecord;
  status: RegistrationStatus | undefined;
  /** Students: the registration window's verdict (open, before its deadline: docs/decisions.md); staff whose role may edit records always. */
  editable: boolean;
  role: SessionUser['role'];
  /** Asks for the record again: an upload or a removal changes its progress flags. */
  refreshRecord: () => void;
}

export const RegistrationContext = createContext<RegistrationContextValue | null>(null);

/** The registration context of the surrounding frame (registration/registration-layout.tsx). */
export function useRegistration(): RegistrationContextValue {
  const value = useContext(RegistrationContext);
  if (!value) throw new Error('useRegistration() must be used inside the registration layout.');
  return value;
}
