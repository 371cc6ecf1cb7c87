import { useEffect, useRef, useState } from 'react';
import { onlineManager, useQueryClient } from '@tanstack/react-query';
import { findField } from '../../shared/registration.fields.js';
import { isBeingSent, NO_ACCOUNT, useAccountDrafts, type AccountDrafts } from '../lib/drafts.js';
import { useEndedSession } from '../lib/session.js';
import { useUnsentWork } from '../lib/unsent-work.js';
import { isOnline, useAccountKey } from './field-problems.js';
import { lastTroubleTime, sendDraft } from './send-draft.js';

/** The pause before sending again after a round that could not send: 3 s, doubling, at most 24 s. */
export const RETRY_BASE_MS = 3000;
const RETRY_MAX_MS = 24_000;
const pauseAfter = (failures: number) => Math.min(RETRY_BASE_MS * 2 ** failures, RETRY_MAX_MS);

interface Due {
  studentId: string;
  name: string;
  text: string;
  fresh: boolean;
}

/** The account's drafts waiting to be sent that no call from this page is sending now. */
function dueDrafts(account: string, all: AccountDrafts): Due[] {
  return Object.entries(all).flatMap(([studentId, fields]) =>
    Object.entries(fields)
      .filter(([name, draft]) => draft.pending && !isBeingSent(account, studentId, name))
      .map(([name, draft]) => ({ studentId, name, text: draft.draft, fresh: draft.message === '' })),
  );
}

/**
 * Sends the signed-in account's waiting drafts, for every child, whatever screen is open (D73):
 * mounted once in the signed-in frame. The drafts found when the page opens (a reload, a closed
 * tab) go at once; others after a pause from the last trouble that grows while sending fails, and
 * at once when the browser is back online or the person has signed in again. Nothing is sent
 * while offline or while the session has ended. While any draft waits, closing the tab asks first.
 */
export function DraftSender() {
  const queryClient = useQueryClient();
  const account = useAccountKey();
  const ended = useEndedSession() !== null;
  const all = useAccountDrafts(account);
  const waiting = Object.values(all).some((fields) => Object.values(fields).some((draft) => draft.pending));
  useUnsentWork(waiting);
  const [round, setRound] = useState(0);
  const failures = useRef(0);
  const lastRoundAt = useRef(0);
  /** Send at once: on mount (drafts a reload or a closed tab left), back online, signed in again. */
  const sendNow = useRef(true);

  // Back online, or signed in again: send at once.
  useEffect(() => {
    const now = () => {
      failures.current = 0;
      sendNow.current = true;
      setRound((n) => n + 1);
    };
    if (!ended) now();
    window.addEventListener('online', now);
    const unsubscribe = onlineManager.subscribe((online) => online && now());
    return () => {
      window.removeEventListener('online', now);
      unsubscribe();
    };
  }, [ended]);

  useEffect(() => {
    if (account === NO_ACCOUNT || ended || !isOnline()) return;
    const due = dueDrafts(account, all);
    if (due.length === 0) {
      sendNow.current = false;
      return;
    }
    // The pause counts from the last trouble too: a field's own save that just failed is not sent again at once.
    const since = Math.max(lastRoundAt.current, lastTroubleTime());
    const wait = sendNow.current || due.some((draft) => draft.fresh) ? 0 : Math.max(0, since + pauseAfter(failures.current) - Date.now());
    const timer = window.setTimeout(() => {
      sendNow.current = false;
      lastRoundAt.current = Date.now();
      void Promise.all(
        due.map(({ studentId, name, text }) => {
          const field = findField(name);
          // A draft of a field the catalogue no longer has, or that breaks its rules, is left alone.
          return field ? sendDraft(queryClient, account, studentId, field, text).catch(() => ({ kind: 'busy' as const })) : Promise.resolve({ kind: 'busy' as const });
        }),
      ).then((outcomes) => {
        if (outcomes.some((outcome) => outcome.kind === 'waiting')) failures.current += 1;
        else failures.current = 0;
        setRound((n) => n + 1);
      });
    }, wait);
    return () => window.clearTimeout(timer);
  }, [account, ended, all, round, queryClient]);

  return null;
}
