import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { DocumentType } from '../../shared/documents.slots.js';
import {
  DOCUMENT_RETURN_REASONS,
  DOCUMENT_REVIEW_STATE_LABELS,
  REVIEW_MESSAGES,
  REVIEW_NOTE_MAX,
  type DocumentReturnReason,
  type OfficeDocument,
} from '../../shared/review.schemas.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage, isApiError } from '../lib/api-client.js';
import { FamilyReach } from './family-reach.js';
import { useOfficeStudentReview, useReviewDocument } from './review.api.js';

/** What a document's decision says: the state, who took it and when (school time), and the reason. */
export function decisionLine(document: OfficeDocument): string {
  const state = DOCUMENT_REVIEW_STATE_LABELS[document.review_state];
  const who = document.reviewed_at ? ` by ${document.reviewed_by ?? 'a former staff account'} on ${document.reviewed_at}` : '';
  return `${state}${who}${document.review_reason ? ` — ${document.review_reason}` : ''}`;
}

/**
 * One document's decision in the student's Documents dialog (the office's view, docs/decisions.md
 * D81): who decided and when, and "Change decision" (or "Decide" while nobody has), which asks for
 * the new state and, when an earlier decision changes, the reason for the change. A return says
 * whom the family's message reaches and then offers the printable notice.
 */
export function DocumentDecision({ studentId, fileType }: { studentId: string; fileType: DocumentType }) {
  const office = useOfficeStudentReview(studentId);
  const [open, setOpen] = useState(false);
  const document = office.data?.documents.find((entry) => entry.file_type === fileType);
  const paper = office.data?.paper.find((entry) => entry.file_type === fileType);
  const paperLine = paper && (
    <Typography variant="body2" data-testid={`paper-${fileType}`}>
      Received on paper by {paper.received_by ?? 'a former staff account'} on {paper.received_at}
    </Typography>
  );
  if (!document) return paperLine ?? null;
  const isChange = document.review_state !== 'submitted';
  return (
    <Box sx={{ mt: 0.5 }} data-testid={`decision-${fileType}`}>
      {paperLine}
      <Typography variant="body2">{decisionLine(document)}</Typography>
      {open ? (
        <ChangeDecisionForm key={document.public_id} studentId={studentId} document={document} isChange={isChange} onDone={() => setOpen(false)} />
      ) : (
        <Button size="small" onClick={() => setOpen(true)} sx={{ mt: 0.5 }} aria-label={`${isChange ? 'Change decision' : 'Decide'}: ${document.file_name}`}>
          {isChange ? 'Change decision' : 'Decide'}
        </Button>
      )}
    </Box>
  );
}

type Target = 'accept' | 'return';

function ChangeDecisionForm({ studentId, document, isChange, onDone }: { studentId: string; document: OfficeDocument; isChange: boolean; onDone: () => void }) {
  const show = useSnackbar();
  const review = useReviewDocument();
  // Only a decision that changes something is offered (the server refuses accepted → accepted).
  const targets: Target[] = (['accept', 'return'] as const).filter((target) => (target === 'accept' ? 'accepted' : 'returned') !== document.review_state);
  const [target, setTarget] = useState<Target>(targets[0]!);
  const [reason, setReason] = useState<DocumentReturnReason | ''>('');
  const [details, setDetails] = useState('');
  const [changeReason, setChangeReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [returned, setReturned] = useState(false);

  const submit = () => {
    const found: Record<string, string> = {};
    if (target === 'return' && !reason) found.reason = REVIEW_MESSAGES.chooseReason;
    if (isChange && !changeReason.trim()) found.change_reason = REVIEW_MESSAGES.changeReasonNeeded;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const input = {
      decision: target,
      ...(target === 'return' && reason ? { reason } : {}),
      ...(target === 'return' && details.trim() ? { details } : {}),
      ...(isChange ? { change_reason: changeReason.trim() } : {}),
    };
    review.mutate(
      { publicId: document.public_id, input },
      {
        onSuccess: (answer) => {
          show(answer.message);
          if (target === 'return') setReturned(true);
          else onDone();
        },
        onError: (error) => {
          const fields = isApiError(error) ? error.errors : undefined;
          setErrors(fields ? Object.fromEntries(Object.entries(fields).map(([field, messages]) => [field, messages[0] ?? ''])) : { form: errorMessage(error) });
        },
      },
    );
  };

  if (returned) {
    return (
      <Stack spacing={1} sx={{ mt: 1 }}>
        <FamilyReach studentId={studentId} />
        <Box>
          <Button size="small" onClick={onDone}>
            Done
          </Button>
        </Box>
      </Stack>
    );
  }
  return (
    <Stack spacing={1.5} component="form" method="post" sx={{ mt: 1 }} onSubmit={(event) => (event.preventDefault(), submit())} aria-label={`Change the decision on ${document.file_name}`}>
      <TextField select size="small" label="New decision" value={target} onChange={(event) => setTarget(event.target.value as Target)}>
        {targets.map((entry) => (
          <MenuItem key={entry} value={entry}>
            {entry === 'accept' ? 'Accept' : 'Return to the family'}
          </MenuItem>
        ))}
      </TextField>
      {target === 'return' && (
        <>
          <TextField
            select
            size="small"
            label="Reason"
            value={reason}
            onChange={(event) => setReason(event.target.value as DocumentReturnReason)}
            error={errors.reason !== undefined}
            helperText={errors.reason ?? ' '}
          >
            {DOCUMENT_RETURN_REASONS.map((entry) => (
              <MenuItem key={entry.code} value={entry.code}>
                {entry.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            label="Words for the family"
            value={details}
            onChange={(event) => setDetails(event.target.value)}
            error={errors.details !== undefined}
            helperText={errors.details ?? ' '}
            multiline
            slotProps={{ htmlInput: { maxLength: REVIEW_NOTE_MAX } }}
          />
        </>
      )}
      {isChange && (
        <TextField
          size="small"
          // Not `required`: the browser's own bubble would stop the form before the portal's message.
          label="Why the decision changes (required)"
          value={changeReason}
          onChange={(event) => setChangeReason(event.target.value)}
          error={errors.change_reason !== undefined}
          helperText={errors.change_reason ?? 'Kept in the record’s history.'}
          multiline
          slotProps={{ htmlInput: { maxLength: REVIEW_NOTE_MAX } }}
        />
      )}
      {target === 'return' && <FamilyReach studentId={studentId} showNotice={false} />}
      {errors.form && <Alert severity="error">{errors.form}</Alert>}
      <Stack direction="row" spacing={1}>
        <Button type="submit" size="small" variant="contained" disabled={review.isPending}>
          Save decision
        </Button>
        <Button size="small" onClick={onDone}>
          Cancel
        </Button>
      </Stack>
    </Stack>
  );
}
