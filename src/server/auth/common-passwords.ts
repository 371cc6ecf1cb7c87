import { STAFF_PASSWORD_MIN_LENGTH, STAFF_PASSWORD_TOO_COMMON } from '../../shared/staff.schemas.js';
import { fieldError } from '../http/errors.js';

/**
 * The list of common passwords no new password may be (staff, family and student accounts, D77) (OWASP ASVS 2.1.7, NIST SP 800-63B
 * 5.1.1.2: refuse passwords known from breaches). The list is `@zxcvbn-ts/language-common`'s
 * ranked "passwords-common" (about 49,000 from public breach corpora, the top 10,000 included),
 * kept up to date on npm rather than copied into the repository (docs/decisions.md D50). Only the
 * entries a staff password could be (12 characters or more) are kept in memory, a few hundred,
 * built on the first check. The package (all its languages' lists, about 6 MB of heap) is loaded
 * by that first check, not by the server's start, which a server at rest would carry for nothing
 * (docs/performance.md, at-rest).
 */

let longCommonPasswords: Promise<ReadonlySet<string>> | undefined;

function commonPasswords(): Promise<ReadonlySet<string>> {
  longCommonPasswords ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].filter((entry) => entry.length >= STAFF_PASSWORD_MIN_LENGTH).map((entry) => entry.toLowerCase())),
  );
  return longCommonPasswords;
}

/** Whether the password is on the list, in any letter case ("Password1234" is "password1234"). */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.toLowerCase());
}

/** Refuses a common password as a 400 on its field (`password` unless named): every account's rule (D77). */
export async function requireUncommonPassword(password: string, field = 'password'): Promise<void> {
  if (await isCommonPassword(password)) throw fieldError(field, STAFF_PASSWORD_TOO_COMMON);
}
