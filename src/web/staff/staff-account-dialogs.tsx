import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { StaffAccount, StaffAccountWithPassword, UpdateStaffInput } from '../../shared/staff.schemas.js';
import { SecretShownOnceDialog } from '../components/secret-shown-once-dialog.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage } from '../lib/api-client.js';
import { useResetSecondFactor, useUpdateStaff } from './staff.api.js';

/** The Staff Accounts screen's dialogs after a menu's choice: the confirmation, and the one-time password. */

export type Confirm = { kind: 'disable' | 'enable' | 'reset' | 'reset-2fa'; account: StaffAccount };

const CONFIRM_TITLES: Record<Confirm['kind'], string> = {
  disable: 'Disable',
  enable: 'Enable',
  reset: 'Reset the password of',
  'reset-2fa': 'Reset two-step sign-in of',
};
const CONFIRM_BUTTONS: Record<Confirm['kind'], string> = {
  disable: 'Disable',
  enable: 'Enable',
  reset: 'Reset password',
  'reset-2fa': 'Reset two-step sign-in',
};

/** Asks before an account is disabled, enabled, or has its password or two-step sign-in reset, then does it. */
export function ConfirmStaffDialog({
  confirm,
  onDone,
  onPasswordReset,
}: {
  confirm: Confirm | null;
  /** The dialog is closed: cancelled, or the change made. */
  onDone: () => void;
  onPasswordReset: (answer: StaffAccountWithPassword) => void;
}) {
  const update = useUpdateStaff();
  const resetSecondFactor = useResetSecondFactor();
  const showSnackbar = useSnackbar();

  const closeConfirm = () => {
    onDone();
    update.reset();
    resetSecondFactor.reset();
  };

  const runConfirmed = () => {
    if (!confirm) return;
    const { kind, account } = confirm;
    if (kind === 'reset-2fa') {
      resetSecondFactor.mutate(account.id, {
        onSuccess: ({ mailed_to }) => {
          onDone();
          showSnackbar(
            mailed_to
              ? `${account.name}'s two-step sign-in was reset. They were told at ${mailed_to}.`
              : `${account.name}'s two-step sign-in was reset. They have no e-mail address here: tell them yourself.`,
          );
        },
      });
      return;
    }
    const change: UpdateStaffInput = kind === 'reset' ? { reset_password: true } : { disabled: kind === 'disable' };
    update.mutate(
      { id: account.id, change },
      {
        onSuccess: (answer) => {
          onDone();
          if (kind === 'reset') onPasswordReset(answer);
          else showSnackbar(`${answer.name} ${kind === 'disable' ? 'disabled' : 'enabled'}.`);
        },
      },
    );
  };

  return (
    <Dialog open={confirm !== null} onClose={closeConfirm} aria-labelledby="staff-confirm-title" fullWidth maxWidth="xs">
      <DialogTitle id="staff-confirm-title">
        {confirm && CONFIRM_TITLES[confirm.kind]} {confirm?.account.name}?
      </DialogTitle>
      <DialogContent>
        <DialogContentText>
          {confirm?.kind === 'disable' && 'They are signed out at once and cannot sign in until the account is enabled again. Their history is kept.'}
          {confirm?.kind === 'enable' && 'They can sign in again with their password.'}
          {confirm?.kind === 'reset' &&
            'They are signed out at once. You get a one-time password to pass on; they choose their own at the next sign-in.'}
          {confirm?.kind === 'reset-2fa' &&
            `For a lost phone: their authenticator app and recovery codes stop working and they are signed out at once. Where the portal requires two-step sign-in, they set up an app again at their next sign-in. ${
              confirm.account.email ? `They are told by e-mail at ${confirm.account.email}.` : 'They have no e-mail address here: tell them yourself.'
            }`}
        </DialogContentText>
        {(update.isError || resetSecondFactor.isError) && (
          <Alert severity="error" role="alert" sx={{ mt: 1 }}>
            {errorMessage(update.error ?? resetSecondFactor.error)}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={closeConfirm}>Cancel</Button>
        <Button
          color={confirm?.kind === 'enable' ? 'primary' : 'error'}
          variant="contained"
          disabled={update.isPending || resetSecondFactor.isPending}
          onClick={runConfirmed}
        >
          {confirm && CONFIRM_BUTTONS[confirm.kind]}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A new or reset password, shown once to pass on. */
export function OneTimePasswordDialog({ oneTime, onClose }: { oneTime: StaffAccountWithPassword | null; onClose: () => void }) {
  return (
    <SecretShownOnceDialog
      secret={oneTime?.one_time_password ?? null}
      title={<>One-time password for {oneTime?.name}</>}
      text={
        <>
          Give this password to {oneTime?.name} (username <strong>{oneTime?.username}</strong>). It is shown only this once; they
          must choose their own password when they sign in.
        </>
      }
      name="one_time_password"
      label="One-time password"
      noun="password"
      onClose={onClose}
    />
  );
}
