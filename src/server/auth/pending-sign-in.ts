import { isSameSignature, signatureOf } from '../http/signing.js';

/**
 * A staff sign-in half done: the password was right and the code comes next. Kept in
 * the browser as an httpOnly cookie, `<user>.<remember>.<expires ms>.<mac>`, the MAC an
 * HMAC-SHA256 under the server's secret (D38) over those fields and the account's password hash:
 * it cannot be made up, moved to another account, stretched past its 5 minutes, or used after the
 * password changed. Nothing is stored server-side: every process on the database reads it alike.
 * Replaying it needs a fresh code anyway (a code is taken once, and wrong ones are throttled).
 */

export const PENDING_SIGN_IN_COOKIE = 'portal_2fa';
export const PENDING_SIGN_IN_TTL_MS = 5 * 60_000;

export interface PendingSignIn {
  userId: number;
  remember: boolean;
}

function macOf(secret: Buffer, userId: number, remember: boolean, expiresMs: number, passwordHash: string): string {
  return signatureOf(secret, 'second-factor', userId, remember ? 1 : 0, expiresMs, passwordHash);
}

/** The cookie's value for a sign-in waiting for its code. */
export function mintPendingSignIn(secret: Buffer, user: { id: number; passwordHash: string }, remember: boolean, now = Date.now()): string {
  const expiresMs = now + PENDING_SIGN_IN_TTL_MS;
  return `${user.id}.${remember ? 1 : 0}.${expiresMs}.${macOf(secret, user.id, remember, expiresMs, user.passwordHash)}`;
}

/** The user and choice a cookie names, before its MAC is checked (which needs the account's hash). */
export function parsePendingSignIn(cookie: string | undefined, now = Date.now()): (PendingSignIn & { expiresMs: number; mac: string }) | null {
  if (!cookie || cookie.length > 200) return null;
  const match = /^(\d{1,12})\.([01])\.(\d{1,15})\.([\w-]{43})$/.exec(cookie);
  if (!match) return null;
  const expiresMs = Number(match[3]);
  if (expiresMs <= now || expiresMs > now + PENDING_SIGN_IN_TTL_MS) return null;
  return { userId: Number(match[1]), remember: match[2] === '1', expiresMs, mac: match[4]! };
}

/** Whether the parsed cookie was minted for this account with its current password. */
export function isPendingSignInValid(secret: Buffer, parsed: PendingSignIn & { expiresMs: number; mac: string }, passwordHash: string): boolean {
  return isSameSignature(parsed.mac, macOf(secret, parsed.userId, parsed.remember, parsed.expiresMs, passwordHash));
}
