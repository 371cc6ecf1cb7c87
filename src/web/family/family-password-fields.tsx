import { STAFF_PASSWORD_MIN_LENGTH } from '../../shared/staff.schemas.js';

/** What a family account's password field says before anything is wrong: the shared rule (FamilyPasswordSchema). */
export const FAMILY_PASSWORD_HINT = `At least ${STAFF_PASSWORD_MIN_LENGTH} characters, not a common password.`;
