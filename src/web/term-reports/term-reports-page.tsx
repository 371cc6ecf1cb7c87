import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router';
import { formClassName } from '../../shared/form-class.js';
import { postedText, termTitle, type ReportCardTerm } from '../../shared/term-reports.schemas.js';
import { BackToStudents } from '../components/back-to-students.js';
import { ChooseStudent } from '../components/choose-student.js';
import { NoChildLinked } from '../components/no-child-linked.js';
import { PageSpinner } from '../components/page-spinner.js';
import { errorMessage } from '../lib/api-client.js';
import { studentShownTo, useSession } from '../lib/session.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { ReportCardDialog, type OpenReportCard } from './report-card-dialog.js';
import { useReportCardTerms } from './term-reports.api.js';

const TITLE = 'Select Term Report';

/**
 * 'Select Term Report' (docs/requirements.md R9): one item per term with results, posted or
 * not. Unposted items are greyed and cannot be opened by a student; an administrator (who names
 * the student with ?student=ID) can open them. Opening one shows the card full screen.
 */
export function TermReportsPage() {
  usePageTitle(TITLE);
  const user = useSession().data?.user ?? null;
  const [params, setParams] = useSearchParams();
  const isStaff = user?.role === 'staff';
  const studentId = studentShownTo(user, params);
  const terms = useReportCardTerms(studentId);
  const [open, setOpen] = useState<OpenReportCard | null>(null);

  if (isStaff && !studentId) return <ChooseStudent title={TITLE} purpose="Whose term reports to show" submitLabel="Show term reports" onChoose={(id) => setParams({ student: id })} />;
  if (user?.role === 'guardian' && !studentId) return <NoChildLinked title={TITLE} />;
  if (terms.isPending) return <PageSpinner label="Loading term reports" />;

  return (
    <>
      {isStaff && <BackToStudents />}
      <Typography variant="h1">{TITLE}</Typography>
      {user?.role !== 'student' && (
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          Student {studentId}
        </Typography>
      )}
      {terms.isError ? (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {errorMessage(terms.error)}
        </Alert>
      ) : terms.data.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 3, mt: 2 }}>
          <Typography>There are no term reports yet.</Typography>
        </Paper>
      ) : (
        <Paper variant="outlined" sx={{ mt: 2 }}>
          <List aria-label="Term reports" disablePadding>
            {terms.data.map((term, i) => (
              <TermReportItem
                key={`${term.year}-${term.term}`}
                term={term}
                divider={i < terms.data.length - 1}
                canOpen={term.posted === 1 || isStaff}
                onOpen={() => setOpen({ studentId: studentId!, year: term.year, term: term.term, title: termTitle(term.year, Number(term.term)) })}
              />
            ))}
          </List>
        </Paper>
      )}
      <ReportCardDialog card={open} onClose={() => setOpen(null)} />
    </>
  );
}

interface TermReportItemProps {
  term: ReportCardTerm;
  divider: boolean;
  canOpen: boolean;
  onOpen: () => void;
}

/** One report: title 'Form {form_level} {class_id}', headline, subtitle, and the posted text (R9). */
function TermReportItem({ term, divider, canOpen, onOpen }: TermReportItemProps) {
  const title = formClassName(term.class_id, term.form_level) ?? 'End of Term Report';
  const posted = term.posted === 1;
  return (
    <ListItem disablePadding divider={divider}>
      <ListItemButton
        onClick={onOpen}
        disabled={!canOpen}
        sx={{
          display: 'flex',
          flexDirection: { xs: 'column', sm: 'row' },
          alignItems: { xs: 'flex-start', sm: 'center' },
          gap: { xs: 0.5, sm: 2 },
          py: 1.5,
          // An unposted report an administrator can still open stays greyed, as the list always has (R9).
          ...(!posted ? { color: 'text.disabled' } : {}),
        }}
      >
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography variant="overline" component="p" sx={{ lineHeight: 1.6, color: posted ? 'primary.main' : 'inherit' }}>
            {title}
          </Typography>
          <Typography component="p" sx={{ fontWeight: 600 }}>
            End of Term Report
          </Typography>
          <Typography component="p" variant="body2" sx={{ color: posted ? 'text.secondary' : 'inherit' }}>
            {termTitle(term.year, Number(term.term))}
          </Typography>
        </Box>
        <Typography component="p" variant="body2" sx={{ flexShrink: 0, fontWeight: posted ? 600 : 400, color: posted ? 'success.dark' : 'inherit' }}>
          {postedText(term)}
        </Typography>
      </ListItemButton>
    </ListItem>
  );
}
