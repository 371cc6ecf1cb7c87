import PrintIcon from '@mui/icons-material/Print';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useRef } from 'react';
import { registrationFormUrl } from '../../shared/documents.schemas.js';
import { TERMS_PARAGRAPHS, TERMS_TITLE } from '../../shared/terms.js';
import { DownloadPdfButton, PdfView } from '../components/pdf-view.js';
import { useRegistration } from '../lib/registration-context.js';
import { useInBrowser } from '../lib/use-in-browser.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { Declaration } from './declaration.js';
import { RegistrationFormView } from './registration-form-view.js';
import { REGISTRATION_STEPS } from './registration-steps.js';

const FRAME_SX = { height: '85vh', border: 1, borderColor: 'divider', borderRadius: 1 } as const;

/**
 * The Complete step: the school's terms, the parent's declaration (a family account
 * agrees; the server records who and when, D75), and the registration form: on Legal paper in a
 * frame with Print and Download PDF, and on a phone as a page of the same content (D75).
 */
export function CompleteStepPage() {
  usePageTitle('Complete');
  const { studentId, record, editable, role } = useRegistration();
  const theme = useTheme();
  // The server's page cannot know the screen: false there and while the page hydrates.
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const running = useInBrowser();
  const frame = useRef<HTMLIFrameElement>(null);
  const agreed = Number(record.agree_terms_conditions) === 1;
  const pending = REGISTRATION_STEPS.filter((step) => step.path !== 'complete' && record.progress[step.flag] !== 1);
  // The frame reloads after any change to the record (the agreement date, for one).
  const formUrl = `${registrationFormUrl(studentId)}?v=${encodeURIComponent(record.updated_at)}`;

  const print = () => {
    const view = frame.current?.contentWindow;
    try {
      if (!view) throw new Error('no frame');
      view.focus();
      view.print();
    } catch {
      // A browser that cannot print a framed PDF opens it in a tab of its own, with its own Print.
      window.open(formUrl, '_blank', 'noopener');
    }
  };

  return (
    <Stack spacing={3}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-labelledby="terms-title">
        <Typography variant="h1" id="terms-title">
          {TERMS_TITLE}
        </Typography>
        <Box component="ol" sx={{ pl: 3, mt: 2, mb: 2, '& li': { mb: 1 } }}>
          {TERMS_PARAGRAPHS.map((text) => (
            <Typography component="li" key={text.slice(0, 40)} variant="body2">
              {text}
            </Typography>
          ))}
        </Box>
        <Declaration studentId={studentId} record={record} role={role} editable={editable} />
        {agreed && pending.length === 0 && (
          <Alert severity="success" sx={{ mt: 2 }}>
            Registration complete. Print the form, sign it and bring it to the school office.
          </Alert>
        )}
        {pending.length > 0 && (
          <Alert severity="info" sx={{ mt: 2 }}>
            Still to finish: {pending.map((step) => step.label).join(', ')}.
          </Alert>
        )}
      </Paper>

      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-labelledby="form-title">
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' }, mb: 2 }}>
          <Typography variant="h2" id="form-title" sx={{ flexGrow: 1 }}>
            Registration Form
          </Typography>
          <Button variant="contained" startIcon={<PrintIcon />} onClick={print}>
            Print
          </Button>
          <DownloadPdfButton url={formUrl} />
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Print on Legal paper (8½ × 14 in). On a phone, Download PDF saves the form to print it elsewhere.
        </Typography>
        {/* A phone reads the form as a page of its content; a wider screen gets the PDF in a frame.
            CSS chooses on the page the server rendered; the frame (and the PDF it loads) comes only
            once the page runs on a screen that is not a phone, in the room kept for it. */}
        {(!running || phone) && (
          <Box sx={{ display: { xs: 'block', sm: 'none' } }}>
            <RegistrationFormView studentId={studentId} version={record.updated_at} />
          </Box>
        )}
        <Box sx={{ display: { xs: 'none', sm: 'block' } }}>
          {running && !phone ? (
            <PdfView url={formUrl} title="Registration form" frameRef={frame} frameSx={FRAME_SX} />
          ) : (
            <Box sx={FRAME_SX} />
          )}
        </Box>
      </Paper>
    </Stack>
  );
}
