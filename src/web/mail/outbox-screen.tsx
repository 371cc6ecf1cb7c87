import { useState, type FormEvent } from 'react';
import ReplayIcon from '@mui/icons-material/Replay';
import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { schoolTimeOf } from '../../shared/dates.js';
import { OUTBOX_STATE_LABELS, OUTBOX_STATES, SendTestMessageSchema, type OutboxMessage, type OutboxState } from '../../shared/outbox.schemas.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { HIDE_ON_PHONE_SX, PHONE_TABLE_SX } from '../components/table-priority.js';
import { errorMessage, isApiError } from '../lib/api-client.js';
import { fieldErrorsOf, fieldHelper, type FieldErrors } from '../lib/form-errors.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { useOutbox, useResendMessage, useSendTestMessage } from './outbox.api.js';

const PAGE_SIZE = 25;

const when = (iso: string | null) => (iso ? schoolTimeOf(iso) : '—');

/** The status: waiting (or waiting to try again), being sent, sent, or given up. */
function StatusChip({ message }: { message: OutboxMessage }) {
  if (message.state === 'sent') return <Chip size="small" color="success" label="Sent" />;
  if (message.state === 'failed') return <Chip size="small" color="error" label="Failed" />;
  if (message.state === 'sending') return <Chip size="small" color="info" label="Sending" />;
  return message.tries > 0 ? <Chip size="small" color="warning" label="Waiting to retry" /> : <Chip size="small" label="Waiting" />;
}

/** The status and, for a message that failed a try, the mail server's reason under it. */
function StatusCell({ message }: { message: OutboxMessage }) {
  return (
    <>
      <StatusChip message={message} />
      {message.last_error && message.state !== 'sent' && (
        <Typography variant="body2" color="error" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
          {message.last_error}
        </Typography>
      )}
    </>
  );
}

/**
 * The Outbox: every e-mail the portal sends, newest first, with how it went. A message
 * that cannot be delivered is tried again with a growing wait, then shows as failed with the mail
 * server's reason; Resend gives it all its tries again. "Send a test message" is how a school
 * checks its SMTP settings. Without a mail server the messages wait here.
 */
export function OutboxScreen() {
  usePageTitle('Outbox');
  const [state, setState] = useState<OutboxState | null>(null);
  const [page, setPage] = useState(0);
  const [testing, setTesting] = useState(false);
  const outbox = useOutbox({ state, page: page + 1, pageSize: PAGE_SIZE });
  const data = outbox.data;

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h1" sx={{ fontSize: '1.5rem' }}>
          Outbox
        </Typography>
        <Button variant="contained" startIcon={<SendIcon aria-hidden />} onClick={() => setTesting(true)}>
          Send a test message
        </Button>
      </Stack>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        Every e-mail the portal sends, newest first. A message the mail server does not take is tried again, waiting longer each
        time{data ? `, up to ${data.max_tries} tries` : ''}; then it shows as Failed with the server&apos;s reason, and Resend tries it again.
      </Typography>
      {data && !data.smtp_configured && (
        <Alert severity="info" sx={{ mt: 2 }}>
          No mail server is set up (SMTP_URL), so messages wait here and none is sent. To send them, start the portal with SMTP_URL
          and MAIL_FROM (see the README); waiting messages then go out.
        </Alert>
      )}
      {outbox.isError && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {errorMessage(outbox.error)}
        </Alert>
      )}

      <StateFilter
        state={state}
        onChange={(next) => {
          setState(next);
          setPage(0);
        }}
      />
      <OutboxTable messages={data?.messages} state={state} isFetching={outbox.isFetching} />
      {data && data.total > PAGE_SIZE && (
        <TablePagination
          component="div"
          count={data.total}
          page={page}
          rowsPerPage={PAGE_SIZE}
          rowsPerPageOptions={[PAGE_SIZE]}
          onPageChange={(_, next) => setPage(next)}
        />
      )}

      <TestMessageDialog open={testing} smtpConfigured={data?.smtp_configured ?? true} onClose={() => setTesting(false)} />
    </Paper>
  );
}

/** Which messages to show: all of them (null) or those in one state. */
function StateFilter({ state, onChange }: { state: OutboxState | null; onChange: (state: OutboxState | null) => void }) {
  return (
    <TextField
      select
      name="state"
      label="Show"
      value={state ?? 'all'}
      onChange={(event) => onChange(event.target.value === 'all' ? null : (event.target.value as OutboxState))}
      size="small"
      sx={{ mt: 2, minWidth: 180 }}
    >
      <MenuItem value="all">All messages</MenuItem>
      {OUTBOX_STATES.map((value) => (
        <MenuItem key={value} value={value}>
          {OUTBOX_STATE_LABELS[value]}
        </MenuItem>
      ))}
    </TextField>
  );
}

interface OutboxTableProps {
  /** The page's messages; undefined until the first answer. */
  messages: OutboxMessage[] | undefined;
  /** The state shown, which words the empty list. */
  state: OutboxState | null;
  isFetching: boolean;
}

