import type { ReactNode } from 'react';
import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import SummarizeIcon from '@mui/icons-material/Summarize';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { studentShownTo, useSession } from '../lib/session.js';
import { usePageTitle } from '../lib/use-page-title.js';

interface DashboardCardProps {
  title: string;
  description: string;
  to: string;
  icon: ReactNode;
}

/**
 * The student dashboard (/dashboard): the three cards of SPEC §2. A family account sees them for
 * the child chosen in the header (the cards name the child with `?student=`), or, with
 * no child linked yet, the way to add one. `actions` holds what app/ adds for the person (a
 * student's "Invite a parent").
 */
export function DashboardPage({ actions }: { actions?: ReactNode }) {
  usePageTitle('Dashboard');
  const user = useSession().data?.user ?? null;
  const [params] = useSearchParams();
  const shownId = studentShownTo(user, params);
  const family = user?.role === 'guardian';
  const to = (path: string) => (family && shownId ? `${path}?student=${encodeURIComponent(shownId)}` : path);
  return (
    <>
      <Typography variant="h1">Welcome{user ? `, ${user.name}` : ''}</Typography>
      {shownId && (
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          Student ID {shownId}
        </Typography>
      )}
      {actions && <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>{actions}</Box>}
      {family && !shownId ? (
        <Alert
          severity="info"
          sx={{ mt: 3 }}
          action={
            <Button component={RouterLink} to="/family/children" color="inherit" size="small">
              Add a child
            </Button>
          }
        >
          No child is linked to your account yet. Add one with the code from the school's letter, or open the invitation you were e-mailed.
        </Alert>
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
            to={to('/term-reports')}
            icon={<SummarizeIcon fontSize="large" />}
          />
          <DashboardCard
            title="Edit/View Registration"
            description="Review and complete the registration record, documents and terms."
            to={to('/registration/student-data')}
            icon={<AssignmentIndIcon fontSize="large" />}
          />
          <DashboardCard
            title="View Attendance"
            description="See attendance and punctuality for the term."
            to={to('/attendance')}
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
