import { useState, type FormEvent, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { schoolDayOf } from '../../shared/dates.js';
import { LINKED_VIA_LABELS, OfficeLinkSchema, type FamilyCodeAnswer, type StudentFamily } from '../../shared/family.schemas.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { ErrorAlert } from '../components/error-alert.js';
import { OutlinedField } from '../components/outlined-field.js';
import { PageSpinner } from '../components/page-spinner.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage, isApiError } from '../lib/api-client.js';
import { fieldErrorsOf, firstFieldMessages, type FieldErrors } from '../lib/form-errors.js';
import { InviteParentForm } from './invite-parent.js';
import { useIssueFamilyCode, useOfficeLinkFamily, useOfficeUnlinkFamily, useStudentFamily, useVerifiedParentEmails, useVerifyParentEmail } from './family.api.js';

/** The student whose family is shown: the admin list's row. */
export interface FamilyOf {
  id: string;
  /** 'Campbell, Jordan', as the list writes it. */
  name: string;
}

/** An instant as the school's day, yyyy-MM-dd. */
const dayOf = schoolDayOf;

type Guardian = StudentFamily['guardians'][number];

/**
 * The office's Family dialog for one student, opened from the admin student list:
 * who is linked (name, e-mail, how and when) with Remove (asked first), the invitations still
 * open, a new family code shown once with its expiry, an invitation by e-mail (the record's parent
 * e-mails offered), and linking an existing family account by its e-mail. Full screen on a phone.
 */
export function StudentFamilyDialog({ student, onClose }: { student: FamilyOf | null; onClose: () => void }) {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog open={student !== null} onClose={onClose} fullScreen={narrow} fullWidth maxWidth="sm" aria-labelledby="student-family-title">
      <DialogTitle id="student-family-title" sx={{ overflowWrap: 'anywhere' }}>
        {student ? `Family — ${student.name} (${student.id})` : 'Family'}
      </DialogTitle>
      <DialogContent dividers>{student && <FamilyPanel key={student.id} studentId={student.id} />}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `family-section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Box component="section" aria-labelledby={id} sx={{ py: 2 }}>
      <Typography variant="h3" component="h3" id={id} sx={{ fontSize: '1.05rem', fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

const PARENT_LABELS = { mother: "Mother's e-mail", father: "Father's e-mail", guardian: "Guardian's e-mail" } as const;

/**
 * The record's parent e-mails and the office's mark on each (D57): with no family
 * account linked, the school's messages go to the verified ones. Marking says the office checked
 * the address with the parent; a changed address loses the mark by itself.
 */
function ParentEmails({ studentId }: { studentId: string }) {
  const emails = useVerifiedParentEmails(studentId);
  const verify = useVerifyParentEmail(studentId);
  const showSnackbar = useSnackbar();
  if (emails.isPending) return <Typography color="text.secondary">Loading…</Typography>;
  if (emails.isError) {
    return (
      <Alert severity="error" role="alert">
        {errorMessage(emails.error)}
      </Alert>
    );
  }
  return (
    <>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        Without a linked family account, the school's messages go to the addresses marked verified.
      </Typography>
      <List dense disablePadding aria-label="Parent e-mails on the record">
        {emails.data.emails.map((entry) => (
          <ListItem
            key={entry.parent}
            disableGutters
            secondaryAction={
              entry.email ? (
                <Button
                  size="small"
                  disabled={verify.isPending}
                  aria-label={`${entry.verified ? 'Remove the mark from' : 'Mark as verified'} ${PARENT_LABELS[entry.parent]}`}
                  onClick={() =>
                    verify.mutate(
                      { parent: entry.parent, email: entry.email ?? '', verified: !entry.verified },
                      {
                        onSuccess: () => showSnackbar(entry.verified ? `${entry.email} is no longer marked verified` : `${entry.email} marked verified`),
                        onError: (cause) => showSnackbar(errorMessage(cause), 'error'),
                      },
                    )
                  }
                >
                  {entry.verified ? 'Unmark' : 'Mark verified'}
                </Button>
              ) : undefined
            }
          >
            <ListItemText
              primary={entry.email ?? 'Not given'}
              secondary={`${PARENT_LABELS[entry.parent]}${entry.verified && entry.verified_at ? ` · verified ${dayOf(entry.verified_at)}` : entry.email ? ' · not verified' : ''}`}
              slotProps={{ primary: { sx: { overflowWrap: 'anywhere', pr: 12 } } }}
            />
          </ListItem>
        ))}
      </List>
    </>
  );
}

const RECORD_FIELD_LABELS = { email_mother: "Mother's e-mail", email_father: "Father's e-mail", email_guardian: "Guardian's e-mail" } as const;

/**
 * The student's own changes to the record's parent e-mails (D66), so the office sees where a
 * student pointed the invitations and can check with the parent; the old address was mailed.
 */
/** Whether the server mailed the old address (family.service.ts tellOldParentAddresses): a value there, not just re-cased. */
const wasMailed = (change: { old_value: string | null; new_value: string | null }) =>
  (change.old_value?.trim() ?? '') !== '' && change.old_value?.trim().toLowerCase() !== change.new_value?.trim().toLowerCase();

function ChangedByStudent({ changes }: { changes: StudentFamily['parent_email_changes'] }) {
  if (changes.length === 0) return null;
  return (
    <Alert severity="warning" sx={{ mt: 1.5 }}>
      <Typography sx={{ fontWeight: 600 }}>Changed by the student</Typography>
      <List dense disablePadding aria-label="Parent e-mails changed by the student">
        {changes.map((change) => (
          <ListItem key={`${change.field}-${change.changed_at}`} disableGutters>
            <ListItemText
              primary={`${RECORD_FIELD_LABELS[change.field]}: ${change.old_value ?? 'empty'} → ${change.new_value ?? 'empty'}`}
              secondary={`${dayOf(change.changed_at)}${wasMailed(change) ? ' · the old address was told' : ''}`}
              slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
            />
          </ListItem>
        ))}
      </List>
    </Alert>
  );
}

function FamilyPanel({ studentId }: { studentId: string }) {
  const family = useStudentFamily(studentId);
  if (family.isPending) return <PageSpinner label="Loading the family accounts" />;
  if (family.isError) {
    return (
      <Alert severity="error" role="alert">
        {errorMessage(family.error)}
      </Alert>
    );
  }
  return (
    <>
      <Section title="Linked family accounts">
        <LinkedAccounts studentId={studentId} guardians={family.data.guardians} />
      </Section>
      <Divider />
      <Section title="Parent e-mails on the record">
        <ParentEmails studentId={studentId} />
        <ChangedByStudent changes={family.data.parent_email_changes} />
      </Section>
      <Divider />
      <Section title="Open invitations">
        {family.data.invitations.length === 0 ? (
          <Typography color="text.secondary">No invitation is waiting.</Typography>
        ) : (
          <List dense disablePadding aria-label="Open invitations">
            {family.data.invitations.map((invitation) => (
              <ListItem key={`${invitation.email}-${invitation.created_at}`} disableGutters>
                <ListItemText
                  primary={invitation.email}
                  secondary={`Sent ${dayOf(invitation.created_at)}, works until ${dayOf(invitation.expires_at)}`}
                  slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </Section>
      <Divider />
      <Section title="Family code">
        <FamilyCode studentId={studentId} waitingUntil={family.data.code_expires_at} />
      </Section>
      <Divider />
      <Section title="Invite a parent by e-mail">
        <InviteParentForm studentId={studentId} />
      </Section>
      <Divider />
      <Section title="Link an existing family account">
        <OfficeLink studentId={studentId} />
      </Section>
    </>
  );
}

function LinkedAccounts({ studentId, guardians }: { studentId: string; guardians: Guardian[] }) {
  const unlink = useOfficeUnlinkFamily(studentId);
  const showSnackbar = useSnackbar();
  const [removing, setRemoving] = useState<Guardian | null>(null);
  const confirm = () => {
    if (!removing) return;
    const name = removing.name || removing.email;
    unlink.mutate(removing.user_id, {
      onSuccess: () => {
        setRemoving(null);
        showSnackbar(`${name} no longer sees this student's record.`);
      },
      onError: (cause) => {
        setRemoving(null);
        showSnackbar(errorMessage(cause), 'error');
      },
    });
  };
  return (
    <>
      {guardians.length === 0 ? (
        <Typography color="text.secondary">No family account is linked to this student yet.</Typography>
      ) : (
        <List dense disablePadding aria-label="Linked family accounts">
          {guardians.map((guardian) => (
            <ListItem
              key={guardian.user_id}
              disableGutters
              sx={{ flexWrap: 'wrap', gap: 1 }}
              secondaryAction={
                <Button color="error" size="small" onClick={() => setRemoving(guardian)} aria-label={`Remove ${guardian.name || guardian.email}`}>
                  Remove
                </Button>
              }
            >
              <ListItemText
                primary={`${guardian.name} · ${guardian.email}`}
                secondary={`${LINKED_VIA_LABELS[guardian.linked_via]}, ${dayOf(guardian.linked_at)}`}
                slotProps={{ primary: { sx: { overflowWrap: 'anywhere', pr: 8 } } }}
              />
            </ListItem>
          ))}
        </List>
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Remove this family account?"
        confirmLabel="Remove"
        onConfirm={confirm}
        onCancel={() => setRemoving(null)}
        busy={unlink.isPending}
      >
        {removing?.name || removing?.email} ({removing?.email}) will no longer see this student's record. The student's own sign-in and the other
        family accounts are not changed.
      </ConfirmDialog>
    </>
  );
}

/** A new code, shown once; a waiting one is replaced only after asking. */
function FamilyCode({ studentId, waitingUntil }: { studentId: string; waitingUntil: string | null }) {
  const issue = useIssueFamilyCode(studentId);
  const [issued, setIssued] = useState<FamilyCodeAnswer | null>(null);
  const [asking, setAsking] = useState(false);
  const create = () => {
    setAsking(false);
    issue.mutate(undefined, { onSuccess: setIssued });
  };
  return (
    <>
      {issued ? (
        <Alert severity="success" role="status" sx={{ mb: 1 }}>
          <Typography>
            Family code{' '}
            <Box component="strong" sx={{ fontFamily: 'monospace', fontSize: '1.2rem', letterSpacing: 1 }} data-testid="family-code">
              {issued.code}
            </Box>
            , works until {dayOf(issued.expires_at)}.
          </Typography>
          <Typography variant="body2">
            It is shown only now. The parent enters it under My children with the student's date of birth; it works once.
          </Typography>
        </Alert>
      ) : (
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {waitingUntil
            ? `A code was printed and works until ${dayOf(waitingUntil)}. A new code replaces it.`
            : 'A code lets a parent add this student to their family account with the date of birth. For a whole class, print the letters from the student list.'}
        </Typography>
      )}
      <ErrorAlert message={issue.isError ? errorMessage(issue.error) : null} />
      <Button variant="outlined" onClick={() => (waitingUntil || issued ? setAsking(true) : create())} disabled={issue.isPending}>
        {issued || waitingUntil ? 'Print a new family code' : 'Print family code'}
      </Button>
      <ConfirmDialog open={asking} title="Make a new family code?" confirmLabel="Make a new code" onConfirm={create} onCancel={() => setAsking(false)} busy={issue.isPending}>
        The code given out before stops working.
      </ConfirmDialog>
    </>
  );
}

function OfficeLink({ studentId }: { studentId: string }) {
  const link = useOfficeLinkFamily(studentId);
  const showSnackbar = useSnackbar();
  const [email, setEmail] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const serverFieldErrors = isApiError(link.error) && link.error.errors !== undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = OfficeLinkSchema.safeParse({ email });
    setFieldErrors(parsed.success ? {} : fieldErrorsOf(parsed.error));
    if (!parsed.success) return;
    link.mutate(parsed.data.email, {
      onSuccess: () => {
        setEmail('');
        showSnackbar(`The family account ${parsed.data.email} is linked.`);
      },
      onError: (cause) => {
        if (isApiError(cause) && cause.errors) setFieldErrors(firstFieldMessages(cause.errors));
      },
    });
  };
  return (
    <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Link an existing family account">
      <ErrorAlert message={link.isError && !serverFieldErrors ? errorMessage(link.error) : null} />
      <OutlinedField
        label="Family account's e-mail"
        name="link_email"
        type="email"
        autoComplete="off"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={Boolean(fieldErrors['email'])}
        helperText={fieldErrors['email'] ?? 'The address the parent signs in with'}
        required
      />
      <Button type="submit" variant="outlined" disabled={link.isPending} sx={{ mt: 1 }}>
        Link account
      </Button>
    </Box>
  );
}
