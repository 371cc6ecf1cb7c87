import crypto from 'node:crypto';

/**
 * The TOTP secret at rest (docs/decisions.md "Staff second factor"): AES-256-GCM under a key
 * derived (HKDF-SHA256) from the server's secret (D38), so a copy of the users table alone — a
 * privacy export, a table dump, an injected SELECT — does not give anyone the codes. Stored as
 * `v1.<iv>.<ciphertext>.<tag>` (base64url); the user id is the associated data, so a sealed
 * secret moved to another account does not open.
 */

const VERSION = 'v1';

/** The sealing key: its own derivation, so it never equals the key of the HMACs. */
export function totpSealingKey(serverSecret: Buffer): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', serverSecret, Buffer.alloc(0), 'portal totp secret v1', 32));
}

export function sealTotpSecret(key: Buffer, userId: number, secret: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`user:${userId}`));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), sealed.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** The secret, or null when the stored value was not sealed for this account under this key. */
export function openTotpSecret(key: Buffer, userId: number, stored: string): string | null {
  const [version, iv, sealed, tag, ...rest] = stored.split('.');
  if (version !== VERSION || !iv || !sealed || !tag || rest.length > 0) return null;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(`user:${userId}`));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
