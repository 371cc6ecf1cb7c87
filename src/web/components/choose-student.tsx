import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { StudentIdSchema } from '../../shared/auth.schemas.js';

interface ChooseStudentProps {
  /** The screen's title, as its own page shows it. */
  title: string;
  /** The field's hint, e.g. 'Whose attendance to show'. */
  purpose: string;
  submitLabel: string;
  onChoose: (studentId: string) => void;
}

/**
 * For an administrator who opened a student's screen (attendance, term reports) without naming
 * the student: a Student ID checked with the shared rule, then the screen for that student.
 */
export function ChooseStudent({ title, purpose, submitLabel, onChoose }: ChooseStudentProps) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = StudentIdSchema.safeParse(value);
    if (!parsed.success) setError(parsed.error.issues[0]?.message ?? 'Enter a Student ID.');
    else onChoose(parsed.data);
  };
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 480 }}>
      <Typography variant="h1">{title}</Typography>
      <Box component="form" method="post" noValidate onSubmit={submit} sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', mt: 2, flexWrap: 'wrap' }}>
        <TextField
          name="student_id"
          label="Student ID"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          error={error !== null}
          helperText={error ?? purpose}
          slotProps={{ formHelperText: error !== null ? { role: 'alert' } : {} }}
        />
        <Button type="submit" variant="contained" sx={{ mt: 1 }}>
          {submitLabel}
        </Button>
      </Box>
    </Paper>
  );
}
