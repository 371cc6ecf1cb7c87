import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { DAY_ATTENDANCE_WORDS } from '../../shared/attendance.stats.js';
import type { FamilyHomeChild, FamilyHomeToday } from '../../shared/family-home.schemas.js';
import { TERM_NAMES, academicYearLabel, type TermNumber } from '../../shared/school.constants.js';
import { PageSpinner } from '../components/page-spinner.js';
import { errorMessage } from '../lib/api-client.js';
import { useFamilyHome } from './family-home.api.js';

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Today at school, in the attendance screen's and the digest's words (src/shared/attendance.stats.ts). */
export function todayWords(today: FamilyHomeToday): string {
  if (today.status === 'not-school-day') return 'No school today.';
  if (today.status === 'not-recorded') return 'Not recorded yet today.';
  const words = sentence(DAY_ATTENDANCE_WORDS[today.status]);
  if (today.status === 'late' && today.time_in) return `${words}, arrived at ${today.time_in}.`;
  if (today.status === 'absent-am' && today.time_in) return `${words} (arrived at ${today.time_in}).`;
  return `${words}.`;
}

/** The registration's state as the family should read it first. */
function registrationWords(registration: FamilyHomeChild['registration']): string {
  if (registration.review === 'verified') return 'Verified by the office.';
  if (registration.review === 'returned') return 'Returned by the office: open it to see what to fix.';
  if (registration.submitted) return 'Submitted to the school.';
  return `${registration.steps_done} of ${registration.steps_total} steps done.`;
}

function deadlineWords(registration: FamilyHomeChild['registration']): string {
  if (registration.editable) return registration.deadline ? `Deadline: ${registration.deadline}` : 'Open, with no deadline set.';
  return registration.reason ?? 'Closed.';
}

const childName = (child: FamilyHomeChild) => [child.first_name, child.last_name].filter(Boolean).join(' ') || `Student ${child.student_id}`;

/** One part of a card: its heading, what it says, and the link to that child's screen. */
function CardPart({ title, to, linkLabel, children }: { title: string; to: string; linkLabel: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title} sx={{ py: 1.25, borderTop: 1, borderColor: 'divider' }}>
      <Typography variant="h3" component="h3" sx={{ fontSize: '1rem', fontWeight: 600 }}>
        {title}
      </Typography>
      <Box sx={{ mt: 0.5 }}>{children}</Box>
      <Link component={RouterLink} to={to} sx={{ display: 'inline-block', mt: 0.5, py: 0.5 }}>
        {linkLabel}
      </Link>
    </Box>
  );
}

/** A linked child's card: registration and its deadline, documents, today, the newest report card. */
function ChildCard({ child, date }: { child: FamilyHomeChild; date: string }) {
  const name = childName(child);
  const student = `student=${encodeURIComponent(child.student_id)}`;
  const { registration, documents } = child;
  const report = child.latest_report;
  return (
    <Card component="li" variant="outlined" aria-label={name} sx={{ listStyle: 'none', minWidth: 0 }} data-testid="child-card">
      <CardContent
        sx={{
          p: { xs: 2, sm: 2.5 },
          '&:last-child': { pb: { xs: 1, sm: 1.5 } },
        }}
      >
        <Typography variant="h2" component="h2" sx={{ fontSize: '1.25rem', overflowWrap: 'anywhere' }}>
          {name}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {child.class_name ?? 'No class yet'} · Student ID {child.student_id}
        </Typography>
        <CardPart title="Registration" to={`/registration/student-data?${student}`} linkLabel={`Open ${name}'s registration`}>
          <Typography>{registrationWords(registration)}</Typography>
          <Typography
            color={registration.editable ? 'text.primary' : 'text.secondary'}
            sx={{
              fontWeight: registration.editable && registration.deadline ? 600 : 400,
            }}
          >
            {deadlineWords(registration)}
          </Typography>
        </CardPart>
        <CardPart title="Documents" to={`/registration/documents?${student}`} linkLabel={`Open ${name}'s documents`}>
          {documents.missing.length === 0 && documents.returned.length === 0 && <Typography>Every required document is uploaded.</Typography>}
          {documents.missing.length > 0 && <Typography>Missing: {documents.missing.map((slot) => slot.label).join(', ')}.</Typography>}
          {documents.returned.map((slot) => (
            <Typography key={`${slot.type}-${slot.reason ?? ''}`} color="error.main">
              {`Returned by the office: ${slot.label}${slot.reason ? ` — ${slot.reason.replace(/\.$/, '')}` : ''}. Upload it again.`}
            </Typography>
          ))}
        </CardPart>
        <CardPart title="Today's attendance" to={`/attendance?${student}`} linkLabel={`Open ${name}'s attendance`}>
          <Typography color={['absent', 'absent-am', 'absent-pm', 'late'].includes(child.today.status) ? 'error.main' : 'text.primary'}>
            {todayWords(child.today)}
          </Typography>
          {['absent', 'absent-am', 'absent-pm', 'late'].includes(child.today.status) && (
            // The family's answer to the day (D93): the absence note's form, opened on today.
            <Link component={RouterLink} to={`/absence-notes?${student}&date=${date}`} sx={{ display: 'inline-block', py: 0.5 }}>
              Explain this absence
            </Link>
          )}
        </CardPart>
        <CardPart title="Report card" to={`/term-reports?${student}`} linkLabel={`Open ${name}'s report cards`}>
          <Typography>
            {report
              ? `Newest: Term ${report.term} ${TERM_NAMES[report.term as TermNumber] ?? ''} ${academicYearLabel(report.year)}`.replace(/\s+/g, ' ')
              : 'No report card posted yet.'}
          </Typography>
        </CardPart>
      </CardContent>
    </Card>
  );
}

/**
 * A family account's home (D76): one card per linked child, from one call. Phones get one column,
 * tablets two, wider screens up to three (the number of children, so two children share the row).
 * With no child linked it says so once, with the way to add one.
 */
export function FamilyHome({ childIds }: { childIds: readonly string[] }) {
  const home = useFamilyHome(childIds);
  if (childIds.length === 0) {
    return (
      <Alert
        severity="info"
        sx={{ mt: 3 }}
        action={
          <Button component={RouterLink} to="/family/children" color="inherit" size="small">
            Add a child
          </Button>
        }
      >
        No child is linked to your account yet. Add one with the code from the school&apos;s letter, or open the invitation you were e-mailed.
      </Alert>
    );
  }
  if (home.isPending) return <PageSpinner label="Loading your children's cards" />;
  if (home.isError) {
    return (
      <Alert severity="error" role="alert" sx={{ mt: 3 }}>
        {errorMessage(home.error)}
      </Alert>
    );
  }
  const children = home.data.children;
  // Columns by CSS breakpoints, so the page the server renders is right at every width (D103).
  const columns = (most: number) => `repeat(${Math.min(most, Math.max(children.length, 1))}, minmax(0, 1fr))`;
  return (
    <Box
      component="ul"
      aria-label="Your children"
      sx={{
        p: 0,
        m: 0,
        mt: 3,
        display: 'grid',
        gap: { xs: 2, md: 3 },
        gridTemplateColumns: { xs: columns(1), sm: columns(2), md: columns(3) },
      }}
    >
      {children.map((child) => (
        <ChildCard key={child.student_id} child={child} date={home.data.date} />
      ))}
    </Box>
  );
}
