import { useState, type FormEvent } from 'react';
import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import EditIcon from '@mui/icons-material/Edit';
import KeyIcon from '@mui/icons-material/Key';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import PhonelinkEraseIcon from '@mui/icons-material/PhonelinkErase';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { toLookupOptions } from '../../shared/lookups.schemas.js';
import { STAFF_ROLE_LABELS, STAFF_ROLES, type StaffRole } from '../../shared/staff.js';
import {
  CreateStaffSchema,
  UpdateStaffSchema,
  type StaffAccount,
  type StaffAccountWithPassword,
} from '../../shared/staff.schemas.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { HIDE_ON_PHONE_SX, PHONE_TABLE_SX } from '../components/table-priority.js';
import { errorMessage, isApiError } from '../lib/api-client.js';
import { useFormClasses } from '../lib/form-classes.js';
import { fieldErrorsOf, fieldHelper, firstFieldMessages, type FieldErrors } from '../lib/form-errors.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { ConfirmStaffDialog, OneTimePasswordDialog, type Confirm } from './staff-account-dialogs.js';
import { useCreateStaff, useStaffAccounts, useUpdateStaff } from './staff.api.js';

/** What the status column says: disabled, waiting for the person's own password, or active. */
function StatusChip({ account }: { account: StaffAccount }) {
  if (account.disabled) return <Chip size="small" label="Disabled" />;
  if (account.must_change_password) return <Chip size="small" color="warning" label="New password due" />;
  return <Chip size="small" color="success" label="Active" />;
}

/** How the account signs in: its password, the school's account (through the provider, D96), or both. */
function signInLabel(account: StaffAccount): string {
  const school = account.sign_in.school_account === 'linked' ? 'School account' : account.sign_in.school_account === 'waiting' ? 'School account (not used yet)' : null;
  if (school && account.sign_in.password) return `${school}, password`;
  return school ?? (account.sign_in.password ? 'Password' : 'No sign-in');
}

/**
 * Staff Accounts: who works in the admin area and in which role. An administrator adds
 * an account (a form teacher with their classes), changes its role or classes, disables it (its
 * sessions end at once) and resets its password. A new or reset password is a one-time password,
 * shown once here; the person chooses their own at the next sign-in. For a lost phone without its
 * recovery codes, it resets another person's two-step sign-in (D65); they are told by e-mail.
 */
export function StaffAccounts() {
  usePageTitle('Staff Accounts');
  const accounts = useStaffAccounts();
  const showSnackbar = useSnackbar();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<StaffAccount | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [oneTime, setOneTime] = useState<StaffAccountWithPassword | null>(null);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; account: StaffAccount } | null>(null);
  const classOptions = toLookupOptions('formClasses', useFormClasses().data ?? []);
  const classLabel = (id: string) => classOptions.find((option) => option.value === id)?.label ?? id;

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h1" sx={{ fontSize: '1.5rem' }}>
          Staff Accounts
        </Typography>
        <Button variant="contained" startIcon={<PersonAddIcon aria-hidden />} onClick={() => setAdding(true)}>
          Add staff
        </Button>
      </Stack>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        Everyone who signs in to the admin area. A new account, or one whose password you reset, gets a one-time password that
        you pass on; the person then chooses their own (at least 12 characters). A disabled account is signed out at once.
      </Typography>
      {accounts.isError && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {errorMessage(accounts.error)}
        </Alert>
      )}

      <StaffTable accounts={accounts.data} classLabel={classLabel} onActions={(anchor, account) => setMenu({ anchor, account })} />

      <StaffActionsMenu
        menu={menu}
        onClose={() => setMenu(null)}
        onEdit={(account) => setEditing(account)}
        onConfirm={(next) => setConfirm(next)}
      />

      <StaffDialog
        open={adding}
        account={null}
        classOptions={classOptions}
        onClose={() => setAdding(false)}
        onSaved={(answer) => {
          setAdding(false);
          setOneTime(answer);
        }}
      />
      <StaffDialog
        open={editing !== null}
        account={editing}
        classOptions={classOptions}
        onClose={() => setEditing(null)}
        onSaved={(answer) => {
          setEditing(null);
          showSnackbar(`${answer.name} saved.`);
        }}
      />

      <ConfirmStaffDialog confirm={confirm} onDone={() => setConfirm(null)} onPasswordReset={setOneTime} />

      <OneTimePasswordDialog oneTime={oneTime} onClose={() => setOneTime(null)} />
    </Paper>
  );
}

