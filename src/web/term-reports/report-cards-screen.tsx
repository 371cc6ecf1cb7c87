import { useRef, useState } from 'react';
import FolderZipIcon from '@mui/icons-material/FolderZip';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { formClassName } from '../../shared/form-class.js';
import { classReportCardsUrl, formReportCardsUrl, termTitle, type PostedTermReport } from '../../shared/term-reports.schemas.js';
import { PageSpinner } from '../components/page-spinner.js';
import { errorMessage } from '../lib/api-client.js';
import { useFormClasses } from '../lib/form-classes.js';
import { useSession } from '../lib/session.js';
import { canTake, classChoicesFor } from '../lib/staff-access.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { buildReportCards, usePostedTerms, type CardBuildProgress } from './term-reports.api.js';

type Build = { label: string; progress: CardBuildProgress | null } | { label: string; saved: string } | { label: string; error: string };

const termKey = (term: Pick<PostedTermReport, 'year' | 'term'>) => `${term.year}-${term.term}`;

/**
 * Report Cards (report day, D59): a class's cards for a term as one PDF, and for those
 * who may export every student, a form's as a zip of class PDFs. The server builds while this
 * screen shows how far it has come ("16 of 32 cards"), then the file is saved. A form teacher sees
 * their own classes; posted or not, every term with results can be printed.
 */
export function ReportCardsScreen() {
  usePageTitle('Report Cards');
  const user = useSession().data?.user;
  const terms = usePostedTerms();
  const formClasses = useFormClasses();
  const [chosen, setChosen] = useState('');
  const [build, setBuild] = useState<Build | null>(null);
  const running = useRef<AbortController | null>(null);

  if (terms.isPending || formClasses.isPending) return <PageSpinner label="Loading report cards" />;
  const withResults = (terms.data ?? []).filter((term) => term.students > 0);
  const term = withResults.find((t) => termKey(t) === chosen) ?? withResults[0];
  const classes = classChoicesFor(user, formClasses.data ?? []);
  const forms = [...new Set(classes.map((c) => c.form_level))].sort((a, b) => a - b);
  const mayZip = canTake(user, 'students.export');
  const busy = build !== null && 'progress' in build;

  const start = async (label: string, url: string) => {
    const abort = new AbortController();
    running.current = abort;
    setBuild({ label, progress: null });
    try {
      const saved = await buildReportCards(url, (progress) => setBuild({ label, progress }), abort.signal);
      setBuild({ label, saved });
    } catch (error) {
      setBuild(abort.signal.aborted ? null : { label, error: errorMessage(error) });
    } finally {
      running.current = null;
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 3 }, minWidth: 0 }}>
      <Typography variant="h1">Report Cards</Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 2, maxWidth: '70ch' }}>
        Print a whole class&apos;s report cards at once: one PDF with a card per student, in class order. A term can be printed before it is posted.
      </Typography>
      {terms.isError || formClasses.isError ? (
        <Alert severity="error" role="alert">
          {errorMessage(terms.error ?? formClasses.error)}
        </Alert>
      ) : !term ? (
        <Alert severity="info">No term has results yet. Import the term&apos;s results first.</Alert>
      ) : (
        <>
          <TextField
            select
            label="Term"
            size="small"
            value={termKey(term)}
            onChange={(event) => setChosen(event.target.value)}
            disabled={busy}
            sx={{ minWidth: { xs: '100%', sm: 320 }, mb: 2 }}
          >
            {withResults.map((t) => (
              <MenuItem key={termKey(t)} value={termKey(t)}>
                {termTitle(t.year, Number(t.term))} · {t.posted === 1 ? 'posted' : 'not posted'}
              </MenuItem>
            ))}
          </TextField>
          {build && <BuildStatus build={build} onCancel={() => running.current?.abort()} />}
          {classes.length === 0 && <Alert severity="info">You have no class assigned.</Alert>}
          {forms.map((form) => (
            <Box key={form} component="section" aria-labelledby={`form-${form}-heading`} sx={{ mt: 2 }}>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
                <Typography id={`form-${form}-heading`} component="h2" variant="h3" sx={{ flexGrow: 1 }}>
                  Form {form}
                </Typography>
                {mayZip && (
                  <Button
                    variant="outlined"
                    size="small"
                    startIcon={<FolderZipIcon aria-hidden />}
                    disabled={busy}
                    onClick={() => void start(`Form ${form}`, formReportCardsUrl(form, term.year, term.term))}
                  >
                    Form {form} (zip)
                  </Button>
                )}
              </Box>
              <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: 'repeat(auto-fill, minmax(260px, 1fr))' } }}>
                {classes
                  .filter((c) => c.form_level === form)
                  .map((c) => (
                    <Box key={c.id} sx={{ display: 'flex', alignItems: 'center', gap: 1, border: 1, borderColor: 'divider', borderRadius: 1, px: 1.5, py: 1 }}>
                      <Typography sx={{ flexGrow: 1 }}>{formClassName(c.id, c.form_level)}</Typography>
                      <Button
                        size="small"
                        startIcon={<PictureAsPdfIcon aria-hidden />}
                        disabled={busy}
                        aria-label={`Class report cards (PDF) for ${c.id}`}
                        onClick={() => void start(c.id, classReportCardsUrl(c.id, term.year, term.term))}
                      >
                        Class report cards (PDF)
                      </Button>
                    </Box>
                  ))}
              </Box>
            </Box>
          ))}
        </>
      )}
    </Paper>
  );
}

/** Where the build is: the server's own count while it renders, then saving, then the file's name or the server's message. */
function BuildStatus({ build, onCancel }: { build: Build; onCancel: () => void }) {
  if ('error' in build) {
    return (
      <Alert severity="error" role="alert" sx={{ mb: 2 }}>
        {build.label}: {build.error}
      </Alert>
    );
  }
  if ('saved' in build) {
    return (
      <Alert severity="success" role="status" sx={{ mb: 2 }}>
        Saved {build.saved}
      </Alert>
    );
  }
  const { progress } = build;
  const text = !progress
    ? `${build.label}: starting…`
    : progress.sending
      ? `${build.label}: all ${progress.total} cards made, downloading…`
      : `${build.label}: ${progress.done} of ${progress.total} cards${progress.classId && progress.classId !== build.label ? ` (${progress.classId})` : ''}`;
  const percent = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
  return (
    <Box role="status" aria-live="polite" sx={{ mb: 2, p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography sx={{ flexGrow: 1 }} data-testid="card-build-progress">
          {text}
        </Typography>
        <Button size="small" onClick={onCancel}>
          Cancel
        </Button>
      </Box>
      <LinearProgress variant={progress ? 'determinate' : 'indeterminate'} value={percent} aria-label="Report cards made" />
    </Box>
  );
}
