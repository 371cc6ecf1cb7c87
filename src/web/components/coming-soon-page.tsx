import type { ReactNode } from 'react';
import ConstructionIcon from '@mui/icons-material/Construction';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { usePageTitle } from '../lib/use-page-title.js';

/** The stand-in for a screen a later issue builds: its title and a short note. */
export function ComingSoonPage({ title, children }: { title: string; children?: ReactNode }) {
  usePageTitle(title);
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }}>
      <ConstructionIcon color="primary" sx={{ fontSize: 48 }} aria-hidden />
      <Typography variant="h1" sx={{ mt: 1 }}>
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        This screen is coming soon.
      </Typography>
      {children}
    </Paper>
  );
}
