import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { DOCUMENT_SLOTS, isSlotRequired } from '../../shared/documents.schemas.js';
import { recordValues } from '../../shared/registration.schemas.js';
import { errorMessage } from '../lib/api-client.js';
import { useRegistration } from '../lib/registration-context.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { DocumentSlotCard } from './document-slot-card.js';
import { useDocumentUploadsInProgress, useFiles } from './documents.api.js';

/**
 * The Documents step (docs/requirements.md R7): one slot per document type. Passport and student permit are
 * required for non-nationals (docs/decisions.md); the Documents flag follows the server's answer.
 * `data-uploading` says whether a file is on its way (D74), for a warning before leaving the page.
 */
export function DocumentsStepPage() {
  usePageTitle('Documents');
  const { studentId, record, editable, refreshRecord } = useRegistration();
  const files = useFiles(studentId);
  const uploading = useDocumentUploadsInProgress();
  const values = recordValues(record);
  // A document the office returned is needed again, as the server's Documents flag counts it.
  const missing = DOCUMENT_SLOTS.filter(
    (slot) => isSlotRequired(slot, values) && !files.data?.some((file) => file.type === slot.type && file.review_state !== 'returned'),
  );

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-labelledby="documents-title" aria-busy={uploading} data-uploading={uploading}>
      <Typography variant="h1" id="documents-title">
        Documents
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5 }} data-testid="documents-missing">
        {files.data === undefined
          ? 'Loading the uploaded documents…'
          : missing.length === 0
            ? 'Every required document is uploaded.'
            : `Still needed: ${missing.map((slot) => slot.label).join(', ')}.`}{' '}
        Each document can be a photo (JPEG or PNG) or a scan (PDF); the picture is a photo. On a phone, take the
        photo with the camera: it is made smaller before it is sent, and goes up as soon as it is chosen.
      </Typography>
      {files.isError && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {errorMessage(files.error)}
        </Alert>
      )}
      {files.data && (
        <Box sx={{ display: 'grid', gap: 2, mt: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' } }}>
          {DOCUMENT_SLOTS.map((slot) => (
            <DocumentSlotCard
              key={slot.type}
              slot={slot}
              required={isSlotRequired(slot, values)}
              file={files.data.find((file) => file.type === slot.type)}
              studentId={studentId}
              editable={editable}
              onStored={refreshRecord}
            />
          ))}
        </Box>
      )}
    </Paper>
  );
}
