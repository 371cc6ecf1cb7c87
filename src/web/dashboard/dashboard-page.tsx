import type { ReactNode } from 'react';
import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import SummarizeIcon from '@mui/icons-material/Summarize';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { FamilyHome } from './family-home.js';
import { studentShownTo, useSession } from '../lib/session.js';
import { usePageTitle } from '../lib/use-page-title.js';

interface DashboardCardProps {
  title: string;
  description: string;
  to: string;
  icon: ReactNode;
}

/**
 * The dashboard (/dashboard). A student sees their three cards. A family account is
 * greeted by its own name and sees a card per linked child (D76: registration and its deadline,
 * documents, today's attendance, the newest report card), or, with no child linked yet, the way to
 * add one. `actions` holds what app/ adds for the person (a student's "Invite a parent").
 */
export function DashboardPage({ actions }: { actions?: ReactNode }) {
  usePageTitle('Dashboard');
  const user = useSession().data?.user ?? null;
  const [params] = useSearchParams();
  const family = user?.role === 'guardian';
  const shownId = family ? null : studentShownTo(user, params);
  return (
    <>
      <Typography variant="h1">Welcome{user ? `, ${user.name}` : ''}</Typography>
      {shownId && (
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          Student ID {shownId}
        </Typography>
      )}
      {actions && <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>{actions}</Box>}
      {family ? (
        <FamilyHome childIds={user.child_ids ?? []} />
      ) : (
        <Box
          component="ul"
          sx={{
            listStyle: 'none',
            p: 0,
            mt: 3,
            mb: 0,
            display: 'grid',
            gap: { xs: 2, md: 3 },
            gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' },
          }}
        >
          <DashboardCard
            title="View Term Reports"
            description="Open the end-of-term report cards the school has posted."
            to="/term-reports"
            icon={<SummarizeIcon fontSize="large" />}
          />
          <DashboardCard
            title="Edit/View Registration"
            description="Review and complete the registration record, documents and terms."
            to="/registration/student-data"
            icon={<AssignmentIndIcon fontSize="large" />}
          />
          <DashboardCard
            title="View Attendance"
            description="See attendance (sessions) and punctuality (days on time) for the term."
            to="/attendance"
            icon={<EventAvailableIcon fontSize="large" />}
          />
        </Box>
      )}
    </>
  );
}

/** One dashboard card: the whole card is the link. */
function DashboardCard({ title, description, to, icon }: DashboardCardProps) {
  return (
    <Box component="li">
      <Card sx={{ height: '100%' }}>
        <CardActionArea component={RouterLink} to={to} sx={{ height: '100%', p: { xs: 2, sm: 3 } }}>
          <CardContent sx={{ p: 0 }}>
            <Box aria-hidden sx={{ color: 'primary.main', mb: 1 }}>
              {icon}
            </Box>
            <Typography variant="h2" component="h2">
              {title}
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              {description}
            </Typography>
          </CardContent>
        </CardActionArea>
      </Card>
    </Box>
  );
}
