import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import DescriptionIcon from '@mui/icons-material/Description';
import FamilyRestroomIcon from '@mui/icons-material/FamilyRestroom';
import FavoriteIcon from '@mui/icons-material/Favorite';
import KeyIcon from '@mui/icons-material/Key';
import MoreHorizIcon from '@mui/icons-material/MoreHoriz';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import Alert from '@mui/material/Alert';
import BottomNavigation from '@mui/material/BottomNavigation';
import BottomNavigationAction from '@mui/material/BottomNavigationAction';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import { Suspense, useCallback, useMemo, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, Outlet, useLocation, useSearchParams } from 'react-router';
import { PageSpinner } from '../components/page-spinner.js';
import { errorMessage } from '../lib/api-client.js';
import { RegistrationContext } from '../lib/registration-context.js';
import { useSession, useSignInInPlace } from '../lib/session.js';
import { canTake } from '../lib/staff-access.js';
import { recordValues, type RegistrationStatus, type StudentRecord } from '../../shared/registration.schemas.js';
import type { SessionUser } from '../../shared/auth.schemas.js';
import { DATA_STEPS, type ProgressFlags } from '../../shared/registration.progress.js';
import { shownStepDone, useFieldProblems } from './field-problems.js';
import type { StudentDrafts } from '../lib/drafts.js';
import { registrationReviewKey, registrationStudentOf, studentRecordKey, useRegistrationStatus, useStudentRecord } from './registration.api.js';
import { ProgressHeader } from './progress-header.js';
import { REGISTRATION_STEPS, type RegistrationStepPath } from './registration-steps.js';
import { ReviewNotice } from './review-notice.js';
import { reRegistrationKey } from './re-registration.api.js';
import { ReRegistrationNotice } from './re-registration-notice.js';

const STEP_ICONS: Record<RegistrationStepPath, ReactNode> = {
  'student-data': <AssignmentIndIcon />,
  'family-data': <FamilyRestroomIcon />,
  'health-data': <FavoriteIcon />,
  'other-data': <MoreHorizIcon />,
  documents: <DescriptionIcon />,
  complete: <TaskAltIcon />,
};

const FLAG_OF_STEP = { student: 'studentData', family: 'familyData', health: 'healthData', other: 'otherData' } as const;

/**
 * Which navigation a width gets is decided by CSS breakpoints, not by a media query in React: the
 * server cannot know the screen, and a layout chosen after hydrating moved the step on a phone
 * once its code arrived (docs/decisions.md D103). Shown below 600 px only, as `display` would be.
 */
const onPhonesOnly = (display: 'block' | 'inline-flex') => ({ xs: display, sm: 'none' }) as const;

/**
 * The stored flags as the screen shows them: a data step is not done while one of its fields
 * shows a refused value, and is judged with the values still waiting to be sent (D73), so
 * connection trouble never takes a step's tick away.
 */
function shownProgress(stored: ProgressFlags, problems: StudentDrafts, values: ReturnType<typeof recordValues>): ProgressFlags {
  if (Object.keys(problems).length === 0) return stored;
  const shown = { ...stored };
  for (const step of DATA_STEPS) {
    const done = shownStepDone(step, problems, values);
    if (done !== null) shown[FLAG_OF_STEP[step]] = done ? 1 : 0;
  }
  return shown;
}

/**
 * The frame of the six registration steps: the progress header, a side menu on wide screens and a
 * bottom navigation on narrow ones (< 600 px), the read-only banner, and the step below. Its
 * route's loader has put the record and the window's status in the query cache.
 */
export function RegistrationLayout() {
  const user = useSession().data?.user ?? null;
  const [params] = useSearchParams();
  // A student's own record; a family account's chosen child's.
  const studentId = registrationStudentOf(user, params);
  const record = useStudentRecord(studentId);
  const status = useRegistrationStatus(user, studentId);
  // An ended session asks for the sign-in over the step, which stays (D73).
  useSignInInPlace();

  if (!user) return null;
  if (studentId === null) return <NoStudentNotice guardian={user.role === 'guardian'} />;
  if (record.isError) return <Alert severity="error">{errorMessage(record.error)}</Alert>;
  // Only when the loader's call failed and the record is being asked for again.
  if (!record.data) return <PageSpinner label="Loading the registration record" />;
  return <RegistrationFrame user={user} studentId={studentId} record={record.data} status={status.data} />;
}

interface RegistrationFrameProps {
  user: SessionUser;
  studentId: string;
  record: StudentRecord;
  status: RegistrationStatus | undefined;
}

/**
 * The frame around one student's record. Its context value changes only when what it holds does:
 * every step's sections read it, and a new value would render them all again (and hydrate each
 * section at once instead of in its own turn, docs/decisions.md D104).
 */
