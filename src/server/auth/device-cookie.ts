import crypto from 'node:crypto';
import { isSameSignature, signatureOf } from '../http/signing.js';

/**
 * Device cookies (OWASP "Slow Down Online Guessing Attacks with Device Cookies"; docs/decisions.md
 * D37): a browser that signed in to an account successfully keeps, in one httpOnly cookie, an
 * entry per account — a random id and the HMAC of (account, id) under the server's secret. The
 * right password from that browser is checked even while other people's guesses slow the account
 * down; its own failures are counted against the entry instead. An entry cannot be made up or
 * moved to another account without the secret.
 */

export const DEVICE_COOKIE = 'portal_device';
/** How long a browser stays known without signing in again. */
export const DEVICE_COOKIE_MAX_AGE_S = 180 * 24 * 60 * 60;
/** Accounts one browser remembers (a shared computer in a lab or a family); the oldest go first. */
const MAX_ACCOUNTS = 10;
/** A cookie longer than MAX_ACCOUNTS entries can be is not read at all. */
const MAX_COOKIE_LENGTH = 1000;
const ENTRY_SEPARATOR = '~';

export interface TrustedDevices {
  /** This browser's id for the account when it signed in to it before (a valid entry), else null. */
  deviceFor(userId: number): string | null;
  /** The cookie's new value after a successful sign-in: this account's entry first. */
  withAccount(userId: number): string;
}

interface Entry {
  id: string;
  mac: string;
}

/** Reads the browser's device cookie (undefined or malformed: no entries). */
export function readTrustedDevices(secret: Buffer, cookie: string | undefined): TrustedDevices {
  const mac = (userId: number, id: string) => signatureOf(secret, 'device', userId, id);
  const entries: Entry[] =
    !cookie || cookie.length > MAX_COOKIE_LENGTH
      ? []
      : cookie.split(ENTRY_SEPARATOR).flatMap((part) => {
          const [id, entryMac, ...rest] = part.split('.');
          return id && entryMac && rest.length === 0 ? [{ id, mac: entryMac }] : [];
        });
  const entryOf = (userId: number) => entries.find((entry) => isSameSignature(entry.mac, mac(userId, entry.id)));
  return {
    deviceFor: (userId) => entryOf(userId)?.id ?? null,
    withAccount(userId) {
      const own = entryOf(userId);
      const id = own?.id ?? crypto.randomBytes(16).toString('base64url');
      const others = entries.filter((entry) => entry !== own).slice(0, MAX_ACCOUNTS - 1);
      return [{ id, mac: mac(userId, id) }, ...others].map((entry) => `${entry.id}.${entry.mac}`).join(ENTRY_SEPARATOR);
    },
  };
}
