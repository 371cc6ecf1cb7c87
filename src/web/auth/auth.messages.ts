/** Texts of the sign-in screens that the spec fixes word for word (SPEC §4, §8). */

export const PASSWORD_CHANGED_MESSAGE = 'Password Changed Successfully.';
export { PASSWORDS_DO_NOT_MATCH } from '../components/new-password-fields.js';
