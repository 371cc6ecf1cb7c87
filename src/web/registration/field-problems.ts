import { useCallback, useMemo } from 'react';
import { onlineManager } from '@tanstack/react-query';
import {
  checkFieldValue,
  fieldsOfStep,
  findField,
  isFieldVisible,
  type FieldValue,
  type RecordValues,
} from '../../shared/registration.fields.js';
import { missingFields, type DataStep } from '../../shared/registration.progress.js';
import type { ConnectionTrouble } from '../lib/api-client.js';
import { accountKeyOf, NO_ACCOUNT, putDraft, useAccountDrafts, type Draft, type StudentDrafts } from '../lib/drafts.js';
import { useSession } from '../lib/session.js';

/**
 * What a registration field shows that the server has not taken: a value refused (by a rule, or
 * by the server) with its message, or a valid value waiting to be sent (connection trouble, an
 * ended session). They are the signed-in account's drafts on this device (lib/drafts.ts, D73), per
 * child, so a field left for another step, another child, a reload or a closed tab shows them
 * again, and one child's never shows in another's field (D72).
 */
export type FieldProblem = Omit<Draft, 'at'>;

const NONE: StudentDrafts = Object.freeze({});

/** The drafts' key of whoever is signed in (none: kept in the page only). */
export function useAccountKey(): string {
  const user = useSession().data?.user ?? null;
  return user ? accountKeyOf(user) : NO_ACCOUNT;
}

/** What a field sees of the store: its own student's problems. */
export interface FieldProblemsValue {
  /** The drafts' key of whoever is signed in (useAccountKey), read once for the field's other uses. */
  account: string;
  problems: StudentDrafts;
  /** Sets a field's problem, or clears it with null. */
  report: (name: string, problem: FieldProblem | null) => void;
}

/** One student's problems (the signed-in account's drafts of that child) and a way to report them. */
export function useFieldProblems(studentId: string): FieldProblemsValue {
  const account = useAccountKey();
  const all = useAccountDrafts(account);
  const problems = all[studentId] ?? NONE;
  const report = useCallback((name: string, problem: FieldProblem | null) => putDraft(account, studentId, name, problem), [account, studentId]);
  return useMemo(() => ({ account, problems, report }), [account, problems, report]);
}

/** The fields of a step shown now (by the record) whose value was refused, in the step's order. */
export function problemFieldsOf(step: DataStep, problems: StudentDrafts, values: RecordValues): string[] {
  return shownWith(step, problems, values, (problem) => !problem.pending);
}

/**
 * The fields of a step shown now whose value waits to be sent, in the step's order; a value
 * being sent for the first time (pending with no message yet) is not waiting.
 */
export function waitingFieldsOf(step: DataStep, problems: StudentDrafts, values: RecordValues): string[] {
  return shownWith(step, problems, values, (problem) => problem.pending && problem.message !== '');
}

function shownWith(step: DataStep, problems: StudentDrafts, values: RecordValues, keep: (problem: Draft) => boolean): string[] {
  return fieldsOfStep(step)
    .filter((field) => {
      const problem = problems[field.name];
      return problem !== undefined && keep(problem) && isFieldVisible(field, values);
    })
    .map((field) => field.name);
}

/** The record as the family sees it: the stored values with the waiting ones over them. */
export function valuesWithWaiting(values: RecordValues, problems: StudentDrafts): RecordValues {
  const waiting = Object.entries(problems).filter(([, problem]) => problem.pending);
  if (waiting.length === 0) return values;
  const shown: Record<string, FieldValue | undefined> = { ...values };
  for (const [name, problem] of waiting) {
    const field = findField(name);
    const check = field ? checkFieldValue(field, problem.draft) : null;
    if (check?.ok) shown[name] = check.value;
  }
  return shown;
}

/**
 * Whether a data step is done as the screen shows it: not while one of its fields shows a
 * refused value; with values waiting to be sent, by the shared rule over them (D73); else null
 * (the server's flag stands).
 */
export function shownStepDone(step: DataStep, problems: StudentDrafts, values: RecordValues): boolean | null {
  if (problemFieldsOf(step, problems, values).length > 0) return false;
  if (waitingFieldsOf(step, problems, values).length === 0) return null;
  const shown = valuesWithWaiting(values, problems);
  return missingFields(step, shown).length === 0;
}

/** Why a valid value is still waiting: connection trouble of some kind, or an ended session. */
export type WaitingReason = ConnectionTrouble | 'signed-out';

/** What a field says about a value waiting to be sent: the trouble, never a fault in the answer (D73). */
export function unsentMessage(reason: WaitingReason): string {
  switch (reason) {
    case 'offline':
      return 'Not saved yet: no connection. It will be sent when the connection is back.';
    case 'unreachable':
      return 'Not saved yet: the school portal could not be reached. It will be sent again shortly.';
    case 'no-answer':
      return 'Not saved yet: the school portal did not answer. It will be sent again shortly.';
    case 'server':
      return 'Not saved yet: the school portal had a problem. It will be sent again shortly.';
    case 'signed-out':
      return 'Not saved yet: your sign-in has ended. It will be sent when you sign in again.';
  }
}

/** Whether the browser believes it is online (Query's view, which tests can set, and the browser's). */
export function isOnline(): boolean {
  return onlineManager.isOnline() && (typeof navigator === 'undefined' || navigator.onLine);
}
