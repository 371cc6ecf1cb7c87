import { useEffect, useRef } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { LOGOUT_DELAY_MS } from '../../shared/school.constants.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { forgetSession } from '../lib/session.js';
import { useLogout } from './auth.api.js';
import { MAIN_CONTENT_ID } from '../components/main-content.js';

/**
 * /logout: a spinner, about a second's pause, the sign-out call, then /. The device forgets the
 * session even when the call fails (docs/requirements.md R3), so a dead network never leaves someone signed in.
 */
export function LogoutPage() {
  usePageTitle('Signing out');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { mutateAsync: signOut } = useLogout();
  const started = useRef(false);

  useEffect(() => {
    const timer = window.setTimeout(() => {
      if (started.current) return;
      started.current = true;
      void signOut()
        .catch((error: unknown) => console.warn('Sign-out call failed; signing out on this device anyway.', error))
        .finally(() => {
          forgetSession(queryClient);
          void navigate('/', { replace: true });
        });
    }, LOGOUT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [signOut, queryClient, navigate]);

  return (
    <Box
      component="main" id={MAIN_CONTENT_ID}
      sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2 }}
    >
      <CircularProgress aria-label="Signing out" />
      <Typography variant="h1" sx={{ fontSize: '1.25rem' }}>
        Signing out…
      </Typography>
    </Box>
  );
}
