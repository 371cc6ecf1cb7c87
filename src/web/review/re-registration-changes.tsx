import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { findField, yesNoText } from '../../shared/registration.fields.js';
import { actorText, reRegistrationStepLabel, type FieldChange } from '../../shared/re-registration.schemas.js';
import { academicYearLabel } from '../../shared/school.constants.js';
import { schoolDayOf, schoolTimeOf } from '../../shared/dates.js';
import { errorMessage } from '../lib/api-client.js';
import { useReRegistrationChanges } from './review.api.js';

/** A stored value as the office reads it: a switch as Yes/No, a yes/no question also "Not answered" (D75), nothing as "(empty)". */
function valueText(change: FieldChange, value: string | null): string {
  if (findField(change.field)?.control === 'yesno') return yesNoText(value);
  if (value === null || value === '') return '(empty)';
  if (findField(change.field)?.control === 'switch') return value === '1' ? 'Yes' : 'No';
  return value;
}


/**
 * What changed in the record since its re-registration opened (D62): each field with
 * its label from the catalogue, the old value → the new one, who and when (from the audit log),
 * and where each step stands: confirmed with "nothing changed", confirmed by a change, or still
 * to confirm.
 */
export function ReRegistrationChanges({ studentId }: { studentId: string }) {
  const query = useReRegistrationChanges(studentId);
  if (query.isError) return <Typography color="error">{errorMessage(query.error)}</Typography>;
  const data = query.data;
  if (!data) return null;
  if (data.year === null) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }} data-testid="re-registration-none">
        Re-registration: nothing asked of this record.
      </Typography>
    );
  }
  return (
    <Box component="section" aria-labelledby={`re-registration-${studentId}`} sx={{ mt: 3 }} data-testid="re-registration-changes">
      <Typography variant="h2" id={`re-registration-${studentId}`} sx={{ fontSize: '1.1rem' }}>
        Re-registration {academicYearLabel(data.year)}
      </Typography>
      <Typography variant="body2" sx={{ mt: 0.5 }}>
        {data.pending === 0 ? 'Every step confirmed.' : `${data.pending} of ${data.steps.length} steps still to confirm.`}
      </Typography>
      <List dense aria-label="Steps" disablePadding>
        {data.steps.map((step) => (
          <ListItem key={step.step} disableGutters data-testid={`re-registration-office-step-${step.step}`}>
            <ListItemText
              primary={`${step.label}: ${step.how === 'unchanged' ? 'confirmed, nothing changed' : step.how === 'changed' ? 'confirmed with changes' : 'to confirm'}`}
              secondary={step.confirmed_at ? `${actorText(step.confirmed_by)}, ${schoolTimeOf(step.confirmed_at)}` : undefined}
            />
          </ListItem>
        ))}
      </List>
      <Typography variant="h3" sx={{ fontSize: '1rem', mt: 1 }}>
        Changed since {data.opened_at ? schoolDayOf(data.opened_at) : 'opening'}
      </Typography>
      {data.changes.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No field has changed.
        </Typography>
      ) : (
        <List dense aria-label="Changed fields" disablePadding>
          {data.changes.map((change) => (
            <ListItem key={`${change.step}:${change.field}`} disableGutters data-testid={`re-registration-change-${change.field}`}>
              <ListItemText
                primary={`${change.label} (${reRegistrationStepLabel(change.step)}): ${valueText(change, change.old_value)} → ${valueText(change, change.new_value)}`}
                secondary={`${actorText(change.by)}, ${schoolTimeOf(change.at)}`}
                slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}
