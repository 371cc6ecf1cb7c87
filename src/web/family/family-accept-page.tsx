import { useEffect, useRef } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { FamilyTokenSchema, type FamilyChild } from '../../shared/family.schemas.js';
import { PageSpinner } from '../components/page-spinner.js';
import { SignInFrame } from '../components/sign-in-frame.js';
import { errorMessage, isApiError } from '../lib/api-client.js';
import { useSession } from '../lib/session.js';
import { childLabel, childName } from './family-children.js';
import { acceptPath, FAMILY_CHILDREN_PATH, FAMILY_REGISTER_PATH, FAMILY_SIGN_IN_PATH, withNext } from './family-paths.js';
import { useAcceptInvitation } from './family.api.js';

/**
 * /family/accept?token=…, the link of an invitation mailed by a student or the office. Signed in
 * as a parent, it accepts at once and shows the child now linked; the server accepts only for the
 * family account of the invited address, and the page shows its refusal with a way to sign out. Not signed in, it
 * says what the invitation is for and offers to sign in or create an account, and comes back here
 * afterwards (the token rides along in `?next=`). Signed in as a student or staff member, it says
 * to sign out first: an invitation is for a family account.
 */
export function FamilyAcceptPage() {
  const [params] = useSearchParams();
  const parsed = FamilyTokenSchema.safeParse({ token: params.get('token') ?? '' });
  const token = parsed.success ? parsed.data.token : null;
  const session = useSession();
  const user = session.data?.user ?? null;

  if (session.isPending) return <PageSpinner />;
  if (token === null) {
    return (
      <SignInFrame title="Invitation">
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          This invitation link is incomplete. Open it again from the message, or copy the whole address into the browser.
        </Alert>
      </SignInFrame>
    );
  }
  if (user === null) {
    const next = acceptPath(token);
    return (
      <SignInFrame title="Invitation to a child's record">
        <Typography sx={{ mt: 1 }}>
          You were invited to see your child's school record: registration, documents, term reports and attendance, with one sign-in for all your
          children.
        </Typography>
        <Typography sx={{ mt: 1.5 }}>Sign in with your family account to accept, or create one. You will come back here afterwards.</Typography>
        <Stack spacing={1.5} sx={{ mt: 3 }}>
          <Button component={RouterLink} to={withNext(FAMILY_SIGN_IN_PATH, next)} variant="contained" size="large">
            Sign in to accept
          </Button>
          <Button component={RouterLink} to={withNext(FAMILY_REGISTER_PATH, next)} variant="outlined" size="large">
            Create a family account
          </Button>
        </Stack>
      </SignInFrame>
    );
  }
  if (user.role !== 'guardian') {
    return (
      <SignInFrame title="Invitation to a child's record">
        <Alert severity="warning" sx={{ mt: 1 }}>
          You are signed in as {user.name}. An invitation is for a parent's or guardian's family account: sign out first, then open the invitation
          link again.
        </Alert>
        <Button component={RouterLink} to="/logout" variant="contained" sx={{ mt: 3 }}>
          Sign out
        </Button>
      </SignInFrame>
    );
  }
  return <AcceptInvitation token={token} />;
}

function AcceptInvitation({ token }: { token: string }) {
  const { mutate: accept, data, error, isError } = useAcceptInvitation();
  const sent = useRef(false);
  useEffect(() => {
    // An invitation works once: the call goes out once, even when React runs the effect twice.
    if (sent.current) return;
    sent.current = true;
    accept(token);
  }, [accept, token]);

  if (isError) {
    // Refused because this account's address is not the invited one (D66): the way forward is the
    // invited address's own account, so signing out comes first.
    const otherAddress = isApiError(error, 'forbidden');
    return (
      <SignInFrame title="Invitation to a child's record">
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {errorMessage(error)}
        </Alert>
        <Stack spacing={1.5} sx={{ mt: 3, alignItems: 'flex-start' }}>
          {otherAddress && (
            <Button component={RouterLink} to="/logout" variant="contained">
              Sign out
            </Button>
          )}
          <Link component={RouterLink} to={FAMILY_CHILDREN_PATH}>
            Go to My children
          </Link>
        </Stack>
      </SignInFrame>
    );
  }
  if (!data) {
    return (
      <SignInFrame title="Invitation to a child's record">
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 2 }}>
          <CircularProgress size={24} aria-hidden />
          <Typography>Accepting the invitation…</Typography>
        </Box>
      </SignInFrame>
    );
  }
  return <Accepted child={data.child} message={data.message} />;
}

function Accepted({ child, message }: { child: FamilyChild; message: string }) {
  return (
    <SignInFrame title="Invitation accepted">
      <Alert severity="success" role="status" sx={{ mt: 1 }}>
        {message}
      </Alert>
      <Typography sx={{ mt: 2, fontWeight: 600 }}>{childLabel(child)}</Typography>
      <Typography color="text.secondary">Student ID {child.student_id}</Typography>
      <Stack spacing={1.5} sx={{ mt: 3 }}>
        <Button component={RouterLink} to={`/dashboard?student=${encodeURIComponent(child.student_id)}`} variant="contained" size="large">
          Open {childName(child)}'s record
        </Button>
        <Button component={RouterLink} to={FAMILY_CHILDREN_PATH} variant="outlined">
          My children
        </Button>
      </Stack>
    </SignInFrame>
  );
}
