import type { UserRole } from '../db/schema.js';
import type { StaffRole } from '../../shared/staff.js';

/**
 * The signed-in account as its session reads it on each request (`request.user`). Rules about who
 * is asking take the `Caller` made from it (access/roles.ts `callerOf`); `SessionUser` in
 * src/shared is what GET /api/session answers about it.
 */
export interface SessionAccount {
  id: number;
  role: UserRole;
  /** The job of a staff account; null for a student (D49). */
  staffRole: StaffRole | null;
  /** A form teacher's classes; empty for everyone else. */
  classIds: string[];
  /** A family account's linked children (their student IDs); empty for everyone else. */
  childIds: string[];
  studentId: string | null;
  username: string | null;
  /** A family account's sign-in address; null for everyone else. */
  email: string | null;
  name: string;
  firstLogin: boolean;
  passwordReset: boolean;
  /**
   * The second factor is required for the account and not set up yet: this session reaches only
   * the enrolment calls (http/access.ts `allowDuringSecondFactorSetup`) until it is.
   */
  secondFactorSetup: boolean;
}
