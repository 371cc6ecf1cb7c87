import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useLocation } from 'react-router';
import { homePathFor, useSession } from '../lib/session.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { MAIN_CONTENT_ID } from './main-content.js';

/**
 * An address the portal has no screen for: says so, instead of sending the
 * person somewhere they did not ask for, and links to where they belong: their dashboard when
 * signed in, the sign-in screen otherwise.
 */
export function NotFoundPage() {
  usePageTitle('Page not found');
  const { pathname } = useLocation();
  const user = useSession().data?.user ?? null;
  const home = user ? homePathFor(user) : '/';
  const homeLabel = user ? (user.role === 'staff' ? 'Go to the admin dashboard' : 'Go to your dashboard') : 'Go to sign in';
  return (
    <Container component="main" id={MAIN_CONTENT_ID} maxWidth="sm" sx={{ py: { xs: 3, sm: 6 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
        <Typography variant="h1">Page not found</Typography>
        <Typography color="text.secondary" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
          There is no page at {pathname}. The address may be mistyped, or the page has moved.
        </Typography>
        <Button component={RouterLink} to={home} variant="contained" sx={{ mt: 3 }}>
          {homeLabel}
        </Button>
      </Paper>
    </Container>
  );
}
