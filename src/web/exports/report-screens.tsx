import { useState } from 'react';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { parentsContactSpreadsheetUrl, parentsContactUrl, registrationReportUrl } from '../../shared/students.schemas.js';
import { formClassName } from '../../shared/form-class.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { useFormClasses } from '../lib/form-classes.js';
import { useSession } from '../lib/session.js';
import { classChoicesFor, firstClassOf, reachesEveryClass } from '../lib/staff-access.js';
import { DownloadPdfButton, PdfView } from '../components/pdf-view.js';

/**
 * 'all' or a form class id: every class and "All classes" for those who may see every student
 * (the server answers 'all' only to them); a form teacher's own classes for a form teacher.
 */
function ClassSelect({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const classes = useFormClasses();
  const user = useSession().data?.user;
  const choices: { id: string; form_level: number | null }[] = classChoicesFor(user, classes.data ?? []);
  // The class it opens on is a choice even before the list of classes has come.
  if (value !== 'all' && !choices.some((formClass) => formClass.id === value)) choices.unshift({ id: value, form_level: null });
  return (
    <TextField select label="Class" value={value} onChange={(event) => onChange(event.target.value)} size="small" fullWidth={false} sx={{ width: { xs: '100%', sm: 220 } }}>
      {reachesEveryClass(user) && <MenuItem value="all">All classes</MenuItem>}
      {choices.map((formClass) => (
        <MenuItem key={formClass.id} value={formClass.id}>
          {formClassName(formClass.id, formClass.form_level)}
        </MenuItem>
      ))}
    </TextField>
  );
}

interface ReportFrameProps {
  title: string;
  description: string;
  pdfUrl: (classId: string) => string;
  spreadsheetUrl?: (classId: string) => string;
}

/** A class report: the class chooser, the PDF below it (page images on a phone, D45), and its downloads. */
function ReportFrame({ title, description, pdfUrl, spreadsheetUrl }: ReportFrameProps) {
  usePageTitle(title);
  const user = useSession().data?.user;
  // Those who see every class open on all of them; a form teacher on their (first) class.
  const [classId, setClassId] = useState(() => (reachesEveryClass(user) ? 'all' : firstClassOf(user)));
  const url = pdfUrl(classId);
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
      <Typography variant="h1">{title}</Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 2, maxWidth: '70ch' }}>
        {description}
      </Typography>
      {classId === '' ? (
        <Alert severity="info">No class is assigned to you, so there is no report to show. An administrator can assign your class.</Alert>
      ) : (
        <ClassReport title={title} classId={classId} onClass={setClassId} url={url} spreadsheetUrl={spreadsheetUrl} />
      )}
    </Paper>
  );
}

interface ClassReportProps {
  title: string;
  classId: string;
  onClass: (classId: string) => void;
  url: string;
  spreadsheetUrl: ((classId: string) => string) | undefined;
}

function ClassReport({ title, classId, onClass: setClassId, url, spreadsheetUrl }: ClassReportProps) {
  const formLevel = useFormClasses().data?.find((formClass) => formClass.id === classId)?.form_level;
  return (
    <>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', mb: 2 }}>
        <ClassSelect value={classId} onChange={setClassId} />
        <DownloadPdfButton url={url} />
        {spreadsheetUrl && (
          <Button href={spreadsheetUrl(classId)} download startIcon={<FileDownloadIcon aria-hidden />}>
            Download spreadsheet
          </Button>
        )}
      </Box>
      <PdfView
        key={url}
        url={url}
        title={`${title} — ${classId === 'all' ? 'All classes' : formClassName(classId, formLevel)}`}
        frameSx={{ border: 1, borderColor: 'divider', height: '75vh' }}
      />
    </>
  );
}

/** Reports ▸ Registration Report (docs/requirements.md R11: the registration report for all classes, embedded). */
export function RegistrationReportScreen() {
  return (
    <ReportFrame
      title="Registration Report"
      description="Each class with every student's registration progress, the documents still missing and whether the terms are agreed, with class and school totals."
      pdfUrl={registrationReportUrl}
    />
  );
}

/** Reports ▸ Parents Contact: mother, father, guardian and emergency contact, as a PDF and a spreadsheet. */
export function ParentsContactScreen() {
  return (
    <ReportFrame
      title="Parents Contact"
      description="The mother's, father's and guardian's names, phones and e-mails, and the emergency contact of every student."
      pdfUrl={parentsContactUrl}
      spreadsheetUrl={parentsContactSpreadsheetUrl}
    />
  );
}
