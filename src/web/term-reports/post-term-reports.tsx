import { useState } from 'react';
import EditIcon from '@mui/icons-material/Edit';
import ScheduleIcon from '@mui/icons-material/Schedule';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { instantOfSchoolTime, schoolTimeOf } from '../../shared/dates.js';
import { academicYearLabel } from '../../shared/school.constants.js';
import { termTitle, type PostedTermReport } from '../../shared/term-reports.schemas.js';
import { PageSpinner } from '../components/page-spinner.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { HIDE_ON_PHONE_SX, PHONE_TABLE_SX } from '../components/table-priority.js';
import { errorMessage } from '../lib/api-client.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { usePostTermReports, usePostedTerms, useScheduleTermReports } from './term-reports.api.js';

/**
 * Post Term Reports (docs/requirements.md R9): every term with its state, and per term a dialog
 * 'Post {year} Term {term} reports?' with Cancel, No (remove) and Yes (post). While the call runs
 * the dialog says so with a progress bar; afterwards a snackbar confirms. In addition, a term
 * can be scheduled to post itself at a chosen time.
 */
export function PostTermReports() {
  usePageTitle('Post Term Reports');
  const terms = usePostedTerms();
  const [editing, setEditing] = useState<PostedTermReport | null>(null);

  if (terms.isPending) return <PageSpinner label="Loading term reports" />;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h1">Post Term Reports</Typography>
      <Typography color="text.secondary" sx={{ mt: 1, maxWidth: '70ch' }}>
        Students see a term’s report cards once it is posted. Removing the reports hides them again.
      </Typography>
      {terms.isError ? (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {errorMessage(terms.error)}
        </Alert>
      ) : (
        <TableContainer sx={{ mt: 2, border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <Table size="small" aria-label="Term reports" sx={PHONE_TABLE_SX}>
            <TableHead>
              <TableRow>
                <TableCell>Academic Year</TableCell>
                <TableCell>Term</TableCell>
                <TableCell sx={HIDE_ON_PHONE_SX}>Posted</TableCell>
                <TableCell>Status</TableCell>
                <TableCell align="right">Edit</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {terms.data.map((row) => {
                const postedChip = <Chip size="small" label={row.posted === 1 ? 'posted' : 'not posted'} color={row.posted === 1 ? 'success' : 'default'} />;
                return (
                  <TableRow key={`${row.year}-${row.term}`}>
                    <TableCell>{academicYearLabel(row.year)}</TableCell>
                    <TableCell>{row.term}</TableCell>
                    <TableCell sx={HIDE_ON_PHONE_SX}>{postedChip}</TableCell>
                    <TableCell>
                      {/* On a phone the Posted column is left out (D46): its chip heads the status. */}
                      <Box component="span" sx={{ display: { xs: 'block', sm: 'none' }, mb: 0.5 }}>
                        {postedChip}
                      </Box>
                      {row.posted === 1 ? row.date_posted : row.scheduled_at ? `Scheduled for ${schoolTimeOf(row.scheduled_at)}` : '—'}
                      {row.students === 0 && (
                        <Typography component="span" variant="body2" color="text.secondary" display="block">
                          No results yet
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell align="right">
                      <Button
                        size="small"
                        startIcon={<EditIcon aria-hidden />}
                        onClick={() => setEditing(row)}
                        aria-label={`Edit ${row.year} Term ${row.term}`}
                      >
                        Edit
                      </Button>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {editing && <PostDialog term={editing} onClose={() => setEditing(null)} />}
    </Paper>
  );
}

/** The Edit dialog of one term (R9 wording). */
function PostDialog({ term, onClose }: { term: PostedTermReport; onClose: () => void }) {
  const post = usePostTermReports();
  const schedule = useScheduleTermReports();
  const showSnackbar = useSnackbar();
  const [action, setAction] = useState<'post' | 'remove' | null>(null);
  const [when, setWhen] = useState('');
  const [whenError, setWhenError] = useState<string | null>(null);
  const working = post.isPending;
  const label = `${term.year} Term ${term.term}`;

  const run = (posted: 0 | 1) => {
    setAction(posted ? 'post' : 'remove');
    post.mutate(
      { year: term.year, term: term.term, posted },
      {
        onSuccess: () => {
          showSnackbar(`${label} reports ${posted ? 'posted' : 'removed'}`);
          onClose();
        },
      },
    );
  };

  const saveSchedule = (clear: boolean) => {
    if (!clear) {
      // The time typed is the school's, whatever the browser's own zone (D84).
      const at = instantOfSchoolTime(when);
      if (!at) return setWhenError('Choose a date and time.');
      if (at.getTime() <= Date.now()) return setWhenError('Choose a time in the future.');
    }
    setWhenError(null);
    schedule.mutate(
      { year: term.year, term: term.term, scheduled_at: clear ? null : instantOfSchoolTime(when)!.toISOString() },
      {
        onSuccess: (answer) => {
          showSnackbar(answer.scheduled_at ? `${label} reports will be posted ${schoolTimeOf(answer.scheduled_at)}` : `${label} schedule cancelled`);
          onClose();
        },
      },
    );
  };

  return (
    <Dialog open onClose={working ? undefined : onClose} aria-labelledby="post-dialog-title" fullWidth maxWidth="xs">
      <DialogTitle id="post-dialog-title">
        Post {term.year} Term {term.term} reports?
      </DialogTitle>
      <DialogContent>
        {working ? (
          <Box role="status" sx={{ py: 2 }}>
            <Typography sx={{ mb: 2 }}>{action === 'remove' ? 'Removing reports please stand by' : 'Posting reports please stand by'}</Typography>
            <LinearProgress aria-label={action === 'remove' ? 'Removing reports' : 'Posting reports'} />
          </Box>
        ) : (
          <>
            <Typography>
              {termTitle(term.year, Number(term.term))}: {term.students} student{term.students === 1 ? '' : 's'} with results.{' '}
              {term.posted === 1 ? `Posted ${term.date_posted ?? ''}.` : 'Not posted.'}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              Yes posts the reports to students; No removes them.
            </Typography>
            {(post.isError || schedule.isError) && (
              <Alert severity="error" role="alert" sx={{ mt: 2 }}>
                {errorMessage(post.error ?? schedule.error)}
              </Alert>
            )}
            {term.posted !== 1 && (
              <>
                <Divider sx={{ my: 2 }} />
                {term.scheduled_at ? (
                  <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                    <Typography variant="body2">Scheduled for {schoolTimeOf(term.scheduled_at)}</Typography>
                    <Button size="small" onClick={() => saveSchedule(true)} disabled={schedule.isPending}>
                      Cancel schedule
                    </Button>
                  </Box>
                ) : (
                  <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
                    <TextField
                      type="datetime-local"
                      name="scheduled_at"
                      label="Post automatically at"
                      size="small"
                      value={when}
                      onChange={(event) => setWhen(event.target.value)}
                      error={whenError !== null}
                      helperText={whenError ?? 'Optional: the reports post themselves then (Trinidad time)'}
                      slotProps={{ inputLabel: { shrink: true }, formHelperText: whenError !== null ? { role: 'alert' } : {} }}
                    />
                    <Button startIcon={<ScheduleIcon aria-hidden />} onClick={() => saveSchedule(false)} disabled={schedule.isPending} sx={{ mt: 0.5 }}>
                      Schedule
                    </Button>
                  </Box>
                )}
              </>
            )}
          </>
        )}
      </DialogContent>
      {!working && (
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button onClick={() => run(0)} color="error">
            No
          </Button>
          <Button onClick={() => run(1)} variant="contained" disabled={term.students === 0}>
            Yes
          </Button>
        </DialogActions>
      )}
    </Dialog>
  );
}
