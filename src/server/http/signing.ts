import crypto from 'node:crypto';

/**
 * What the server signs with its secret (docs/decisions.md D38): values a browser or a mail hands
 * back, which it must not be able to make up or change (the CSRF token, a remembered device, a
 * staff sign-in waiting for its code or for the school's provider, a notice's unsubscribe link).
 * Each use names its purpose, signed first, so a value signed for one use is worth nothing for
 * another.
 */

/** The HMAC-SHA256 (base64url) of a purpose and the parts it covers, NUL-separated. */
export function signatureOf(secret: Buffer, purpose: string, ...parts: readonly (string | number)[]): string {
  return crypto
    .createHmac('sha256', secret)
    .update([purpose, ...parts].join('\0'))
    .digest('base64url');
}

/** Whether a signature that came back is the expected one, compared in a time that tells nothing of how much matched. */
export function isSameSignature(given: string, expected: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

/** A value a browser keeps and cannot change: `<the value's JSON, base64url>.<its signature>`. */
export function signedValue(secret: Buffer, purpose: string, value: unknown): string {
  const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${payload}.${signatureOf(secret, purpose, payload)}`;
}

/** The value a `signedValue` holds when its signature is the server's for this purpose; otherwise undefined. */
export function readSignedValue(secret: Buffer, purpose: string, token: string): unknown {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  if (!isSameSignature(signature, signatureOf(secret, purpose, payload))) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
