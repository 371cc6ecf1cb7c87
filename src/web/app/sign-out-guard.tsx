import { useBlocker } from 'react-router';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { hasUnsentWork } from '../lib/unsent-work.js';

/**
 * Asks before signing out while work is unsent (a value typed, a save in flight, a draft waiting
 * for the connection): signing out removes the account's drafts from this device (D73), so the
 * person chooses between staying until they are sent and leaving nothing behind.
 */
export function SignOutGuard() {
  const blocker = useBlocker(({ nextLocation }) => nextLocation.pathname === '/logout' && hasUnsentWork());
  if (blocker.state !== 'blocked') return null;
  return (
    <ConfirmDialog
      open
      title="Sign out before your changes are saved?"
      confirmLabel="Sign out and remove them"
      onConfirm={() => blocker.proceed()}
      onCancel={() => blocker.reset()}
    >
      Some changes have not reached the school yet. Signing out removes them from this device. Cancel to stay signed in; they are sent when the connection
      is back.
    </ConfirmDialog>
  );
}
