import { NEW_PASSWORD_HINT } from '../../shared/auth.schemas.js';

/** What a family account's password field says before anything is wrong: every account's rule (NewPasswordSchema, D77). */
export const FAMILY_PASSWORD_HINT = NEW_PASSWORD_HINT;