function RegistrationFrame({ user, studentId, record, status }: RegistrationFrameProps) {
  const activePath = useLocation().pathname.split('/')[2] ?? '';
  const queryClient = useQueryClient();
  const { problems } = useFieldProblems(studentId);
  const role = user.role;
  // Staff: whether their role may edit records (the policy's student.edit; the principal and a
  // form teacher only read); a student or a family account: the registration window's verdict.
  const editable = role === 'staff' ? canTake(user, 'student.edit') : status?.editable === true;
  const progress = shownProgress(record.progress, problems, recordValues(record));
  const refreshRecord = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: studentRecordKey(studentId) });
    void queryClient.invalidateQueries({ queryKey: registrationReviewKey(studentId) });
    void queryClient.invalidateQueries({ queryKey: reRegistrationKey(studentId) });
  }, [queryClient, studentId]);
  const context = useMemo(() => ({ studentId, record, status, editable, role, refreshRecord }), [studentId, record, status, editable, role, refreshRecord]);

  return (
    <RegistrationContext.Provider value={context}>
      <>
        <Box
          sx={{
            display: 'grid',
            gap: 3,
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: '210px minmax(0, 1fr)' },
            alignItems: 'start',
            pb: { xs: 9, sm: 0 },
          }}
        >
          {/* Each Suspense here, and each section of a step, is a part React hydrates in a turn of
              its own, so a phone answers between them (docs/decisions.md D104). */}
          <Suspense>
            <StepSideMenu progress={progress} activePath={activePath} withChangePassword={role === 'student'} />
          </Suspense>
          <Box sx={{ minWidth: 0 }}>
            <Suspense>
              <ProgressHeader progress={progress} activePath={activePath} />
            </Suspense>
            {!editable && status?.reason && (
              <Alert severity="warning" sx={{ mb: 2 }} data-testid="registration-read-only">
                {status.reason}
              </Alert>
            )}
            <ReviewNotice studentId={studentId} closedToFamily={!editable && Boolean(status?.reason)} />
            <ReRegistrationNotice studentId={studentId} activePath={activePath} editable={editable} />
            <Outlet />
            {role === 'student' && (
              <Button component={RouterLink} to="/registration/change-password" startIcon={<KeyIcon />} sx={{ mt: 3, display: onPhonesOnly('inline-flex') }}>
                Change password
              </Button>
            )}
          </Box>
        </Box>
        <Suspense>
          <StepBottomNav progress={progress} activePath={activePath} />
        </Suspense>
      </>
    </RegistrationContext.Provider>
  );
}

/** Where there is no student's record to show: a family account without a linked child, or staff. */
function NoStudentNotice({ guardian }: { guardian: boolean }) {
  return guardian ? (
    <Alert severity="info">
      No child is linked to your account yet.{' '}
      <RouterLink to="/family/children">Add a child</RouterLink> with the code from the school's letter.
    </Alert>
  ) : (
    <Alert severity="info">Registration records belong to students. Open a student's record from the admin area.</Alert>
  );
}

interface StepNavProps {
  progress: ProgressFlags;
  activePath: string;
}

/** The steps down the side on a wide screen, each ticked when done; a student also finds Change password here. */
function StepSideMenu({ progress, activePath, withChangePassword }: StepNavProps & { withChangePassword: boolean }) {
  return (
    <Paper variant="outlined" component="nav" aria-label="Registration steps" sx={{ position: 'sticky', top: 80, display: { xs: 'none', sm: 'block' } }}>
      <List dense>
        {REGISTRATION_STEPS.map((step) => {
          const done = progress[step.flag] === 1;
          const selected = step.path === activePath;
          return (
            <ListItem key={step.path} disablePadding>
              <ListItemButton component={RouterLink} to={`/registration/${step.path}`} selected={selected} aria-current={selected ? 'page' : undefined}>
                <ListItemIcon sx={{ minWidth: 36, color: done ? 'success.main' : 'text.secondary' }}>
                  {done ? <CheckCircleIcon titleAccess="done" /> : <RadioButtonUncheckedIcon titleAccess="not done" />}
                </ListItemIcon>
                <ListItemText primary={step.label} />
              </ListItemButton>
            </ListItem>
          );
        })}
        {withChangePassword && (
          <ListItem disablePadding>
            <ListItemButton component={RouterLink} to="/registration/change-password">
              <ListItemIcon sx={{ minWidth: 36 }}>
                <KeyIcon />
              </ListItemIcon>
              <ListItemText primary="Change password" />
            </ListItemButton>
          </ListItem>
        )}
      </List>
    </Paper>
  );
}

/** The steps along the bottom of a narrow screen, each named with whether it is done. */
function StepBottomNav({ progress, activePath }: StepNavProps) {
  return (
    <Paper component="nav" aria-label="Registration steps" elevation={3} sx={{ position: 'fixed', left: 0, right: 0, bottom: 0, zIndex: 'appBar', display: onPhonesOnly('block') }}>
      <BottomNavigation showLabels value={activePath}>
        {REGISTRATION_STEPS.map((step) => (
          <BottomNavigationAction
            key={step.path}
            value={step.path}
            label={step.short}
            icon={STEP_ICONS[step.path]}
            component={RouterLink}
            to={`/registration/${step.path}`}
            aria-label={`${step.label}: ${progress[step.flag] === 1 ? 'done' : 'not done'}`}
            aria-current={step.path === activePath ? 'page' : undefined}
            sx={{
              minWidth: 0,
              px: 0.25,
              // Six steps share a 360 px phone (60 px each): the current step's label keeps the
              // same size (MUI enlarges it, which cut off "Complete") and is told by weight and colour.
              '& .MuiBottomNavigationAction-label, & .MuiBottomNavigationAction-label.Mui-selected': { fontSize: '0.68rem', whiteSpace: 'nowrap' },
              '& .MuiBottomNavigationAction-label.Mui-selected': { fontWeight: 700 },
            }}
          />
        ))}
      </BottomNavigation>
    </Paper>
  );
}
