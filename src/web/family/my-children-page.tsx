import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate } from 'react-router';
import { FamilyLinkSchema, FAMILY_CODE_LENGTH, type FamilyChild } from '../../shared/family.schemas.js';
import { BirthDateField } from '../components/birth-date-field.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { ErrorAlert } from '../components/error-alert.js';
import { OutlinedField } from '../components/outlined-field.js';
import { PageSpinner } from '../components/page-spinner.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage, isApiError } from '../lib/api-client.js';
import { rememberChild } from '../lib/family-child.js';
import { fieldErrorsOf, firstFieldMessages, type FieldErrors } from '../lib/form-errors.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { childName, linkedPeople } from './family-children.js';
import { useFamilyChildren, useLinkChild, useRemoveChild } from './family.api.js';

const TITLE = 'My children';

/**
 * /family/children: each linked child with the class and who else reaches the record,
 * "Open record" and "Remove from my account" (asked first; the child's own sign-in keeps working),
 * and "Add a child" with the code from the school's letter and the child's date of birth, which
 * then opens that child's dashboard.
 */
export function MyChildrenPage() {
  usePageTitle(TITLE);
  const children = useFamilyChildren();
  const navigate = useNavigate();
  const showSnackbar = useSnackbar();
  const remove = useRemoveChild();
  const [removing, setRemoving] = useState<FamilyChild | null>(null);

  const open = (studentId: string) => {
    rememberChild(studentId);
    void navigate(`/dashboard?student=${encodeURIComponent(studentId)}`);
  };
  const confirmRemove = () => {
    if (!removing) return;
    const name = childName(removing);
    remove.mutate(removing.student_id, {
      onSuccess: () => {
        setRemoving(null);
        showSnackbar(`${name} is no longer linked to your account.`);
      },
      onError: (cause) => {
        setRemoving(null);
        showSnackbar(errorMessage(cause), 'error');
      },
    });
  };

  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Typography variant="h1">{TITLE}</Typography>
      {children.isPending ? (
        <PageSpinner label="Loading your children" />
      ) : children.isError ? (
        <Alert severity="error" role="alert">
          {errorMessage(children.error)}
        </Alert>
      ) : children.data.length === 0 ? (
        <Alert severity="info">No child is linked to your account yet. Add one below with the code from the school's letter.</Alert>
      ) : (
        <Box component="ul" aria-label="Your children" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' } }}>
          {children.data.map((child) => (
            <Card component="li" key={child.student_id} variant="outlined" aria-label={childName(child)}>
              <CardContent>
                <Typography variant="h2">{childName(child)}</Typography>
                <Typography color="text.secondary">
                  {child.class_name ?? 'No class yet'} · Student ID {child.student_id}
                </Typography>
                <Typography sx={{ mt: 1 }}>Linked to: {linkedPeople(child)}</Typography>
              </CardContent>
              <CardActions sx={{ flexWrap: 'wrap', gap: 1 }}>
                <Button variant="contained" onClick={() => open(child.student_id)}>
                  Open record
                </Button>
                <Button color="error" onClick={() => setRemoving(child)} aria-label={`Remove from my account: ${childName(child)}`}>
                  Remove from my account
                </Button>
              </CardActions>
            </Card>
          ))}
        </Box>
      )}
      <AddChild onLinked={open} />
      <ConfirmDialog
        open={removing !== null}
        title={removing ? `Remove ${childName(removing)} from your account?` : 'Remove from your account?'}
        confirmLabel="Remove"
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(null)}
        busy={remove.isPending}
      >
        You will no longer see {removing ? `${childName(removing)}'s` : 'this'} record here. {removing?.first_name ?? 'Your child'}'s own sign-in keeps working,
        and so do the other parents' accounts. To add the child again you need a new code from the school office or a new invitation.
      </ConfirmDialog>
    </Box>
  );
}

/** "Add a child": the letter's code (with or without its dash) and the child's date of birth, typed dd/MM/yyyy (D77). */
function AddChild({ onLinked }: { onLinked: (studentId: string) => void }) {
  const [code, setCode] = useState('');
  const [dateOfBirth, setDateOfBirth] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const link = useLinkChild();
  const showSnackbar = useSnackbar();
  const serverFieldErrors = isApiError(link.error) && link.error.errors !== undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = FamilyLinkSchema.safeParse({ code, date_of_birth: dateOfBirth });
    setFieldErrors(parsed.success ? {} : fieldErrorsOf(parsed.error));
    if (!parsed.success) return;
    link.mutate(parsed.data, {
      onSuccess: (answer) => {
        showSnackbar(answer.message);
        onLinked(answer.child.student_id);
      },
      onError: (cause) => {
        if (isApiError(cause) && cause.errors) setFieldErrors(firstFieldMessages(cause.errors));
      },
    });
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby="add-child-title" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 560 }}>
      <Typography variant="h2" id="add-child-title">
        Add a child
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5 }}>
        Enter the family code from the school's letter and your child's date of birth. No letter? Ask the school office, or ask your child to
        send you an invitation from their own sign-in.
      </Typography>
      <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Add a child">
        <ErrorAlert message={link.isError && !serverFieldErrors ? errorMessage(link.error) : null} />
        <OutlinedField
          label="Family code"
          name="code"
          autoComplete="off"
          placeholder="XXXX-XXXX"
          shrinkLabel
          value={code}
          onChange={(event) => setCode(event.target.value)}
          error={Boolean(fieldErrors['code'])}
          helperText={fieldErrors['code'] ?? `${FAMILY_CODE_LENGTH} letters and digits, with or without the dash`}
          htmlInput={{ autoCapitalize: 'characters', spellCheck: false, maxLength: 20 }}
          required
        />
        <BirthDateField label="Child's date of birth" value={dateOfBirth} onChange={setDateOfBirth} error={fieldErrors['date_of_birth']} autoComplete="off" />
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 2 }}>
          <Button type="submit" variant="contained" disabled={link.isPending}>
            Add child
          </Button>
          <Button component={RouterLink} to="/dashboard">
            Back to the dashboard
          </Button>
        </Box>
      </Box>
    </Paper>
  );
}