/** The accounts, one row each, with each row's menu button. */
function StaffTable({
  accounts,
  classLabel,
  onActions,
}: {
  accounts: StaffAccount[] | undefined;
  classLabel: (id: string) => string;
  onActions: (anchor: HTMLElement, account: StaffAccount) => void;
}) {
  return (
  <TableContainer sx={{ mt: 2 }}>
    {/* On a phone the username, role, classes and status go under the name, so the actions stay on the screen (D46). */}
    <Table size="small" aria-label="Staff accounts" sx={PHONE_TABLE_SX}>
      <TableHead>
        <TableRow>
          <TableCell>Name</TableCell>
          <TableCell sx={HIDE_ON_PHONE_SX}>Username</TableCell>
          <TableCell sx={HIDE_ON_PHONE_SX}>Role</TableCell>
          <TableCell sx={HIDE_ON_PHONE_SX}>Classes</TableCell>
          <TableCell sx={HIDE_ON_PHONE_SX}>Signs in with</TableCell>
          <TableCell sx={HIDE_ON_PHONE_SX}>Status</TableCell>
          <TableCell align="right">Actions</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {(accounts ?? []).map((account) => {
          const classes = account.class_ids.map(classLabel).join(', ');
          return (
            <TableRow key={account.id}>
              <TableCell component="th" scope="row" sx={{ overflowWrap: 'anywhere' }}>
                {account.name}
                <Box sx={{ display: { xs: 'block', sm: 'none' } }}>
                  <Typography variant="body2" color="text.secondary">
                    {account.username} · {STAFF_ROLE_LABELS[account.role]}
                    {classes ? ` · ${classes}` : ''}
                    {` · ${signInLabel(account)}`}
                  </Typography>
                  <StatusChip account={account} />
                </Box>
              </TableCell>
              <TableCell sx={{ ...HIDE_ON_PHONE_SX, overflowWrap: 'anywhere' }}>{account.username}</TableCell>
              <TableCell sx={HIDE_ON_PHONE_SX}>{STAFF_ROLE_LABELS[account.role]}</TableCell>
              <TableCell sx={HIDE_ON_PHONE_SX}>{classes || '—'}</TableCell>
              <TableCell sx={{ ...HIDE_ON_PHONE_SX, overflowWrap: 'anywhere' }}>
                {signInLabel(account)}
                {account.sign_in_email && (
                  <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                    {account.sign_in_email}
                  </Typography>
                )}
              </TableCell>
              <TableCell sx={HIDE_ON_PHONE_SX}>
                <StatusChip account={account} />
              </TableCell>
              <TableCell align="right">
                <Tooltip title="Actions">
                  <IconButton
                    size="small"
                    aria-label={`Actions for ${account.name}`}
                    aria-haspopup="menu"
                    onClick={(event) => onActions(event.currentTarget, account)}
                  >
                    <MoreVertIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </TableCell>
            </TableRow>
          );
        })}
        {accounts?.length === 0 && (
          <TableRow>
            <TableCell colSpan={7} align="center" sx={{ color: 'text.secondary', py: 3 }}>
              No staff accounts yet.
            </TableCell>
          </TableRow>
        )}
      </TableBody>
    </Table>
  </TableContainer>
  );
}

