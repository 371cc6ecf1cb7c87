import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { findField, type FieldValue } from '../../shared/registration.fields.js';
import { agreementLine, DECLARATION_MESSAGES, type StudentRecord } from '../../shared/registration.schemas.js';
import { TERMS_DECLARATION } from '../../shared/terms.js';
import type { SessionUser } from '../../shared/auth.schemas.js';
import { RegistrationField } from './registration-field.js';
import { studentRecordKey } from './registration.api.js';

const AGREE_FIELD = findField('agree_terms_conditions')!;

interface DeclarationProps {
  studentId: string;
  record: StudentRecord;
  role: SessionUser['role'];
  editable: boolean;
}

/**
 * The parent's declaration on the Complete step (D75): a family account linked to the child
 * agrees here; a student sees who agreed, or who must (the parent when they sign in, or on the
 * printed form when no family account is linked); staff see who agreed and record nothing.
 */
export function Declaration({ studentId, record, role, editable }: DeclarationProps) {
  const agreed = Number(record.agree_terms_conditions) === 1;
  // A save answers the fields it wrote, not who agreed (the server's to record): when the two
  // disagree, the record is asked for again.
  const queryClient = useQueryClient();
  const stale = agreed === (record.agreement === null);
  useEffect(() => {
    if (stale) void queryClient.invalidateQueries({ queryKey: studentRecordKey(studentId) });
  }, [stale, queryClient, studentId]);
  const line = agreed ? agreementLine(record.agree_terms_date, record.agreement) : null;
  const whoMustAgree = role === 'student' ? (record.family_linked ? DECLARATION_MESSAGES.studentWithFamily : DECLARATION_MESSAGES.studentWithoutFamily) : DECLARATION_MESSAGES.staffRefused;
  return (
    <>
      <Typography variant="body2" sx={{ fontStyle: 'italic', mb: 2 }}>
        {TERMS_DECLARATION}
      </Typography>
      {role === 'guardian' && (
        <RegistrationField
          key={studentId}
          field={AGREE_FIELD}
          value={(record.agree_terms_conditions as FieldValue | undefined) ?? 0}
          studentId={studentId}
          readOnly={!editable}
        />
      )}
      <Typography variant="body2" color={agreed ? 'text.primary' : 'text.secondary'} sx={{ mt: 1 }} data-testid="agreed-on" aria-live="polite">
        {line ?? (role === 'guardian' ? 'Not agreed yet.' : `Not agreed yet. ${whoMustAgree}`)}
      </Typography>
    </>
  );
}
