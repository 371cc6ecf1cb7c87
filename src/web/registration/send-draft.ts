import type { QueryClient } from '@tanstack/react-query';
import { checkFieldValue, type RegistrationField } from '../../shared/registration.fields.js';
import { connectionTroubleOf, errorMessage, isApiError } from '../lib/api-client.js';
import { claimSend, draftsOf, putDraft, settleDraft } from '../lib/drafts.js';
import { sessionQueryKey } from '../lib/session.js';
import { isOnline, unsentMessage, type WaitingReason } from './field-problems.js';
import { applySavedAnswer, registrationStatusKey, saveStudentFields } from './registration.api.js';

/** When a send last met connection trouble (ms since the epoch): the sender's pause counts from it. */
let lastTroubleAt = 0;

/** When a send from this page last met connection trouble or an ended session. */
export function lastTroubleTime(): number {
  return lastTroubleAt;
}

/** How a send ended: taken, waiting (and why), refused (the server's words), or not sent because a call for it is out. */
export type SendOutcome = { kind: 'saved' } | { kind: 'waiting'; reason: WaitingReason } | { kind: 'refused'; message: string } | { kind: 'busy' };

/**
 * Sends one field's value for one student and records the outcome in the account's drafts
 * (D73): taken, the draft goes and the cached record follows; connection trouble or an ended
 * session keep it waiting with words that say so (an ended session also asks for the session
 * again, which brings the sign-in dialog); a refusal keeps it, not to be sent again until
 * changed, with the server's message. The field's own save and the frame's sender both use it,
 * one call per field at a time. `text` must pass the field's rules.
 */
export async function sendDraft(queryClient: QueryClient, account: string, studentId: string, field: RegistrationField, text: string): Promise<SendOutcome> {
  const check = checkFieldValue(field, text);
  if (!check.ok) throw new Error(`sendDraft: ${field.name} does not pass its rules`);
  const release = claimSend(account, studentId, field.name);
  if (release === null) return { kind: 'busy' };
  // Nothing newer replaced the value meanwhile: only then is its outcome recorded.
  const keep = (message: string, pending: boolean) => {
    if (draftsOf(account)[studentId]?.[field.name]?.draft === text) putDraft(account, studentId, field.name, { draft: text, message, pending });
  };
  try {
    if (!isOnline()) {
      lastTroubleAt = Date.now();
      keep(unsentMessage('offline'), true);
      return { kind: 'waiting', reason: 'offline' };
    }
    const answer = await saveStudentFields(studentId, { [field.name]: check.value });
    await applySavedAnswer(queryClient, studentId, answer);
    settleDraft(account, studentId, field.name, text);
    return { kind: 'saved' };
  } catch (error) {
    if (isApiError(error, 'unauthenticated')) {
      lastTroubleAt = Date.now();
      keep(unsentMessage('signed-out'), true);
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      return { kind: 'waiting', reason: 'signed-out' };
    }
    const trouble = connectionTroubleOf(error, isOnline());
    if (trouble !== null) {
      lastTroubleAt = Date.now();
      keep(unsentMessage(trouble), true);
      return { kind: 'waiting', reason: trouble };
    }
    const message = (isApiError(error) ? error.errors?.[field.name]?.[0] : undefined) ?? `Not saved: ${errorMessage(error)}`;
    keep(message, false);
    // The window closed while the page was open: the banner and read-only fields follow.
    if (isApiError(error, 'registration_closed')) void queryClient.invalidateQueries({ queryKey: registrationStatusKey });
    return { kind: 'refused', message };
  } finally {
    release();
  }
}
