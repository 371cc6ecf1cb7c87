import { useState } from 'react';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { parentsContactSpreadsheetUrl, parentsContactUrl, registrationReportUrl } from '../../shared/admin.schemas.js';
import { formClassName } from '../../shared/form-class.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { useFormClasses } from '../lib/form-classes.js';
import { DownloadPdfButton, PdfView } from '../components/pdf-view.js';

/** 'all' or a form class id. */
function ClassSelect({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const classes = useFormClasses();
  return (
    <TextField select label="Class" value={value} onChange={(event) => onChange(event.target.value)} size="small" fullWidth={false} sx={{ width: { xs: '100%', sm: 220 } }}>
      <MenuItem value="all">All classes</MenuItem>
      {(classes.data ?? []).map((formClass) => (
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
  const [classId, setClassId] = useState('all');
  const url = pdfUrl(classId);
  const formLevel = useFormClasses().data?.find((formClass) => formClass.id === classId)?.form_level;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
      <Typography variant="h1">{title}</Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 2, maxWidth: '70ch' }}>
        {description}
      </Typography>
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
    </Paper>
  );
}

/** Reports ▸ Registration Report (SPEC §2 Reports: the embedded registration report for all classes). */
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