/** One page of messages, each failed or waiting one with Resend. */
function OutboxTable({ messages, state, isFetching }: OutboxTableProps) {
  const resend = useResendMessage();
  const showSnackbar = useSnackbar();

  const runResend = (message: OutboxMessage) =>
    resend.mutate(message.id, {
      onSuccess: () => showSnackbar(`The message to ${message.to} will be sent again.`),
      onError: (error) => showSnackbar(errorMessage(error), 'error'),
    });

  return (
    <TableContainer sx={{ mt: 2 }}>
      {isFetching && <LinearProgress aria-label="Loading messages" sx={{ position: 'absolute', left: 0, right: 0 }} />}
      {/* On a phone the subject, times and status go under the address, so it gets the width and Resend stays on the screen (D46). */}
      <Table size="small" aria-label="Outbox messages" sx={PHONE_TABLE_SX}>
        <TableHead>
          <TableRow>
            <TableCell>To</TableCell>
            <TableCell sx={HIDE_ON_PHONE_SX}>Subject</TableCell>
            <TableCell sx={HIDE_ON_PHONE_SX}>Status</TableCell>
            <TableCell sx={HIDE_ON_PHONE_SX} align="right">
              Tries
            </TableCell>
            <TableCell sx={HIDE_ON_PHONE_SX}>Created</TableCell>
            <TableCell sx={HIDE_ON_PHONE_SX}>Sent</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {(messages ?? []).map((message) => (
            <MessageRow key={message.id} message={message} resendDisabled={resend.isPending} onResend={() => runResend(message)} />
          ))}
          {messages?.length === 0 && (
            <TableRow>
              <TableCell colSpan={7} align="center" sx={{ color: 'text.secondary', py: 3 }}>
                {state ? `No ${OUTBOX_STATE_LABELS[state].toLowerCase()} messages.` : 'No messages yet.'}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

interface MessageRowProps {
  message: OutboxMessage;
  resendDisabled: boolean;
  onResend: () => void;
}

function MessageRow({ message, resendDisabled, onResend }: MessageRowProps) {
  return (
    <TableRow>
      <TableCell component="th" scope="row" sx={{ overflowWrap: 'anywhere' }}>
        {message.to}
        <Box sx={{ display: { xs: 'block', sm: 'none' } }}>
          <Typography variant="body2" color="text.secondary">
            {message.subject}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
            {message.sent_at ? `Sent ${when(message.sent_at)}` : `Created ${when(message.created_at)}`}
            {message.tries > 0 ? ` · ${message.tries} ${message.tries === 1 ? 'try' : 'tries'}` : ''}
          </Typography>
          <StatusCell message={message} />
        </Box>
      </TableCell>
      <TableCell sx={{ ...HIDE_ON_PHONE_SX, overflowWrap: 'anywhere' }}>{message.subject}</TableCell>
      <TableCell sx={{ ...HIDE_ON_PHONE_SX, maxWidth: 320 }}>
        <StatusCell message={message} />
      </TableCell>
      <TableCell sx={HIDE_ON_PHONE_SX} align="right">
        {message.tries}
      </TableCell>
      <TableCell sx={{ ...HIDE_ON_PHONE_SX, whiteSpace: 'nowrap' }}>{when(message.created_at)}</TableCell>
      <TableCell sx={{ ...HIDE_ON_PHONE_SX, whiteSpace: 'nowrap' }}>{when(message.sent_at)}</TableCell>
      <TableCell align="right">
        {(message.state === 'failed' || message.state === 'queued') && (
          <Button
            size="small"
            startIcon={<ReplayIcon aria-hidden />}
            aria-label={`Resend the message to ${message.to}`}
            disabled={resendDisabled}
            onClick={onResend}
          >
            Resend
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}

interface TestMessageDialogProps {
  open: boolean;
  smtpConfigured: boolean;
  onClose: () => void;
}

function TestMessageDialog({ open, smtpConfigured, onClose }: TestMessageDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="sm" aria-labelledby="test-message-title">
      {open && <TestMessageForm smtpConfigured={smtpConfigured} onClose={onClose} />}
    </Dialog>
  );
}

/** The address to send to, checked with the server's own schema before sending. */
function TestMessageForm({ smtpConfigured, onClose }: Omit<TestMessageDialogProps, 'open'>) {
  const send = useSendTestMessage();
  const showSnackbar = useSnackbar();
  const [to, setTo] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const parsed = SendTestMessageSchema.safeParse({ to });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    send.mutate(parsed.data, {
      onSuccess: (message) => {
        showSnackbar(`Test message to ${message.to} queued.`);
        onClose();
      },
      onError: (cause) => {
        if (isApiError(cause) && cause.errors) setErrors(Object.fromEntries(Object.entries(cause.errors).map(([field, messages]) => [field, messages[0]])));
        setFailure(errorMessage(cause));
      },
    });
  };

  return (
    <Box component="form" method="post" noValidate onSubmit={submit} aria-labelledby="test-message-title">
      <DialogTitle id="test-message-title">Send a test message</DialogTitle>
      <DialogContent>
        <DialogContentText>
          The portal sends a short message to this address through the school&apos;s mail server. It shows in the Outbox as
          Waiting, then Sent, or Failed with the mail server&apos;s reason.
          {!smtpConfigured && ' No mail server is set up yet, so it will wait there.'}
        </DialogContentText>
        {failure && (
          <Alert severity="error" role="alert" sx={{ mt: 1 }}>
            {failure}
          </Alert>
        )}
        <TextField
          name="to"
          label="E-mail address"
          type="email"
          value={to}
          onChange={(event) => setTo(event.target.value)}
          required
          fullWidth
          autoFocus
          margin="dense"
          {...fieldHelper(errors, 'to')}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={send.isPending}>
          Send
        </Button>
      </DialogActions>
    </Box>
  );
}
