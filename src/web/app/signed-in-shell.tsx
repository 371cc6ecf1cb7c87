import { lazy, Suspense, useState } from 'react';
import { AppShell } from '../components/app-shell.js';
// A family account's child switcher is part of the first screen the server renders for them: with
// its code in the frame's, it hydrates with the page (about 1.5 kB gzip), and a first tap on it is
// never lost while a chunk of its own is fetched.
import { ChildSwitcher } from '../family/child-switcher.js';
import { useEndedSession, useSession } from '../lib/session.js';

// Students and families type registration values; the sign-in dialog loads when a session first ends.
const DraftSender = lazy(async () => ({ default: (await import('../registration/draft-sender.js')).DraftSender }));
const SignOutGuard = lazy(async () => ({ default: (await import('./sign-out-guard.js')).SignOutGuard }));
const SessionEndedDialog = lazy(async () => ({ default: (await import('./session-ended-dialog.js')).SessionEndedDialog }));

/**
 * The signed-in frame, with a family account's child switcher under the app bar; for students and
 * families, the sender of registration values not yet saved and the sign-in again in place, on
 * every screen (D73).
 */
export function SignedInShell() {
  const role = useSession().data?.user?.role;
  const ended = useEndedSession() !== null;
  // Once shown, the dialog stays mounted: it finishes the sign-in (the same account or another).
  const [dialogNeeded, setDialogNeeded] = useState(false);
  if (ended && !dialogNeeded) setDialogNeeded(true);
  return (
    <>
      <Suspense fallback={null}>
        {role !== undefined && role !== 'staff' && (
          <>
            <DraftSender />
            <SignOutGuard />
          </>
        )}
        {dialogNeeded && <SessionEndedDialog />}
      </Suspense>
      <AppShell
        subheader={
          role === 'guardian' ? <ChildSwitcher /> : undefined
        }
      />
    </>
  );
}
