import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { OPTIONAL_NOTICE_KINDS, OPTIONAL_NOTICE_LABELS, type Notice, type OptionalNoticeKind } from '../../shared/notices.schemas.js';
import { schoolTimeOf } from '../../shared/dates.js';
import { PageSpinner } from '../components/page-spinner.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage } from '../lib/api-client.js';
import { useSession } from '../lib/session.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { useMarkNoticeRead, useNoticePreferences, useNotices, useUpdateNoticePreferences } from './notices.api.js';

const TITLE = 'Notices';


/** A link in a notice: the portal's own addresses open here; the mail's words are kept. */
function hrefOf(href: string): string {
  try {
    const url = new URL(href);
    return url.origin === window.location.origin ? `${url.pathname}${url.search}` : href;
  } catch {
    return href;
  }
}

/**
 * /notices (D57): every message the school sent the family (or, for a student, about
 * them alone), newest first, the unread ones marked; a family account also chooses here which
 * optional messages it receives.
 */
export function NoticesPage() {
  usePageTitle(TITLE);
  const role = useSession().data?.user?.role;
  const notices = useNotices();
  return (
    <Box sx={{ display: 'grid', gap: 3, minWidth: 0 }}>
      <Typography variant="h1">{TITLE}</Typography>
      {notices.isPending ? (
        <PageSpinner label="Loading your notices" />
      ) : notices.isError ? (
        <Alert severity="error" role="alert">
          {errorMessage(notices.error)}
        </Alert>
      ) : notices.data.notices.length === 0 ? (
        <Alert severity="info">No messages yet. Anything the school sends you by e-mail is also shown here.</Alert>
      ) : (
        <Box component="ul" aria-label="Messages from the school" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2 }}>
          {notices.data.notices.map((notice) => (
            <NoticeItem key={notice.id} notice={notice} canMarkRead={role === 'guardian'} />
          ))}
        </Box>
      )}
      {role === 'guardian' && <Preferences />}
    </Box>
  );
}

function NoticeItem({ notice, canMarkRead }: { notice: Notice; canMarkRead: boolean }) {
  const markRead = useMarkNoticeRead();
  const unread = canMarkRead && !notice.read;
  return (
    <Paper component="li" variant="outlined" aria-label={notice.subject} sx={{ p: { xs: 2, sm: 3 }, borderLeftWidth: unread ? 4 : 1, borderLeftColor: unread ? 'primary.main' : undefined }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        {unread && <Chip label="New" color="primary" size="small" />}
        <Typography variant="h2" sx={{ fontSize: '1.1rem', overflowWrap: 'anywhere' }}>
          {notice.subject}
        </Typography>
      </Box>
      <Typography color="text.secondary" variant="body2" sx={{ mb: 1 }}>
        {schoolTimeOf(notice.created_at)}
      </Typography>
      {notice.blocks.map((block, index) =>
        'text' in block ? (
          <Typography key={index} sx={{ mb: 1, overflowWrap: 'anywhere' }}>
            {block.text}
          </Typography>
        ) : (
          <Typography key={index} sx={{ mb: 1 }}>
            <Link href={hrefOf(block.link.href)}>{block.link.label}</Link>
          </Typography>
        ),
      )}
      {unread && (
        <Button size="small" onClick={() => markRead.mutate(notice.id)} disabled={markRead.isPending}>
          Mark as read
        </Button>
      )}
    </Paper>
  );
}

function Preferences() {
  const preferences = useNoticePreferences(true);
  const update = useUpdateNoticePreferences();
  const showSnackbar = useSnackbar();
  const toggle = (kind: OptionalNoticeKind, on: boolean) => {
    if (!preferences.data) return;
    update.mutate(
      { ...preferences.data, [kind]: on },
      {
        onSuccess: () => showSnackbar(`${OPTIONAL_NOTICE_LABELS[kind]}: ${on ? 'turned on' : 'turned off'}`),
        onError: (cause) => showSnackbar(errorMessage(cause), 'error'),
      },
    );
  };
  return (
    <Paper variant="outlined" component="section" aria-labelledby="notice-preferences-heading" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id="notice-preferences-heading" variant="h2" sx={{ fontSize: '1.15rem' }}>
        E-mail settings
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        Messages about documents, the registration and report cards always come. These you may turn off:
      </Typography>
      {preferences.isError && (
        <Alert severity="error" role="alert">
          {errorMessage(preferences.error)}
        </Alert>
      )}
      <FormGroup>
        {OPTIONAL_NOTICE_KINDS.map((kind) => (
          <FormControlLabel
            key={kind}
            control={<Switch checked={preferences.data?.[kind] ?? true} disabled={!preferences.data || update.isPending} onChange={(event) => toggle(kind, event.target.checked)} />}
            label={OPTIONAL_NOTICE_LABELS[kind]}
          />
        ))}
      </FormGroup>
    </Paper>
  );
}
