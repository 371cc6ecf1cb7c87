import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { checkFieldValue, FIELD_MESSAGES, type FieldValue, type RegistrationField as CatalogueField } from '../../shared/registration.fields.js';
import { SAVE_INDICATOR_DELAY_MS } from '../../shared/school.constants.js';
import { draftsOf, isBeingSent } from '../lib/drafts.js';
import { useUnsentWork } from '../lib/unsent-work.js';
import { useFieldProblems } from './field-problems.js';
import { sendDraft } from './send-draft.js';
import type { SaveState } from './save-indicator.js';

const sleep = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

export const asText = (value: FieldValue): string => (value === null ? '' : String(value));

/**
 * A registration field's value between the person and the server (D73): the text shown, its
 * message, its save indicator, and the draft kept on the device until the server takes it.
 */
export function useFieldSave(field: CatalogueField, value: FieldValue, studentId: string, readOnly: boolean) {
  const queryClient = useQueryClient();
  const { account, problems, report } = useFieldProblems(studentId);
  // What the server has not taken for this field: kept on the device, live (the sender, another tab).
  const problem = problems[field.name];
  const [draft, setDraft] = useState<string>(() => problem?.draft ?? asText(value));
  /** A rule broken while typing, shown before the field is left. */
  const [typingMessage, setTypingMessage] = useState<string | null>(null);
  const [state, setState] = useState<SaveState>(problem ? (problem.pending ? 'waiting' : 'error') : 'idle');
  /** The text the server last confirmed for this field (the record's, or a save's taken since). */
  const [confirmed, setConfirmed] = useState(() => asText(value));
  const focused = useRef(false);
  // A save outlives its field when the step is left mid-save: the draft store keeps the value,
  // and there is no indicator left to set.
  const shown = useRef(true);
  useEffect(() => {
    shown.current = true;
    return () => {
      shown.current = false;
    };
  }, []);
  // The draft's own message while the field shows its text; a change being typed has only its rule's.
  const shownProblem = problem !== undefined && problem.draft === draft ? problem : undefined;
  const message = shownProblem && shownProblem.message !== '' ? shownProblem.message : typingMessage;
  const waiting = shownProblem?.pending === true && shownProblem.message !== '';
  // Typed but not yet left (nor kept as a draft): closing the tab asks first (D73).
  useUnsentWork(!readOnly && draft !== confirmed && problem?.draft !== draft);

  // A value saved elsewhere (another tab, the sender, a reload) replaces the text unless the user
  // is typing or the field shows a draft of its own; on mount the text is already right.
  const shownValue = useRef(value);
  useEffect(() => {
    if (shownValue.current === value) return;
    setConfirmed(asText(value));
    shownValue.current = value;
    if (!focused.current && problem === undefined) setDraft(asText(value));
  }, [value, problem]);

  // The draft's outcome when the sender (or another tab) settles it: saved, waiting or refused.
  const hadProblem = useRef(problem);
  const untouched = draft === confirmed && !focused.current;
  useEffect(() => {
    const before = hadProblem.current;
    hadProblem.current = problem;
    if (before === problem) return;
    if (before === undefined && problem !== undefined && untouched) {
      // This device's draft, found after a page rendered on the server hydrated (the server cannot
      // read the device's storage): the field shows it as it would have from the start.
      setDraft(problem.draft);
      setState((now) => (now === 'saving' ? now : problem.pending ? 'waiting' : 'error'));
      return;
    }
    if (problem === undefined) {
      // Taken by the server when the sender (or another tab) sent it.
      if (before?.pending) {
        setConfirmed(before.draft);
        setState((now) => (now === 'saving' ? now : 'saved'));
      }
    } else if (problem.pending && problem.message !== '') {
      setState((now) => (now === 'saving' ? now : 'waiting'));
    } else if (before?.pending && !problem.pending) {
      // Refused by the server when the sender sent it.
      setState((now) => (now === 'saving' ? now : 'error'));
    }
  }, [problem, untouched]);

  async function commit(raw: unknown): Promise<void> {
    const text = typeof raw === 'string' ? raw : asText(raw as FieldValue);
    setTypingMessage(null);
    const check = checkFieldValue(field, raw);
    if (!check.ok) {
      // Kept with its message (not sent) until changed, here and after a reload.
      report(field.name, { draft: text, message: check.messages[0] ?? '', pending: false });
      return;
    }
    const valid = asText(check.value);
    // The field shows the value as it is kept ('(868) 471-3675' is kept as 4713675), so its draft's message shows with it.
    if (valid !== text && field.control !== 'switch') setDraft(valid);
    if (valid === confirmed) {
      report(field.name, null);
      if (state === 'error' || state === 'waiting') setState('idle');
      return;
    }
    if (problem?.draft === valid && !problem.pending) return; // refused as it is: not sent again until changed
    if (isBeingSent(account, studentId, field.name) && problem?.draft === valid) return;
    // A draft until the server takes it: a closed tab or a reload finds it and sends it.
    report(field.name, { draft: valid, message: '', pending: true });
    setState('saving');
    const started = Date.now();
    const outcome = await sendDraft(queryClient, account, studentId, field, valid);
    if (!shown.current) return;
    if (outcome.kind === 'saved') setConfirmed(valid);
    // The save indicator (docs/requirements.md R4): 'saving' for at least 600 ms, then the check, the waiting or the alert icon.
    await sleep(Math.max(0, SAVE_INDICATOR_DELAY_MS - (Date.now() - started)));
    if (!shown.current) return;
    // The sender may have settled a waiting value meanwhile: the store says where it is now.
    const kept = draftsOf(account)[studentId]?.[field.name];
    if (outcome.kind === 'saved' || (kept === undefined && outcome.kind !== 'refused')) setState('saved');
    else setState(kept?.pending === false ? 'error' : 'waiting');
  }

  /** Rules broken while typing show at once; 'required' waits for the blur. */
  function onType(next: string): void {
    setDraft(next);
    const check = checkFieldValue(field, next);
    setTypingMessage(!check.ok && check.messages[0] !== FIELD_MESSAGES.required ? (check.messages[0] ?? null) : null);
    if (state !== 'saving') setState('idle');
  }

  return { problem, draft, setDraft, state, setState, message, waiting, focused, commit, onType };
}
