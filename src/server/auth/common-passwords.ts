import { dictionary } from '@zxcvbn-ts/language-common';
import { STAFF_PASSWORD_MIN_LENGTH } from '../../shared/staff.schemas.js';

/**
 * The list of common passwords a staff password may not be (OWASP ASVS 2.1.7, NIST SP 800-63B
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
