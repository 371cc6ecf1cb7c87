import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router';
import { StudentLoginSchema, type LoginAnswer } from '../../shared/auth.schemas.js';
import { OutlinedField } from '../components/outlined-field.js';
import { PasswordField } from '../components/password-field.js';
import { errorMessage } from '../lib/api-client.js';
import { fieldErrorsOf, type FieldErrors } from '../lib/form-errors.js';
import { useDebouncedValue } from '../lib/use-debounced-value.js';
import { useLoginStudent, useUserStatus } from './auth.api.js';
import { ErrorAlert } from '../components/error-alert.js';
import { RememberDeviceCheckbox } from '../components/remember-device-checkbox.js';

const STATUS_LOOKUP_DELAY_MS = 300;

interface StudentIdLoginFormProps {
  studentId: string;
  onStudentIdChange: (studentId: string) => void;
  onSignedIn: (answer: LoginAnswer) => void;
}

/** Normal mode: Student ID and password; a reset account's password is the birth date (docs/requirements.md R3). */
export function StudentIdLoginForm({ studentId, onStudentIdChange, onSignedIn }: StudentIdLoginFormProps) {
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [lookupId, flushLookupId] = useDebouncedValue(studentId, STATUS_LOOKUP_DELAY_MS);
  const status = useUserStatus(lookupId);
  const login = useLoginStudent();
  const expectsBirthDate = status.data?.[0]?.password_reset === 1;
  // A parent who typed their e-mail is on the students' form: say where theirs is, at once.
  const typedAnEmail = studentId.includes('@');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = StudentLoginSchema.safeParse({ student_id: studentId, password, remember });
    setFieldErrors(parsed.success ? {} : fieldErrorsOf(parsed.error));
    if (!parsed.success) return;
    login.mutate(parsed.data, { onSuccess: onSignedIn });
  };

  return (
    <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Student sign in">
      <ErrorAlert message={login.isError ? errorMessage(login.error) : null} />
      <OutlinedField
        label="Student ID"
        name="student_id"
        autoComplete="username"
        value={studentId}
        onChange={(event) => onStudentIdChange(event.target.value)}
        onBlur={flushLookupId}
        error={Boolean(fieldErrors['student_id'])}
        helperText={
          typedAnEmail ? (
            <>
              That is an e-mail address; a Student ID is 8 digits. Parents and guardians:{' '}
              <Link component={RouterLink} to="/family/sign-in">
                sign in with your e-mail
              </Link>
              .
            </>
          ) : (
            fieldErrors['student_id']
          )
        }
        required
      />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="current-password"
        placeholder={expectsBirthDate ? 'Enter date of birth' : 'Enter password'}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={Boolean(fieldErrors['password'])}
        helperText={fieldErrors['password'] ?? (expectsBirthDate ? 'yyyymmdd' : undefined)}
        shrinkLabel
        required
      />
      <RememberDeviceCheckbox checked={remember} onChange={setRemember} />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={login.isPending} sx={{ mt: 1 }}>
        Sign in
      </Button>
    </Box>
  );
}
