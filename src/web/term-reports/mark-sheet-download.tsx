import { useState } from 'react';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { formClassName } from '../../shared/form-class.js';
import { termResultsTemplateUrl } from '../../shared/term-reports.schemas.js';
import { useFormClasses } from '../lib/form-classes.js';
import { useSubjects } from './term-reports.api.js';

const CHOOSER_WIDTH = { xs: '100%', sm: 220 };

/**
 * A mark sheet for a subject teacher: the results template for one class and subject, with the
 * class's students' IDs and names filled in, so the teacher only types the marks.
 */
export function MarkSheetDownload() {
  const classes = useFormClasses();
  const subjects = useSubjects();
  const [classId, setClassId] = useState('');
  const [subject, setSubject] = useState('');
  const ready = classId !== '' && subject !== '';
  return (
    <Box component="section" aria-labelledby="mark-sheet-heading" sx={{ mt: 3 }}>
      <Typography id="mark-sheet-heading" variant="h2" sx={{ fontSize: '1.1rem', fontWeight: 600 }}>
        Mark sheet for a class
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 1.5, maxWidth: '70ch' }}>
        The template with the class’s students already listed: give it to the subject teacher, who types the marks, then
        import it below.
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        <TextField
          select
          name="mark_sheet_class"
          label="Class"
          size="small"
          value={classId}
          onChange={(event) => setClassId(event.target.value)}
          fullWidth={false}
          sx={{ width: CHOOSER_WIDTH }}
        >
          {(classes.data ?? []).map((formClass) => (
            <MenuItem key={formClass.id} value={formClass.id}>
              {formClassName(formClass.id, formClass.form_level)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          name="mark_sheet_subject"
          label="Subject"
          size="small"
          value={subject}
          onChange={(event) => setSubject(event.target.value)}
          fullWidth={false}
          sx={{ width: CHOOSER_WIDTH }}
        >
          {(subjects.data ?? []).map((s) => (
            <MenuItem key={s.code} value={s.code}>
              {s.name}
            </MenuItem>
          ))}
        </TextField>
        <Button
          variant="outlined"
          disabled={!ready}
          href={ready ? termResultsTemplateUrl({ format: 'xlsx', class_id: classId, subject }) : undefined}
          startIcon={<FileDownloadIcon aria-hidden />}
          sx={{ width: { xs: '100%', sm: 'auto' } }}
        >
          Download mark sheet
        </Button>
      </Box>
    </Box>
  );
}
