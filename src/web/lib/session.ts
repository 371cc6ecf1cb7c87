import { useEffect, useSyncExternalStore } from 'react';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { SessionAnswerSchema, STAFF_ACCOUNT_DISABLED_MESSAGE, type SessionAnswer, type SessionUser } from '../../shared/auth.schemas.js';
import { apiRequest } from './api-client.js';
import { accountKeyOf, discardDrafts } from './drafts.js';
import { childShownTo, readChosenChild } from './family-child.js';
import { BACKGROUND_QUERY } from './query-meta.js';
import { hasUnsentWork } from './unsent-work.js';

/**
 * Who is signed in (GET /api/session): every route's loader makes sure the answer is in the
 * query cache before its screen renders (app/router.tsx), and every guard and screen reads it
 * from there. The server is the only source of truth.
 */

export const sessionQueryKey = ['session'] as const;

// ---- A session that ended while a screen keeps its place (D73) ------------------------------------

/** Who was signed in when the server said the session had ended, while the page stays where it is. */
let endedUser: SessionUser | null = null;
const endedListeners = new Set<() => void>();
/** How many mounted screens keep their place when the session ends (useSignInInPlace). */
let placesKept = 0;

function setEndedUser(user: SessionUser | null): void {
  if (endedUser === user) return;
  endedUser = user;
  for (const listener of endedListeners) listener();
}

/**
 * The student or family account whose session ended while a screen kept its place (a
 * registration step, or any unsent work): the page stays, the cached session still names them,
 * and a sign-in dialog asks them to sign in again (app/session-ended-dialog.tsx). Null otherwise.
 */
export function useEndedSession(): SessionUser | null {
  return useSyncExternalStore(
    (listener) => {
      endedListeners.add(listener);
      return () => endedListeners.delete(listener);
    },
    () => endedUser,
    // A page rendered on the server: no session has ended in place.
    () => null,
  );
}

/** Whether the session has ended in place (see useEndedSession), outside React. */
export function isSessionEnded(): boolean {
  return endedUser !== null;
}

/**
 * Keeps this screen in place when the session ends (a sign-in dialog over it) instead of sending
 * the person to sign in: for screens where they type, so nothing is lost and they stay there.
 */
export function useSignInInPlace(): void {
  useEffect(() => {
    placesKept += 1;
    return () => {
      placesKept -= 1;
    };
  }, []);
}

/**
 * The session's answer, except that a student's or family account's session found ended while
 * a screen keeps its place (or work is unsent) keeps the cached user and is marked ended: the
 * guards then leave the page where it is and the dialog asks for the sign-in. Staff are sent to
 * sign in as before. The server refuses every call meanwhile; the cache only keeps the page.
 */
export function sessionAfter(before: SessionUser | null, answer: SessionAnswer): SessionAnswer {
  if (answer.user !== null) {
    setEndedUser(null);
    return answer;
  }
  if (before !== null && before.role !== 'staff' && (endedUser !== null || placesKept > 0 || hasUnsentWork())) {
    setEndedUser(before);
    return { user: before };
  }
  setEndedUser(null);
  return answer;
}

let staffSignInNotice: string | null = null;

/** Why a staff member's sign-in just ended, for the staff sign-in page to say (a disabled account, D84). */
export function noteStaffSignInEnded(message: string): void {
  staffSignInNotice = message;
}

/** The note of `noteStaffSignInEnded`, once: the staff sign-in page shows it and it is gone. */
export function takeStaffSignInNotice(): string | null {
  const notice = staffSignInNotice;
  staffSignInNotice = null;
  return notice;
}

export const sessionQuery = queryOptions({
  queryKey: sessionQueryKey,
  queryFn: async ({ signal, client }) => {
    const answer = await apiRequest('/api/session', { schema: SessionAnswerSchema, signal });
    // A reload after the account was disabled: the server says so once (D84).
    if (answer.ended === 'account_disabled') noteStaffSignInEnded(STAFF_ACCOUNT_DISABLED_MESSAGE);
    return sessionAfter(client.getQueryData<SessionAnswer>(sessionQueryKey)?.user ?? null, answer);
  },
  staleTime: 60_000,
  meta: BACKGROUND_QUERY,
});

/** The signed-in user's session, or `{ user: null }` for a visitor. */
export function useSession() {
  return useQuery(sessionQuery);
}

/** Fetches the session again now and resolves once the cache holds the answer. */
export function refreshSession(queryClient: QueryClient): Promise<SessionAnswer> {
  return queryClient.fetchQuery({ ...sessionQuery, staleTime: 0 });
}

/**
 * Forgets everything about the signed-in user on this device (even if sign-out fails),
 * their drafts not yet sent included (D73: a shared computer keeps nothing of theirs).
 */
export function forgetSession(queryClient: QueryClient): void {
  const user = queryClient.getQueryData<SessionAnswer>(sessionQueryKey)?.user ?? null;
  if (user) discardDrafts(accountKeyOf(user));
  setEndedUser(null);
  void queryClient.cancelQueries();
  // The session query stays (its observers are the guards); everything else goes.
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
  queryClient.setQueryData<SessionAnswer>(sessionQueryKey, { user: null });
  window.sessionStorage.clear();
}

/**
 * Someone who must choose a new password before anything else: a student after a first login or
 * an office reset (docs/requirements.md R3), a staff member with a new or reset account (one-time password, D50).
 */
export function needsPasswordChange(user: SessionUser | null | undefined): boolean {
  if (!user) return false;
  return user.role === 'student' ? user.first_login === 1 || user.password_reset === 1 : user.password_reset === 1;
}

/** Where that change is made: the student login page for a student, the admin sign-in page for staff. */
export function passwordChangePathFor(user: SessionUser): string {
  return user.role === 'staff' ? '/admin' : '/';
}

/**
 * Whose data a student screen (term reports, attendance) shows: a student's own; staff of every
 * role name the student with `?student=ID` (null until named: the screen asks); a family account
 * the child the address names or the one chosen in the header (lib/family-child.ts; null with no
 * child linked). The server answers only for a student the person reaches (a form teacher: their
 * classes; a parent: their linked children) and refuses the rest.
 */
export function studentShownTo(user: SessionUser | null, search: URLSearchParams): string | null {
  if (user?.role === 'staff') return search.get('student');
  if (user?.role === 'guardian') return childShownTo(user.child_ids ?? [], search.get('student'), readChosenChild());
  return user?.student_id ?? null;
}

/**
 * Where to go after signing in when the page was opened with `?next=` (an invitation opened before
 * signing in): a path of this portal only, never another site (`//evil.example`, `https:`).
 */
export function safeNextPath(next: string | null): string | null {
  if (!next?.startsWith('/')) return null;
  // Read as the browser would (it drops tabs and newlines and takes `/\\` for `//`): same origin only.
  const base = 'http://portal.invalid';
  const url = URL.canParse(next, base) ? new URL(next, base) : null;
  return url?.origin === base ? `${url.pathname}${url.search}${url.hash}` : null;
}

/**
 * Where a signed-in user belongs: staff (every role) on the admin dashboard, students and families
 * on theirs; staff who must set up the second factor first on its screen.
 */
export function homePathFor(user: SessionUser): string {
  if (user.second_factor_setup) return TWO_FACTOR_PATH;
  return user.role === 'staff' ? '/admin/dashboard' : '/dashboard';
}

/** The staff member's own second factor: enrolment, recovery codes, turning it off. */
export const TWO_FACTOR_PATH = '/admin/two-factor';
