import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import ClassIcon from '@mui/icons-material/Class';
import MarkEmailReadIcon from '@mui/icons-material/ForwardToInbox';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import PrintIcon from '@mui/icons-material/Print';
import TaskIcon from '@mui/icons-material/TaskAlt';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { BULK_INVITE_REPEAT_HOURS, classListUrl, classRegisterUrl, moveQuestion, studentsWord, type BulkSelection, type BulkSummary } from '../../shared/bulk.schemas.js';
import { schoolToday } from '../../shared/dates.js';
import { DOCUMENT_SLOTS, type DocumentType } from '../../shared/documents.slots.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage } from '../lib/api-client.js';
import { useBulkChangeClass, useBulkInvite, useBulkPaperDocuments, useBulkSummary } from './bulk.api.js';

const PdfDialog = lazy(async () => ({ default: (await import('../components/pdf-view.js')).PdfDialog }));

/**
 * The student list's bulk actions (docs/decisions.md D83): how many rows are selected, "Select
 * all N matching" (the filter itself becomes the selection, which the server applies), and the
 * actions the person's role allows: change class, send invitations to the parent e-mails on
 * record, mark a document received on paper, and print a class list or a blank register. Each
 * dialog asks the server what the selection holds before it confirms. On a phone the actions
 * fold into one menu.
 */

export interface BulkPermissions {
  changeClass: boolean;
  invite: boolean;
  paperDocuments: boolean;
  print: boolean;
}

export interface BulkActionsProps {
  /** Rows ticked, or every row of the filter (`allMatching`). */
  selectedCount: number;
  allMatching: boolean;
  /** How many rows the filter shows (former students too, when shown). */
  found: number;
  /** The selection as the server takes it; null when nothing is selected. */
  selection: BulkSelection | null;
  onSelectAll: () => void;
  onClear: () => void;
  /** After an action changed rows: the selection is cleared. */
  onDone: () => void;
  classes: readonly { id: string }[];
  /** The class the list is filtered to, the printouts' first choice. */
  classId: string;
  may: BulkPermissions;
  narrow: boolean;
}

type DialogKind = 'class' | 'invite' | 'paper' | 'print';

export default function BulkActions({ selectedCount, allMatching, found, selection, onSelectAll, onClear, onDone, classes, classId, may, narrow }: BulkActionsProps) {
  const [open, setOpen] = useState<DialogKind | null>(null);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const selected = selection !== null && selectedCount > 0;
  const actions: { kind: DialogKind; label: string; icon: ReactNode; shown: boolean; needsSelection: boolean }[] = [
    { kind: 'class', label: 'Change class', icon: <ClassIcon />, shown: may.changeClass, needsSelection: true },
    { kind: 'invite', label: 'Send invitations', icon: <MarkEmailReadIcon />, shown: may.invite, needsSelection: true },
    { kind: 'paper', label: 'Documents received', icon: <TaskIcon />, shown: may.paperDocuments, needsSelection: true },
    { kind: 'print', label: 'Print class list', icon: <PrintIcon />, shown: may.print, needsSelection: false },
  ];
  const shown = actions.filter((action) => action.shown);
  const selecting = may.changeClass || may.invite || may.paperDocuments;
  if (shown.length === 0) return null;
  const close = () => setOpen(null);
  const done = () => {
    setOpen(null);
    onDone();
  };

  return (
    <Box role="toolbar" aria-label="Bulk actions" sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1.5, p: 1, borderRadius: 1, bgcolor: selected ? 'action.selected' : 'transparent' }}>
      {selecting && (
        <Typography role="status" aria-live="polite" sx={{ fontWeight: 500, mr: 1 }}>
          {selected ? (allMatching ? `All ${found} matching selected` : `${selectedCount} selected`) : 'Tick rows to act on them'}
        </Typography>
      )}
      {selecting && !allMatching && found > 0 && (
        <Button size="small" onClick={onSelectAll}>
          Select all {found} matching
        </Button>
      )}
      {selected && (
        <Button size="small" onClick={onClear}>
          Clear selection
        </Button>
      )}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', ml: 'auto' }}>
        {narrow ? (
          <>
            <Button variant="outlined" startIcon={<MoreVertIcon />} aria-haspopup="menu" onClick={(event) => setMenuAnchor(event.currentTarget)}>
              Actions
            </Button>
            <Menu anchorEl={menuAnchor} open={menuAnchor !== null} onClose={() => setMenuAnchor(null)}>
              {shown.map((action) => (
                <MenuItem
                  key={action.kind}
                  disabled={action.needsSelection && !selected}
                  onClick={() => {
                    setMenuAnchor(null);
                    setOpen(action.kind);
                  }}
                >
                  <ListItemIcon>{action.icon}</ListItemIcon>
                  {action.label}
                </MenuItem>
              ))}
            </Menu>
          </>
        ) : (
          shown.map((action) => (
            <Button key={action.kind} variant="outlined" startIcon={action.icon} disabled={action.needsSelection && !selected} onClick={() => setOpen(action.kind)}>
              {action.label}
            </Button>
          ))
        )}
      </Box>
      {open === 'class' && selection && <ChangeClassDialog selection={selection} classes={classes} onClose={close} onDone={done} />}
      {open === 'invite' && selection && <InviteDialog selection={selection} onClose={close} onDone={done} />}
      {open === 'paper' && selection && <PaperDocumentsDialog selection={selection} onClose={close} onDone={done} />}
      {open === 'print' && <PrintDialog classes={classes} classId={classId} onClose={close} />}
    </Box>
  );
}

