import PrintIcon from '@mui/icons-material/Print';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { familyReachText } from '../../shared/review.schemas.js';
import { errorMessage } from '../lib/api-client.js';
import { familyNoticeUrl, useOfficeStudentReview } from './review.api.js';

/**
 * What a decision that tells the family says about reaching them (docs/decisions.md D81): the
 * family account's or the verified parent's e-mail, or that nobody can be reached — then the
 * printable notice (a PDF letter with what to fix), offered in every case.
 */
export function FamilyReach({ studentId, showNotice = true }: { studentId: string; showNotice?: boolean }) {
  const office = useOfficeStudentReview(studentId);
  if (office.isPending) return null;
  if (office.isError) return <Alert severity="error">{errorMessage(office.error)}</Alert>;
  const nobody = office.data.reach.recipients.length === 0;
  return (
    <Alert
      severity={nobody ? 'warning' : 'info'}
      data-testid="family-reach"
      action={
        showNotice ? (
          <Button color="inherit" size="small" href={familyNoticeUrl(studentId)} target="_blank" rel="noopener" startIcon={<PrintIcon aria-hidden />}>
            Print notice
          </Button>
        ) : undefined
      }
      sx={{ flexWrap: { xs: 'wrap', sm: 'nowrap' }, '& .MuiAlert-message': { overflowWrap: 'anywhere' } }}
    >
      {familyReachText(office.data.reach)}
    </Alert>
  );
}
