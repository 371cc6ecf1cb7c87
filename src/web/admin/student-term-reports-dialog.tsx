import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { listName, type AdminStudent } from '../../shared/admin.schemas.js';
import { reportCardUrl, termTitle, type ReportCardTerm } from '../../shared/term-reports.schemas.js';
import { errorMessage } from '../lib/api-client.js';
import { useStudentTermReports } from './admin.api.js';
import { PdfDialog } from './pdf-dialog.js';

interface StudentTermReportsDialogProps {
  student: AdminStudent | null;
  onClose: () => void;
}

/**
 * A student's term reports from the list's actions (issue #7): the terms of
 * GET /api/report-card-terms/{id}; each opens its report card in a full-screen PDF dialog.
 * Unposted reports can be opened too: administrators may (SPEC §2 Term Report screen, §6).
 */
export function StudentTermReportsDialog({ student, onClose }: StudentTermReportsDialogProps) {
  const terms = useStudentTermReports(student?.id ?? null);
  const [open, setOpen] = useState<ReportCardTerm | null>(null);
  const name = student ? `${listName(student)} (${student.id})` : '';
  return (
    <>
      <Dialog open={student !== null} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="student-terms-title">
        <DialogTitle id="student-terms-title">
          Term Reports
          <Typography component="span" display="block" color="text.secondary" variant="body2">
            {name}
          </Typography>
        </DialogTitle>
        <DialogContent dividers>
          {terms.isPending && <CircularProgress aria-label="Loading term reports" />}
          {terms.isError && (
            <Alert severity="error" role="alert">
              {errorMessage(terms.error)}
            </Alert>
          )}
          {terms.data?.length === 0 && <Typography>This student has no term reports yet.</Typography>}
          {terms.data && terms.data.length > 0 && (
            <List aria-label="Term reports">
              {terms.data.map((term) => (
                <ListItem key={`${term.year}-${term.term}`} disablePadding>
                  <ListItemButton onClick={() => setOpen(term)}>
                    <ListItemText
                      primary={termTitle(term.year, Number(term.term))}
                      secondary={term.posted === 1 ? `Report posted ${term.date_posted ?? ''}`.trim() : 'Report not posted (visible to administrators only)'}
                    />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Close</Button>
        </DialogActions>
      </Dialog>
      <PdfDialog
        url={student && open ? reportCardUrl(student.id, open.year, open.term) : null}
        title={open ? `${termTitle(open.year, Number(open.term))} — ${name}` : ''}
        onClose={() => setOpen(null)}
      />
    </>
  );
}
