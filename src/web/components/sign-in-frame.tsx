import type { ReactNode } from 'react';
import SchoolIcon from '@mui/icons-material/School';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { schoolName } from '../lib/school-name.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { MAIN_CONTENT_ID } from './main-content.js';

/** The frame of the sign-in screens: school crest and name, the screen's heading, then the form. */
export function SignInFrame({ title, children }: { title: string; children: ReactNode }) {
  usePageTitle(title);
  return (
    <Box
      component="main" id={MAIN_CONTENT_ID}
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: { xs: 'flex-start', sm: 'center' },
        justifyContent: 'center',
        px: 2,
        py: { xs: 3, sm: 6 },
        background: 'linear-gradient(180deg, #1b4a72 0, #1b4a72 220px, transparent 220px)',
      }}
    >
      <Paper elevation={3} sx={{ width: '100%', maxWidth: 440, p: { xs: 2.5, sm: 4 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2 }}>
          <Box
            aria-hidden
            sx={{
              width: 44,
              height: 44,
              borderRadius: '50%',
              bgcolor: 'primary.main',
              color: 'secondary.main',
              display: 'grid',
              placeItems: 'center',
              flexShrink: 0,
            }}
          >
            <SchoolIcon />
          </Box>
          <Typography component="p" sx={{ fontWeight: 600, color: 'primary.main' }}>
            {schoolName()}
          </Typography>
        </Box>
        <Typography variant="h1" sx={{ mb: 1 }}>
          {title}
        </Typography>
        {children}
      </Paper>
    </Box>
  );
}
