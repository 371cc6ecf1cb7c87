/** Texts of the sign-in screens whose words are fixed (docs/requirements.md R3, R16). */

export const PASSWORD_CHANGED_MESSAGE = 'Password Changed Successfully.';
export { PASSWORDS_DO_NOT_MATCH } from '../components/new-password-fields.js';
