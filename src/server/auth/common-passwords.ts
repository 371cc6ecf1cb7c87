import { dictionary } from '@zxcvbn-ts/language-common';
import { STAFF_PASSWORD_MIN_LENGTH, STAFF_PASSWORD_TOO_COMMON } from '../../shared/staff.schemas.js';
import { fieldError } from '../http/errors.js';

/**
 * The list of common passwords no new password may be (staff, family and student accounts, D77) (OWASP ASVS 2.1.7, NIST SP 800-63B
 * 5.1.1.2: refuse passwords known from breaches). The list is `@zxcvbn-ts/language-common`'s
 * ranked "passwords-common" (about 49,000 from public breach corpora, the top 10,000 included),
 * kept up to date on npm rather than copied into the repository (docs/decisions.md D50). Only the
 * entries a staff password could be (12 characters or more) are kept in memory, a few hundred,
 * built on the first check so the server's start pays nothing for it.
 */

let longCommonPasswords: ReadonlySet<string> | undefined;

function commonPasswords(): ReadonlySet<string> {
  longCommonPasswords ??= new Set(
    dictionary['passwords-common'].filter((entry) => entry.length >= STAFF_PASSWORD_MIN_LENGTH).map((entry) => entry.toLowerCase()),
  );
  return longCommonPasswords;
}

/** Whether the password is on the list, in any letter case ("Password1234" is "password1234"). */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/** Refuses a common password as a 400 on its field (`password` unless named): every account's rule (D77). */
export function requireUncommonPassword(password: string, field = 'password'): void {
  if (isCommonPassword(password)) throw fieldError(field, STAFF_PASSWORD_TOO_COMMON);
}
