import { createHash, randomBytes } from 'node:crypto';
import type { CreatedScannerDevice, ScannerDevice } from '../../shared/attendance.schemas.js';
import { writeAudit } from '../audit/audit.repository.js';
import { nowIso, type Db } from '../db/database.js';
import { AppError, notFound, tooManyRequests, unauthenticated } from '../http/errors.js';
import { hitRateLimit } from '../http/rate-limit.repository.js';
import type { Actor } from '../http/request-context.js';
import * as repo from './attendance.repository.js';

/**
 * The school's gate scanners: each has its own key, made by an administrator, shown
 * once and kept only as a sha256 (like session ids, D1), so a leaked table opens no gate.
 * Revoking a device makes its key fail at once (401).
 */

const KEY_PREFIX = 'gsk_';
/** last_seen_at is written at most this often, so a busy gate costs one indexed read per call. */
const TOUCH_INTERVAL_MS = 60_000;
/** Wrong keys from one address (OWASP: throttle guessing even when keys are 256 random bits). */
const BAD_KEY_LIMIT = { limit: 30, windowMs: 15 * 60_000 };

export function hashDeviceKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export async function listScannerDevices(db: Db): Promise<ScannerDevice[]> {
  return repo.listDevices(db);
}

/** Creates a device and answers it with its key, which is never shown again. */
export async function createScannerDevice(db: Db, name: string, actor: Actor): Promise<CreatedScannerDevice> {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return db.transaction().execute(async (trx) => {
    const device = await repo.insertDevice(trx, name, hashDeviceKey(key));
    await writeAudit(trx, { ...actor, action: 'create', entity: 'scanner_device', entity_id: String(device.id), field: 'name', new_value: name });
    return { ...device, key };
  });
}

/** Revokes a device; revoking a revoked device changes nothing. 404 for an unknown id. */
export async function revokeScannerDevice(db: Db, id: number, actor: Actor): Promise<ScannerDevice> {
  return db.transaction().execute(async (trx) => {
    const device = await repo.findDevice(trx, id);
    if (!device) throw notFound('No scanner device has this id.');
    if (device.revoked_at === null) {
      await repo.revokeDevice(trx, id);
      await writeAudit(trx, { ...actor, action: 'revoke', entity: 'scanner_device', entity_id: String(id), field: 'revoked_at', new_value: 'revoked' });
    }
    return (await repo.findDevice(trx, id))!;
  });
}

/** The key of `Authorization: Bearer <key>`, or null. */
function bearerKey(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

/**
 * The device a scanner call comes from: 401 without a key or with an unknown or revoked one,
 * 429 after too many wrong keys from the address.
 */
export async function authenticateDevice(db: Db, authorization: string | undefined, ip: string): Promise<ScannerDevice> {
  const key = bearerKey(authorization);
  if (key === null) throw new AppError(401, 'unauthenticated', 'A scanner key is required (Authorization: Bearer <key>).');
  const device = await repo.findDeviceByKeyHash(db, hashDeviceKey(key));
  if (!device || device.revoked_at !== null) {
    const state = await hitRateLimit(db, `scanner-key:${ip}`, BAD_KEY_LIMIT);
    if (state.limited) throw tooManyRequests('Too many wrong scanner keys. Try again later.', state.retryAfterMs);
    throw unauthenticated('This scanner key is not valid or has been revoked.');
  }
  return device;
}

/**
 * Records that the device sent a call the portal accepted. Called once the body is valid, so a
 * refused call changes nothing stored (docs/requirements.md R15), not even the device's last-seen time.
 */
export async function noteDeviceSeen(db: Db, device: ScannerDevice): Promise<void> {
  const now = Date.now();
  if (device.last_seen_at === null || now - Date.parse(device.last_seen_at) >= TOUCH_INTERVAL_MS) {
    await repo.touchDevice(db, device.id, nowIso());
  }
}
