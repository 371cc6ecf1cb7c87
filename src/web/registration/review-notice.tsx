import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { reviewStepLabel } from '../../shared/review.schemas.js';
import { useRegistrationReview } from './registration.api.js';

/**
 * Where the record stands with the school office: returned with the office's note and
 * the steps to fix, submitted and waiting, or verified. Shown above every registration step. A
 * verified record the family can no longer change already says so in the read-only notice
 * (`closedToFamily`), so it is not said twice.
 */
export function ReviewNotice({ studentId, closedToFamily }: { studentId: string; closedToFamily: boolean }) {
  const review = useRegistrationReview(studentId);
  const data = review.data;
  if (!data) return null;
  if (data.state === 'returned') {
    return (
      <Alert severity="warning" sx={{ mb: 2 }} data-testid="registration-returned">
        <AlertTitle>The school office returned this registration</AlertTitle>
        {data.note}
        {data.steps.length > 0 && ` Please fix: ${data.steps.map(reviewStepLabel).join(', ')}.`}
      </Alert>
    );
  }
  if (data.state === 'verified' && !closedToFamily) {
    return (
      <Alert severity="success" sx={{ mb: 2 }} data-testid="registration-verified">
        The school office has verified this registration.
      </Alert>
    );
  }
  if (data.state === 'submitted') {
    return (
      <Alert severity="info" sx={{ mb: 2 }} data-testid="registration-submitted">
        Submitted: the school office will check this registration.
      </Alert>
    );
  }
  return null;
}
