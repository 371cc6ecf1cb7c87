import LogoutIcon from '@mui/icons-material/Logout';
import NotificationsIcon from '@mui/icons-material/Notifications';
import SchoolIcon from '@mui/icons-material/School';
import AppBar from '@mui/material/AppBar';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { Suspense, type ReactNode } from 'react';
import { Link as RouterLink, Outlet } from 'react-router';
import { schoolName } from '../lib/school-name.js';
import { homePathFor, useSession } from '../lib/session.js';
import { MAIN_CONTENT_ID } from './main-content.js';

/**
 * The frame of every signed-in screen: top bar with the school, the signed-in name and Sign out;
 * `subheader` is a strip under it that stays on the screen with it (a family account's child
 * switcher, composed in app/).
 */
export function AppShell({ subheader }: { subheader?: ReactNode }) {
  const user = useSession().data?.user ?? null;
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <AppBar position="sticky" elevation={0}>
        <Toolbar sx={{ gap: { xs: 1, sm: 2 } }}>
          <Box
            component={RouterLink}
            to={user ? homePathFor(user) : '/'}
            sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'inherit', textDecoration: 'none', minWidth: 0, flexGrow: 1 }}
          >
            <SchoolIcon sx={{ color: 'secondary.main' }} aria-hidden />
            <Typography component="span" noWrap sx={{ fontWeight: 600, fontSize: { xs: '1rem', sm: '1.15rem' } }}>
              {schoolName()}
            </Typography>
          </Box>
          {user && (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              <Avatar
                sx={{ width: 32, height: 32, fontSize: '0.85rem', bgcolor: 'secondary.main', color: 'secondary.contrastText' }}
                aria-hidden
              >
                {user.initials}
              </Avatar>
              <Typography component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
                {user.name}
              </Typography>
            </Box>
          )}
          {user && user.role !== 'staff' && (
            // Families and students read every message the school sent them here.
            <Button
              component={RouterLink}
              to="/notices"
              color="inherit"
              startIcon={<NotificationsIcon aria-hidden />}
              sx={{ flexShrink: 0, whiteSpace: 'nowrap', '& .MuiButton-startIcon': { display: { xs: 'none', sm: 'inherit' } } }}
            >
              Notices
            </Button>
          )}
          <Button
            component={RouterLink}
            to="/logout"
            color="inherit"
            startIcon={<LogoutIcon aria-hidden />}
            sx={{ flexShrink: 0, whiteSpace: 'nowrap', '& .MuiButton-startIcon': { display: { xs: 'none', sm: 'inherit' } } }}
          >
            Sign out
          </Button>
        </Toolbar>
        {subheader}
      </AppBar>
      <Container component="main" id={MAIN_CONTENT_ID} maxWidth="lg" sx={{ py: { xs: 2, sm: 4 }, flexGrow: 1 }}>
        {/* The screen is a part React hydrates after the frame, in short turns (docs/decisions.md D104). */}
        <Suspense>
          <Outlet />
        </Suspense>
      </Container>
    </Box>
  );
}