/** A dialog of a bulk action: a title, what the selection holds (asked afresh), the action's own words, Cancel and the action. */
function BulkDialog({
  title,
  summary,
  children,
  action,
  onAction,
  busy,
  error,
  onClose,
}: {
  title: string;
  summary: { data?: BulkSummary | undefined; error: unknown; isPending: boolean };
  children: (summary: BulkSummary) => ReactNode;
  action: string;
  onAction: (() => void) | null;
  busy: boolean;
  error: unknown;
  onClose: () => void;
}) {
  const titleId = useId();
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2 }}>
        {summary.isPending && <LinearProgress aria-label="Counting the selection" />}
        {summary.error !== null && <Alert severity="error">{errorMessage(summary.error)}</Alert>}
        {summary.data && summary.data.former_left_out > 0 && (
          <Alert severity="info">{studentsWord(summary.data.former_left_out)} who left the school are left out: former students cannot be changed.</Alert>
        )}
        {summary.data && children(summary.data)}
        {error !== null && (
          <Alert severity="error" role="alert">
            {errorMessage(error)}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" onClick={onAction ?? undefined} disabled={onAction === null || busy}>
          {action}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function ChangeClassDialog({ selection, classes, onClose, onDone }: { selection: BulkSelection; classes: readonly { id: string }[]; onClose: () => void; onDone: () => void }) {
  const summary = useBulkSummary(selection);
  const change = useBulkChangeClass();
  const snackbar = useSnackbar();
  const [target, setTarget] = useState('');
  const count = summary.data?.students ?? 0;
  const move = () =>
    change.mutate(
      { selection, class_id: target, expected: count },
      {
        onSuccess: (answer) => {
          snackbar(answer.message, 'success');
          onDone();
        },
      },
    );
  return (
    <BulkDialog title="Change class" summary={summary} action="Move" onAction={target !== '' && count > 0 ? move : null} busy={change.isPending} error={change.error} onClose={onClose}>
      {() => (
        <>
          <TextField select label="New class" value={target} onChange={(event) => setTarget(event.target.value)} fullWidth autoFocus>
            {classes.map((formClass) => (
              <MenuItem key={formClass.id} value={formClass.id}>
                {formClass.id}
              </MenuItem>
            ))}
          </TextField>
          <Typography sx={{ fontWeight: 500 }}>{target ? moveQuestion(count, target) : `${studentsWord(count)} selected. Choose their new class.`}</Typography>
        </>
      )}
    </BulkDialog>
  );
}

function InviteDialog({ selection, onClose, onDone }: { selection: BulkSelection; onClose: () => void; onDone: () => void }) {
  const summary = useBulkSummary(selection);
  const invite = useBulkInvite();
  const snackbar = useSnackbar();
  const send = () =>
    invite.mutate(
      { selection, expected: summary.data?.students ?? 0 },
      {
        onSuccess: (answer) => {
          snackbar(answer.message, 'success');
          onDone();
        },
      },
    );
  return (
    <BulkDialog
      title="Send invitations"
      summary={summary}
      action="Send"
      onAction={summary.data && summary.data.invitations > 0 ? send : null}
      busy={invite.isPending}
      error={invite.error}
      onClose={onClose}
    >
      {(data) => (
        <>
          <Typography sx={{ fontWeight: 500 }}>
            {data.invitations === 0 ? 'No invitation to send.' : `Send ${data.invitations} ${data.invitations === 1 ? 'invitation' : 'invitations'} to the parent e-mails on ${studentsWord(data.students)}' records?`}
          </Typography>
          <Typography variant="body2">
            Each parent gets the family invitation to follow their child&apos;s record; opening it from their own family account verifies that e-mail.
          </Typography>
          {data.without_parent_email > 0 && (
            <Alert severity="warning">
              {data.without_parent_email} {data.without_parent_email === 1 ? 'record has' : 'records have'} no parent e-mail: nobody can be reached for {data.without_parent_email === 1 ? 'it' : 'them'}.
            </Alert>
          )}
          {data.recently_invited > 0 && (
            <Typography variant="body2" color="text.secondary">
              {data.recently_invited} already invited in the last {BULK_INVITE_REPEAT_HOURS} hours: not sent again.
            </Typography>
          )}
        </>
      )}
    </BulkDialog>
  );
}

function PaperDocumentsDialog({ selection, onClose, onDone }: { selection: BulkSelection; onClose: () => void; onDone: () => void }) {
  const summary = useBulkSummary(selection);
  const mark = useBulkPaperDocuments();
  const snackbar = useSnackbar();
  const [fileType, setFileType] = useState<DocumentType | ''>('');
  const count = summary.data?.students ?? 0;
  const label = DOCUMENT_SLOTS.find((slot) => slot.type === fileType)?.label;
  const submit = () => {
    if (fileType === '') return;
    mark.mutate(
      { selection, file_type: fileType, expected: count },
      {
        onSuccess: (answer) => {
          snackbar(answer.message, 'success');
          onDone();
        },
      },
    );
  };
  return (
    <BulkDialog title="Documents received on paper" summary={summary} action="Mark received" onAction={fileType !== '' && count > 0 ? submit : null} busy={mark.isPending} error={mark.error} onClose={onClose}>
      {() => (
        <>
          <TextField select label="Document" value={fileType} onChange={(event) => setFileType(event.target.value as DocumentType)} fullWidth autoFocus>
            {DOCUMENT_SLOTS.map((slot) => (
              <MenuItem key={slot.type} value={slot.type}>
                {slot.label}
              </MenuItem>
            ))}
          </TextField>
          <Typography sx={{ fontWeight: 500 }}>{label ? `Mark ${label} received on paper for ${studentsWord(count)}?` : `${studentsWord(count)} selected. Choose the document.`}</Typography>
        </>
      )}
    </BulkDialog>
  );
}

function PrintDialog({ classes, classId, onClose }: { classes: readonly { id: string }[]; classId: string; onClose: () => void }) {
  const titleId = useId();
  const [chosen, setChosen] = useState(classId || (classes[0]?.id ?? ''));
  const [kind, setKind] = useState<'list' | 'register'>('list');
  const [month, setMonth] = useState(() => schoolToday().slice(0, 7));
  const [pdf, setPdf] = useState<{ url: string; title: string } | null>(null);
  const monthValid = /^\d{4}-(0[1-9]|1[0-2])$/.test(month);
  const show = () =>
    setPdf(
      kind === 'list'
        ? { url: classListUrl(chosen), title: `Class List — ${chosen}` }
        : { url: classRegisterUrl(chosen, month), title: `Register — ${chosen} — ${month}` },
    );
  return (
    <>
      <Dialog open={pdf === null} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
        <DialogTitle id={titleId}>Print for a class</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          <TextField select label="Class" value={chosen} onChange={(event) => setChosen(event.target.value)} fullWidth>
            {classes.map((formClass) => (
              <MenuItem key={formClass.id} value={formClass.id}>
                {formClass.id}
              </MenuItem>
            ))}
          </TextField>
          <TextField select label="What to print" value={kind} onChange={(event) => setKind(event.target.value as 'list' | 'register')} fullWidth>
            <MenuItem value="list">Class list (names, student IDs, sex)</MenuItem>
            <MenuItem value="register">Blank register for a month</MenuItem>
          </TextField>
          {kind === 'register' && (
            <TextField
              label="Month"
              type="month"
              value={month}
              onChange={(event) => setMonth(event.target.value)}
              error={!monthValid}
              helperText={monthValid ? 'A column for each school day' : 'Choose a month.'}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="contained" startIcon={<PrintIcon />} onClick={show} disabled={chosen === '' || (kind === 'register' && !monthValid)}>
            Show PDF
          </Button>
        </DialogActions>
      </Dialog>
      <Suspense fallback={null}>{pdf && <PdfDialog url={pdf.url} title={pdf.title} onClose={onClose} />}</Suspense>
    </>
  );
}
