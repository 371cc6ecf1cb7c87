import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate } from 'react-router';
import { StartEnrolmentSchema, TotpConfirmSchema, type EnrolmentAnswer } from '../../shared/staff-2fa.schemas.js';
import { ErrorAlert } from '../components/error-alert.js';
import { PasswordField } from '../components/password-field.js';
import { SignInFrame } from '../components/sign-in-frame.js';
import { PageSpinner } from '../components/page-spinner.js';
import { errorMessage, isApiError } from '../lib/api-client.js';
import { fieldErrorsOf, firstFieldMessages, firstIssueMessage, type FieldErrors } from '../lib/form-errors.js';
import { schoolName } from '../lib/school-name.js';
import { useSession } from '../lib/session.js';
import { useConfirmEnrolment, useStaff2faStatus, useStartEnrolment, useTurnOff } from './staff-2fa.api.js';

/** The secret in groups of four, as authenticator apps show it for typing. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** A 6-digit code field: the phone's number pad and the browser's one-time-code fill. */
function CodeField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error: boolean }) {
  return (
    <TextField
      label="6-digit code"
      name="code"
      autoComplete="one-time-code"
      slotProps={{ htmlInput: { inputMode: 'numeric', pattern: '[0-9 ]*', maxLength: 7 } }}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      required
    />
  );
}

/**
 * The first step of enrolment: the current password (D65), so whoever finds a session open cannot
 * put their own phone on the account. Its errors sit on the field; anything else in the alert.
 */
function StartEnrolment({ start }: { start: ReturnType<typeof useStartEnrolment> }) {
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = StartEnrolmentSchema.safeParse({ current_password: password });
    if (!parsed.success) return setFieldErrors(fieldErrorsOf(parsed.error));
    setFieldErrors({});
    start.mutate(parsed.data, {
      onError: (cause) => {
        if (isApiError(cause) && cause.errors) setFieldErrors(firstFieldMessages(cause.errors));
      },
    });
  };
  const onField = isApiError(start.error) && start.error.errors !== undefined;
  return (
    <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Start setting up an authenticator app">
      <Typography sx={{ mb: 2 }}>
        Staff sign in with their password and a 6-digit code from an authenticator app on their phone (for example Google
        Authenticator, Microsoft Authenticator or 2FAS). Install one, then enter your password to continue.
      </Typography>
      <ErrorAlert message={start.isError && !onField ? errorMessage(start.error) : null} />
      <PasswordField
        label="Current password"
        name="current_password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={Boolean(fieldErrors['current_password'])}
        helperText={fieldErrors['current_password']}
        required
      />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={start.isPending} sx={{ mt: 1 }}>
        Set up authenticator app
      </Button>
    </Box>
  );
}

/** Enrolment: the password, then the QR code and the secret as text, then a first code from the app. */
function Enrolment({ confirm }: { confirm: ReturnType<typeof useConfirmEnrolment> }) {
  const start = useStartEnrolment();
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const enrolment: EnrolmentAnswer | undefined = start.data;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = TotpConfirmSchema.safeParse({ code });
    if (!parsed.success) {
      setInvalid(firstIssueMessage(parsed.error));
      confirm.reset();
      return;
    }
    setInvalid(null);
    confirm.mutate(parsed.data);
  };

  if (!enrolment) return <StartEnrolment start={start} />;

  return (
    <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Set up authenticator app">
      <Typography sx={{ mb: 1 }}>1. In your authenticator app, add an account and scan this QR code.</Typography>
      <Box
        component="img"
        src={enrolment.qr_code}
        alt={`QR code to add ${schoolName()} to your authenticator app`}
        sx={{ display: 'block', width: 200, maxWidth: '100%', height: 'auto', mx: 'auto', mb: 1, imageRendering: 'pixelated' }}
      />
      <Typography sx={{ mb: 0.5 }}>Can’t scan it? Enter this key in the app instead (time-based):</Typography>
      <Typography
        component="code"
        aria-label="Secret key"
        data-secret={enrolment.secret}
        sx={{ display: 'block', fontFamily: 'monospace', fontSize: '1.05rem', bgcolor: 'grey.100', p: 1, mb: 2, borderRadius: 1, wordBreak: 'break-all' }}
      >
        {grouped(enrolment.secret)}
      </Typography>
      <Typography sx={{ mb: 1 }}>2. Enter the 6-digit code the app now shows.</Typography>
      <ErrorAlert message={invalid ?? (confirm.isError ? errorMessage(confirm.error) : null)} />
      <CodeField value={code} onChange={setCode} error={Boolean(invalid)} />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={confirm.isPending} sx={{ mt: 1 }}>
        Confirm
      </Button>
    </Box>
  );
}

