import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { FormBlock, RegistrationFormContent } from '../../shared/registration-form.schemas.js';
import { errorMessage } from '../lib/api-client.js';
import { useRegistrationFormContent } from './registration-form.api.js';

/** Label above value, one row a line: nothing wider than the screen, long values wrap anywhere. */
function Rows({ block }: { block: FormBlock }) {
  return (
    <Box component="dl" sx={{ m: 0 }}>
      {block.rows.map((row) => (
        <Box key={row.label} sx={{ py: 0.75, borderBottom: 1, borderColor: 'divider' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {row.label}
          </Typography>
          <Typography component="dd" variant="body1" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {row.value ?? '—'}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/**
 * The registration form as a page at any width (D75): the same content the PDF prints (the
 * server's one definition of it), in text of the page's own size, so a phone reads it without
 * zooming into a Legal page. The PDF stays for printing and downloading.
 */
export function RegistrationFormContentView({ content }: { content: RegistrationFormContent }) {
  const heading = (text: string) => (
    <Typography component="h3" variant="h6" sx={{ mt: 3, mb: 1, px: 1, py: 0.5, bgcolor: 'action.hover', borderRadius: 1, overflowWrap: 'anywhere' }}>
      {text}
    </Typography>
  );
  return (
    <Box component="article" aria-label={`${content.title}, ${content.studentName}`} sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
      <Typography variant="body2" color="text.secondary">
        {content.schoolName} · {content.title}
      </Typography>
      <Typography component="p" variant="h6">
        {content.studentName} · Student ID {content.studentId}
      </Typography>
      {content.sections.map((section) => (
        <Box component="section" key={section.key} aria-label={section.title}>
          {heading(section.title)}
          {section.blocks.map((block, index) => (
            <Box key={`${block.title ?? ''}-${index}`} sx={{ mb: 1 }}>
              {block.title && (
                <Typography component="h4" variant="subtitle2" color="primary" sx={{ mt: 1 }}>
                  {block.title}
                </Typography>
              )}
              <Rows block={block} />
            </Box>
          ))}
        </Box>
      ))}
      <Box component="section" aria-label={content.documentsTitle}>
        {heading(content.documentsTitle)}
        <Rows block={{ title: null, place: 'wide', rows: content.documents.map((document) => ({ label: document.label, value: document.note })) }} />
      </Box>
      <Box component="section" aria-label={content.terms.title}>
        {heading(content.terms.title)}
        <Box component="ol" sx={{ pl: 3, my: 1 }}>
          {content.terms.paragraphs.map((text) => (
            <Typography component="li" variant="body2" key={text.slice(0, 40)} sx={{ mb: 0.5 }}>
              {text}
            </Typography>
          ))}
        </Box>
        <Typography variant="body2">{content.terms.declaration}</Typography>
        <Typography variant="body1" sx={{ fontWeight: 600, mt: 1 }}>
          {content.terms.agreement}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Signed on the printed form: {content.terms.signatures.join(', ')}.
        </Typography>
      </Box>
    </Box>
  );
}

/** A student's registration form, read from the server as data. */
export function RegistrationFormView({ studentId, version }: { studentId: string; version: string }) {
  const content = useRegistrationFormContent(studentId, version);
  if (content.isError) return <Alert severity="error">{errorMessage(content.error)}</Alert>;
  if (!content.data) return <CircularProgress aria-label="Loading the registration form" />;
  return <RegistrationFormContentView content={content.data} />;
}