/** An account's actions: change it, disable or enable it, reset its password or its two-step sign-in. */
function StaffActionsMenu({
  menu,
  onClose,
  onEdit,
  onConfirm,
}: {
  menu: { anchor: HTMLElement; account: StaffAccount } | null;
  onClose: () => void;
  onEdit: (account: StaffAccount) => void;
  onConfirm: (confirm: Confirm) => void;
}) {
  return (
    <Menu
      anchorEl={menu?.anchor ?? null}
      open={menu !== null}
      onClose={onClose}
      slotProps={{ list: { 'aria-label': menu ? `Actions for ${menu.account.name}` : 'Actions' } }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
    >
      {menu && [
        <MenuItem key="edit" onClick={() => (onEdit(menu.account), onClose())}>
          <ListItemIcon>
            <EditIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>Change role or classes</ListItemText>
        </MenuItem>,
        <MenuItem key="disable" onClick={() => (onConfirm({ kind: menu.account.disabled ? 'enable' : 'disable', account: menu.account }), onClose())}>
          <ListItemIcon>{menu.account.disabled ? <CheckCircleIcon fontSize="small" /> : <BlockIcon fontSize="small" />}</ListItemIcon>
          <ListItemText>{menu.account.disabled ? 'Enable' : 'Disable'}</ListItemText>
        </MenuItem>,
        <MenuItem key="reset" onClick={() => (onConfirm({ kind: 'reset', account: menu.account }), onClose())}>
          <ListItemIcon>
            <KeyIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>Reset password</ListItemText>
        </MenuItem>,
        // Only an account whose factor is on has one to reset; the item says so when it is not.
        <MenuItem key="reset-2fa" disabled={!menu.account.has_2fa} onClick={() => (onConfirm({ kind: 'reset-2fa', account: menu.account }), onClose())}>
          <ListItemIcon>
            <PhonelinkEraseIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText secondary={menu.account.has_2fa ? undefined : 'Not set up'}>Reset two-step sign-in</ListItemText>
        </MenuItem>,
      ]}
    </Menu>
  );
}

interface StaffDialogProps {
  open: boolean;
  /** null: Add staff; an account: change it. */
  account: StaffAccount | null;
  classOptions: { value: string; label: string }[];
  onClose: () => void;
  onSaved: (answer: StaffAccountWithPassword) => void;
}

/** Add staff, or change an account's name, role, classes and e-mail; the shared schemas check before sending. */
function StaffDialog({ open, account, classOptions, onClose, onSaved }: StaffDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="sm" aria-labelledby="staff-dialog-title">
      {open && <StaffForm account={account} classOptions={classOptions} onClose={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

/** What the form holds; the classes count only for a form teacher. */
interface StaffValues {
  username: string;
  name: string;
  role: StaffRole | '';
  classIds: string[];
  email: string;
  signInEmail: string;
}

function StaffForm({ account, classOptions, onClose, onSaved }: Omit<StaffDialogProps, 'open'>) {
  const [username, setUsername] = useState(account?.username ?? '');
  const [name, setName] = useState(account?.name ?? '');
  const [role, setRole] = useState<StaffRole | ''>(account?.role ?? '');
  const [classIds, setClassIds] = useState<string[]>(account?.class_ids ?? []);
  const [email, setEmail] = useState(account?.email ?? '');
  const [signInEmail, setSignInEmail] = useState(account?.sign_in_email ?? '');
  const { errors, failure, pending, save } = useSaveStaff(account, onSaved);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save({ username, name, role, classIds, email, signInEmail });
  };
  const helper = (field: string, hint?: string) => fieldHelper(errors, field, hint);

  return (
    <Box component="form" method="post" noValidate onSubmit={submit} aria-labelledby="staff-dialog-title">
      <DialogTitle id="staff-dialog-title">{account ? `Change ${account.name}` : 'Add staff'}</DialogTitle>
      <DialogContent>
        {failure && (
          <Alert severity="error" role="alert" sx={{ mb: 1 }}>
            {failure}
          </Alert>
        )}
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
          <TextField
            name="username"
            label="Username"
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            required
            disabled={account !== null}
            autoComplete="off"
            margin="dense"
            {...helper('username', account ? 'A username stays as it is.' : 'For example: j.ramdass')}
          />
          <TextField name="name" label="Name" value={name} onChange={(event) => setName(event.target.value)} required margin="dense" {...helper('name')} />
          <TextField
            select
            name="role"
            label="Role"
            value={role}
            onChange={(event) => setRole(event.target.value as StaffRole)}
            required
            margin="dense"
            {...helper('role')}
          >
            {STAFF_ROLES.map((value) => (
              <MenuItem key={value} value={value}>
                {STAFF_ROLE_LABELS[value]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            name="email"
            label="E-mail (optional)"
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            margin="dense"
            {...helper('email')}
          />
          <TextField
            name="sign_in_email"
            label="School e-mail for signing in (optional)"
            type="email"
            value={signInEmail}
            onChange={(event) => setSignInEmail(event.target.value)}
            margin="dense"
            sx={{ gridColumn: { sm: '1 / -1' } }}
            {...helper('sign_in_email', "Their Microsoft 365 or Google address: they can then sign in with the school's account.")}
          />
        </Box>
        {role === 'form_teacher' && <ClassesField value={classIds} onChange={setClassIds} options={classOptions} errors={errors} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={pending}>
          {account ? 'Save' : 'Add staff'}
        </Button>
      </DialogActions>
    </Box>
  );
}

/**
 * Save: the shared schema checks the values first (Add staff or a change), then the server's
 * refusal puts its messages under their fields and its reason above them.
 */
function useSaveStaff(account: StaffAccount | null, onSaved: (answer: StaffAccountWithPassword) => void) {
  const create = useCreateStaff();
  const update = useUpdateStaff();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);

  const onError = (cause: Error) => {
    if (isApiError(cause) && cause.errors) setErrors(firstFieldMessages(cause.errors));
    setFailure(errorMessage(cause));
  };

  const save = ({ username, name, role, classIds, email, signInEmail }: StaffValues) => {
    setFailure(null);
    const classes = role === 'form_teacher' ? classIds : [];
    const emailValue = email.trim() === '' ? null : email;
    const signInEmailValue = signInEmail.trim() === '' ? null : signInEmail;
    if (account === null) {
      const parsed = CreateStaffSchema.safeParse({ username, name, role: role || undefined, class_ids: classes, email: emailValue, sign_in_email: signInEmailValue });
      if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
      setErrors({});
      create.mutate(parsed.data, { onSuccess: onSaved, onError });
      return;
    }
    const parsed = UpdateStaffSchema.safeParse({ name, role, class_ids: classes, email: emailValue, sign_in_email: signInEmailValue });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    update.mutate({ id: account.id, change: parsed.data }, { onSuccess: onSaved, onError });
  };

  return { errors, failure, pending: create.isPending || update.isPending, save };
}

/** A form teacher's classes, several chosen from the school's form classes. */
function ClassesField({
  value,
  onChange,
  options,
  errors,
}: {
  value: string[];
  onChange: (classIds: string[]) => void;
  options: { value: string; label: string }[];
  errors: FieldErrors;
}) {
  const helper = fieldHelper(errors, 'class_ids', 'The classes this form teacher teaches.');
  return (
    <TextField
      select
      name="class_ids"
      label="Classes"
      value={value}
      onChange={(event) => onChange(typeof event.target.value === 'string' ? event.target.value.split(',') : event.target.value)}
      required
      fullWidth
      margin="dense"
      {...helper}
      slotProps={{ ...helper.slotProps, select: { multiple: true, renderValue: (selected) => (selected as string[]).join(', ') } }}
    >
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