/** The recovery codes, shown once: copy, download, and the promise they were saved. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [saved, setSaved] = useState(false);
  const [copied, setCopied] = useState(false);
  const text = `${schoolName()} — recovery codes\nEach code signs you in once if you lose your phone.\n\n${codes.join('\n')}\n`;
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
  return (
    <Box>
      <Alert severity="success" sx={{ mb: 2 }}>
        Your authenticator app is set up.
      </Alert>
      <Typography sx={{ mb: 1 }}>
        Save these recovery codes somewhere safe (not on your phone). If you lose your phone, each code signs you in once. They are
        shown only now.
      </Typography>
      <Box
        component="ol"
        aria-label="Recovery codes"
        sx={{ fontFamily: 'monospace', fontSize: '1.05rem', columns: 2, columnGap: 3, pl: 3, my: 1, bgcolor: 'grey.100', py: 1, borderRadius: 1 }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 1 }}>
        <Button
          variant="outlined"
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(() => setCopied(true), () => setCopied(false));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button variant="outlined" component="a" href={download} download="recovery-codes.txt">
          Download
        </Button>
      </Box>
      <FormControlLabel control={<Checkbox checked={saved} onChange={(event) => setSaved(event.target.checked)} />} label="I have saved them" />
      <Button variant="contained" size="large" fullWidth disabled={!saved} onClick={onDone} sx={{ mt: 1 }}>
        Continue
      </Button>
    </Box>
  );
}

/** Turning the second factor off with a current code, where the portal allows it. */
function TurnOff() {
  const turnOff = useTurnOff();
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = TotpConfirmSchema.safeParse({ code });
    if (!parsed.success) return setInvalid(firstIssueMessage(parsed.error));
    setInvalid(null);
    turnOff.mutate(parsed.data);
  };
  return (
    <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Turn off two-step sign-in" sx={{ mt: 3 }}>
      <Typography sx={{ mb: 1 }}>To turn two-step sign-in off, enter a code from your app.</Typography>
      <ErrorAlert message={invalid ?? (turnOff.isError ? errorMessage(turnOff.error) : null)} />
      <CodeField value={code} onChange={setCode} error={Boolean(invalid)} />
      <Button type="submit" variant="outlined" color="error" fullWidth disabled={turnOff.isPending} sx={{ mt: 1 }}>
        Turn off
      </Button>
    </Box>
  );
}

/** /admin/two-factor: the staff member's own second factor. */
export function TwoFactorPage() {
  const navigate = useNavigate();
  const session = useSession();
  const status = useStaff2faStatus();
  // The confirmation belongs to the page, not the enrolment form: its answer turns the status to
  // enabled, which unmounts the form before a callback of its own could show the codes.
  const confirm = useConfirmEnrolment();
  const recoveryCodes = confirm.data?.recovery_codes ?? null;
  const mustSetUp = session.data?.user?.second_factor_setup === true;

  let body;
  if (recoveryCodes) body = <RecoveryCodes codes={recoveryCodes} onDone={() => void navigate('/admin/dashboard', { replace: true })} />;
  else if (status.isPending) body = <PageSpinner />;
  else if (status.isError) body = <ErrorAlert message={errorMessage(status.error)} />;
  else if (status.data.rule === 'off') body = <Typography>This portal does not use two-step sign-in.</Typography>;
  else if (!status.data.enabled) body = <Enrolment confirm={confirm} />;
  else
    body = (
      <Box>
        <Alert severity="success" sx={{ mb: 1 }}>
          Two-step sign-in is on. Recovery codes left: {status.data.recovery_codes_left}.
        </Alert>
        {status.data.rule === 'optional' && <TurnOff />}
      </Box>
    );

  return (
    <SignInFrame title="Two-step sign-in">
      {mustSetUp && !recoveryCodes && (
        <Alert severity="info" sx={{ mb: 2 }}>
          This portal asks staff for a code from an authenticator app at every sign-in. Set it up to continue.
        </Alert>
      )}
      {body}
      <Box sx={{ display: 'flex', justifyContent: 'space-between', mt: 3 }}>
        {!mustSetUp && !recoveryCodes && (
          <Link component={RouterLink} to="/admin/dashboard">
            Back to the dashboard
          </Link>
        )}
        <Link component={RouterLink} to="/logout">
          Sign out
        </Link>
      </Box>
    </SignInFrame>
  );
}
