import type { SessionAnswer, SessionUser } from '../../shared/auth.schemas.js';
import type { AnswerParser } from '../lib/api-client.js';

/**
 * The answer of GET /api/session, checked without zod: every page asks for it at load, and zod
 * (26 kB gzip) would otherwise be on the login page's first load (docs/performance.md, web). The
 * shape is the shared `SessionAnswerSchema`'s: the mapped types below make the compiler list
 * every field of `SessionUser` and every role, so the two cannot drift apart silently.
 */

type FieldCheck = (value: unknown) => boolean;

const isString: FieldCheck = (value) => typeof value === 'string';
const isStringOrNull: FieldCheck = (value) => value === null || typeof value === 'string';
// zod 4's `.int()` accepts safe integers only.
const isInteger: FieldCheck = (value) => Number.isSafeInteger(value);

const ROLES: { readonly [R in SessionUser['role']]: true } = { student: true, admin: true };

const USER_FIELDS: { readonly [K in keyof SessionUser]-?: FieldCheck } = {
  role: (value) => typeof value === 'string' && Object.hasOwn(ROLES, value),
  name: isString,
  initials: isString,
  student_id: isStringOrNull,
  username: isStringOrNull,
  first_login: isInteger,
  password_reset: isInteger,
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The user with only the known fields (unknown keys dropped, as the schema does), or null when one is off. */
function readUser(value: Record<string, unknown>): SessionUser | null {
  const user: Record<string, unknown> = {};
  for (const [field, check] of Object.entries(USER_FIELDS)) {
    if (!check(value[field])) return null;
    user[field] = value[field];
  }
  return user as unknown as SessionUser;
}

/** `{ user: SessionUser | null }`, as `SessionAnswerSchema` parses it. */
export const SessionAnswerParser: AnswerParser<SessionAnswer> = {
  safeParse(value) {
    if (!isRecord(value)) return { success: false };
    if (value['user'] === null) return { success: true, data: { user: null } };
    const user = isRecord(value['user']) ? readUser(value['user']) : null;
    return user === null ? { success: false } : { success: true, data: { user } };
  },
};
