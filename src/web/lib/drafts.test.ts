import { afterEach, describe, expect, it, vi } from 'vitest';
import { familySession } from '../../../tests/support/family-session.js';
import { createQueryClient } from '../../../tests/support/render-web.js';
import { accountKeyOf, claimSend, discardDrafts, DRAFT_MAX_AGE_MS, draftsOf, isBeingSent, putDraft, settleDraft, subscribeToDrafts } from './drafts.js';
import { forgetSession, isSessionEnded, sessionAfter, sessionQueryKey } from './session.js';
import { holdUnsentWork } from './unsent-work.js';

/**
 * The drafts kept on the device (D73): one account's never reach another's, they survive the
 * page (browser storage), an old one is dropped, and signing out removes them; an ended session
 * keeps a student's or family's page in place only while there is something to keep.
 */

const SANDRA = familySession('family@example.com', ['20260001', '20240001']);
const OTHER = familySession('neighbour@example.com', ['20260001']);
const sandra = accountKeyOf(SANDRA);
const other = accountKeyOf(OTHER);
const waiting = { draft: 'Grenadian', message: 'Not saved yet: no connection.', pending: true };

afterEach(() => {
  vi.useRealTimers();
  discardDrafts(sandra);
  discardDrafts(other);
  window.localStorage.clear();
});

/** What another page of this browser would read: the stored text, not this page's copy. */
const stored = (account: string): unknown => JSON.parse(window.localStorage.getItem(`portal.drafts:${account}`) ?? 'null');

describe('drafts on the device', () => {
  it('are kept per account, student and field, in the browser’s storage', () => {
    putDraft(sandra, '20260001', 'nationality', waiting);
    expect(draftsOf(sandra)['20260001']?.['nationality']).toMatchObject(waiting);
    expect(stored(sandra)).toMatchObject({ '20260001': { nationality: waiting } });
    // The same child seen by another account: nothing.
    expect(draftsOf(other)).toEqual({});
    expect(draftsOf(sandra)['20240001']).toBeUndefined();
  });

  it('accounts are told apart by role and sign-in, whatever the case of the e-mail', () => {
    expect(accountKeyOf(familySession('Family@Example.com', []))).toBe(sandra);
    expect(accountKeyOf({ ...SANDRA, role: 'student', student_id: '20260001', email: null })).toBe('student:20260001');
    expect(other).not.toBe(sandra);
  });

  it('a draft older than the limit is not offered again', () => {
    window.localStorage.setItem(
      `portal.drafts:${sandra}`,
      JSON.stringify({ '20260001': { nationality: { ...waiting, at: Date.now() - DRAFT_MAX_AGE_MS - 1 }, religion: { ...waiting, draft: 'Hindu', at: Date.now() } } }),
    );
    // Read as a new page does.
    window.dispatchEvent(new StorageEvent('storage', { key: `portal.drafts:${sandra}` }));
    expect(Object.keys(draftsOf(sandra)['20260001'] ?? {})).toEqual(['religion']);
  });

  it('another tab’s change is heard, and a settled draft goes only if the server took that text', () => {
    const heard = vi.fn();
    const stop = subscribeToDrafts(heard);
    putDraft(sandra, '20260001', 'nationality', waiting);
    expect(heard).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new StorageEvent('storage', { key: `portal.drafts:${sandra}` }));
    expect(heard).toHaveBeenCalledTimes(2);
    stop();
    settleDraft(sandra, '20260001', 'nationality', 'Trinidadian');
    expect(draftsOf(sandra)['20260001']?.['nationality']?.draft).toBe('Grenadian');
    settleDraft(sandra, '20260001', 'nationality', 'Grenadian');
    expect(draftsOf(sandra)).toEqual({});
    expect(stored(sandra)).toBeNull();
  });

  it('one call per field at a time', () => {
    const release = claimSend(sandra, '20260001', 'nationality');
    expect(release).not.toBeNull();
    expect(isBeingSent(sandra, '20260001', 'nationality')).toBe(true);
    expect(claimSend(sandra, '20260001', 'nationality')).toBeNull();
    // The same field of another child is another call.
    expect(claimSend(sandra, '20240001', 'nationality')).not.toBeNull();
    release!();
    expect(isBeingSent(sandra, '20260001', 'nationality')).toBe(false);
  });

  it('signing out removes the account’s drafts from the device, and only theirs', () => {
    putDraft(sandra, '20260001', 'nationality', waiting);
    putDraft(other, '20260001', 'nationality', { ...waiting, draft: 'Vincentian' });
    const queryClient = createQueryClient();
    queryClient.setQueryData(sessionQueryKey, { user: SANDRA });
    forgetSession(queryClient);
    expect(draftsOf(sandra)).toEqual({});
    expect(stored(sandra)).toBeNull();
    expect(draftsOf(other)['20260001']?.['nationality']?.draft).toBe('Vincentian');
  });
});

describe('a session that ends while work is unsent', () => {
  it('keeps a family account’s page in place, marked ended, until they are signed in again', () => {
    const release = holdUnsentWork();
    expect(sessionAfter(SANDRA, { user: null })).toEqual({ user: SANDRA });
    expect(isSessionEnded()).toBe(true);
    // Still ended on the next check, with or without unsent work.
    release();
    expect(sessionAfter(SANDRA, { user: null })).toEqual({ user: SANDRA });
    expect(sessionAfter(SANDRA, { user: SANDRA })).toEqual({ user: SANDRA });
    expect(isSessionEnded()).toBe(false);
  });

  it('sends the person to sign in as before when nothing is kept, and staff always', () => {
    expect(sessionAfter(SANDRA, { user: null })).toEqual({ user: null });
    const release = holdUnsentWork();
    const staff = { ...SANDRA, role: 'staff' as const, username: 'office', email: null };
    expect(sessionAfter(staff, { user: null })).toEqual({ user: null });
    expect(isSessionEnded()).toBe(false);
    release();
  });
});
