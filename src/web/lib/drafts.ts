import { useSyncExternalStore } from 'react';
import type { SessionUser } from '../../shared/auth.schemas.js';

/**
 * Values typed on this device that the server has not taken yet, kept in the browser's storage
 * until it does (D73): by account, then student, then field. A reload, a closed tab or an ended
 * session finds them again; only the account that typed them ever sees or sends them, and
 * signing out removes them. The registration fields and the frame's sender use them
 * (registration/field-problems.ts, registration/draft-sender.tsx).
 */

/** One field's value not taken by the server, and what the field says about it. */
export interface Draft {
  /** The text in the field. */
  draft: string;
  message: string;
  /** Valid and waiting to be sent (connection trouble, an ended session); false: refused, not sent until changed. */
  pending: boolean;
  /** When it was typed (ms since the epoch): a draft older than DRAFT_MAX_AGE_MS is dropped. */
  at: number;
}

/** One student's drafts, by field name. */
export type StudentDrafts = Readonly<Record<string, Draft>>;
/** One account's drafts, by student ID. */
export type AccountDrafts = Readonly<Record<string, StudentDrafts>>;

/** How long a draft is kept on the device when it cannot be sent (D73). */
export const DRAFT_MAX_AGE_MS = 7 * 24 * 60 * 60_000;

const KEY_PREFIX = 'portal.drafts:';
const NONE: AccountDrafts = Object.freeze({});

/**
 * Whose drafts these are: one key per account, never shared by two (a student by their ID, a
 * family account by its sign-in e-mail, staff by user name).
 */
export function accountKeyOf(user: SessionUser): string {
  if (user.role === 'student') return `student:${user.student_id ?? ''}`;
  if (user.role === 'guardian') return `guardian:${(user.email ?? user.name).toLowerCase()}`;
  return `staff:${user.username ?? ''}`;
}

/** The key used when no one is signed in: such drafts are never written to storage. */
export const NO_ACCOUNT = '';

const loaded = new Map<string, AccountDrafts>();
const listeners = new Set<() => void>();

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function isDraft(value: unknown): value is Draft {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return typeof entry['draft'] === 'string' && typeof entry['message'] === 'string' && typeof entry['pending'] === 'boolean' && typeof entry['at'] === 'number';
}

/** Reads an account's drafts from storage, leaving out anything malformed or too old. */
function read(account: string): AccountDrafts {
  let parsed: unknown;
  try {
    parsed = JSON.parse(storage()?.getItem(KEY_PREFIX + account) ?? '{}');
  } catch {
    return NONE;
  }
  if (typeof parsed !== 'object' || parsed === null) return NONE;
  const oldest = Date.now() - DRAFT_MAX_AGE_MS;
  const result: Record<string, StudentDrafts> = {};
  for (const [studentId, fields] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof fields !== 'object' || fields === null) continue;
    const kept = Object.entries(fields as Record<string, unknown>).filter((entry): entry is [string, Draft] => isDraft(entry[1]) && entry[1].at >= oldest);
    if (kept.length > 0) result[studentId] = Object.fromEntries(kept);
  }
  // None kept: the same object the server rendered with, so hydrating renders nothing again.
  return Object.keys(result).length > 0 ? result : NONE;
}

function write(account: string, drafts: AccountDrafts): void {
  loaded.set(account, drafts);
  try {
    // No one signed in (a screen rendered on its own): kept while the page is open only.
    if (account === NO_ACCOUNT) return;
    if (Object.keys(drafts).length === 0) storage()?.removeItem(KEY_PREFIX + account);
    else storage()?.setItem(KEY_PREFIX + account, JSON.stringify(drafts));
  } catch {
    // Storage refused (full, or a private window): the drafts last while the page is open.
  }
  for (const listener of listeners) listener();
}

/** Every draft of an account (the same object until one changes, for useSyncExternalStore). */
export function draftsOf(account: string): AccountDrafts {
  let drafts = loaded.get(account);
  if (drafts === undefined) {
    drafts = account === NO_ACCOUNT ? NONE : read(account);
    loaded.set(account, drafts);
  }
  return drafts;
}

/** Keeps a field's draft for a student, or removes it with null. */
export function putDraft(account: string, studentId: string, name: string, draft: Omit<Draft, 'at'> | null): void {
  const all = draftsOf(account);
  const fields = all[studentId] ?? {};
  const old = fields[name];
  if (draft === null) {
    if (old === undefined) return;
    const { [name]: _removed, ...rest } = fields;
    const { [studentId]: _student, ...others } = all;
    write(account, Object.keys(rest).length > 0 ? { ...others, [studentId]: rest } : others);
    return;
  }
  if (old?.draft === draft.draft && old.message === draft.message && old.pending === draft.pending) return;
  write(account, { ...all, [studentId]: { ...fields, [name]: { ...draft, at: old?.draft === draft.draft ? old.at : Date.now() } } });
}

/** Removes every draft of an account from this device (sign-out, D73). */
export function discardDrafts(account: string): void {
  if (Object.keys(draftsOf(account)).length > 0) write(account, NONE);
}

/** Calls `listener` whenever a draft changes, in this tab or another (the storage event). */
export function subscribeToDrafts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Another tab changed the stored drafts: read them again. */
function onStorage(event: StorageEvent): void {
  if (event.key !== null && !event.key.startsWith(KEY_PREFIX)) return;
  loaded.clear();
  for (const listener of listeners) listener();
}

if (typeof window !== 'undefined') window.addEventListener('storage', onStorage);

/** The drafts this page is sending now: one call per field at a time, the field's own or the sender's. */
const sending = new Set<string>();

/** Marks a field's draft as being sent by this page; null when a call for it is out already. */
export function claimSend(account: string, studentId: string, name: string): (() => void) | null {
  const key = JSON.stringify([account, studentId, name]);
  if (sending.has(key)) return null;
  sending.add(key);
  return () => sending.delete(key);
}

/** Removes a field's draft once the server took `text`, unless a newer value replaced it meanwhile. */
export function settleDraft(account: string, studentId: string, name: string, text: string): void {
  if (draftsOf(account)[studentId]?.[name]?.draft === text) putDraft(account, studentId, name, null);
}

/** Whether a call for this field's draft is out from this page now. */
export function isBeingSent(account: string, studentId: string, name: string): boolean {
  return sending.has(JSON.stringify([account, studentId, name]));
}

/**
 * The account's drafts, following every change. None while a page rendered on the server is
 * rendered or hydrated (the server cannot read this device's storage); React renders again with
 * this device's drafts straight after.
 */
export function useAccountDrafts(account: string): AccountDrafts {
  return useSyncExternalStore(subscribeToDrafts, () => draftsOf(account), () => NONE);
}
