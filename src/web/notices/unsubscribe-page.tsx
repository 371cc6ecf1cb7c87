import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { schoolName } from '../lib/school-name.js';
import { errorMessage } from '../lib/api-client.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { useUnsubscribe } from './notices.api.js';
import { MAIN_CONTENT_ID } from '../components/main-content.js';

/**
 * /notices/unsubscribe?token=… (D57): the link at the end of an optional message. It
 * works without a sign-in and only turns that kind off for that recipient; it asks for a click
 * first, so a mail scanner that follows links turns nothing off, and then says what it did.
 */
export function UnsubscribePage() {
  usePageTitle('Stop these e-mails');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const unsubscribe = useUnsubscribe();
  return (
    <Box component="main" id={MAIN_CONTENT_ID} sx={{ display: 'grid', placeItems: 'center', minHeight: '100vh', p: 2 }}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 }, maxWidth: 520, width: '100%', display: 'grid', gap: 2 }}>
        <Typography variant="h1" sx={{ fontSize: '1.5rem' }}>
          Stop these e-mails
        </Typography>
        {unsubscribe.isSuccess ? (
          <Alert severity="success" role="status">
            Turned off: {unsubscribe.data.label}, for {unsubscribe.data.email}. Other messages from {schoolName()} still come; a family account can turn it back on
            under Notices.
          </Alert>
        ) : (
          <>
            <Typography>Turn off this kind of message from {schoolName()}? Nothing else changes.</Typography>
            {unsubscribe.isError && (
              <Alert severity="error" role="alert">
                {errorMessage(unsubscribe.error)}
              </Alert>
            )}
            <Button variant="contained" onClick={() => unsubscribe.mutate(token)} disabled={unsubscribe.isPending || token === ''}>
              Turn off
            </Button>
          </>
        )}
        {/* A way on from a page opened from a mail: the portal's own start, signed in or not. */}
        <Link component={RouterLink} to="/" sx={{ justifySelf: 'start' }}>
          Go to the {schoolName()} portal
        </Link>
      </Paper>
    </Box>
  );
}
