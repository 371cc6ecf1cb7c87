import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Suspense } from 'react';
import { fieldsOfStep, isFieldVisible, type FieldSection, type RecordValues, type RegistrationField as CatalogueField } from '../../shared/registration.fields.js';
import type { DataStep } from '../../shared/registration.progress.js';
import { missingFields } from '../../shared/registration.progress.js';
import { recordValues } from '../../shared/registration.schemas.js';
import type { SessionUser } from '../../shared/auth.schemas.js';
import { useRegistration } from '../lib/registration-context.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { problemFieldsOf, useFieldProblems, valuesWithWaiting, waitingFieldsOf } from './field-problems.js';
import { RegistrationField } from './registration-field.js';
import { REGISTRATION_STEPS } from './registration-steps.js';
import { Link as RouterLink } from 'react-router';

/** Headings of the sections a step's fields fall into (docs/requirements.md R4 lists what each step holds). */
const SECTION_TITLES: Partial<Record<FieldSection, string>> = {
  identity: 'Identity',
  address: 'Address',
  contact: 'Contact',
  school: 'School',
  background: 'Religion, Ethnic Group, Birth and Nationality',
  permit: 'Immigration Permit',
  mother: 'Mother',
  father: 'Father',
  guardian: 'Guardian',
  demographics: 'Family Demographics',
  emergency: 'Emergency Contact',
  immunisation: 'Immunisation',
  conditions: 'Health Conditions',
  notes: 'Medical Notes',
};

interface FieldGroup {
  title: string | undefined;
  fields: CatalogueField[];
}

/** Consecutive fields of one titled section form a group; untitled fields join the group before. */
function groupFields(fields: readonly CatalogueField[]): FieldGroup[] {
  const groups: FieldGroup[] = [];
  for (const field of fields) {
    const title = field.section ? SECTION_TITLES[field.section] : undefined;
    const last = groups.at(-1);
    if (last && (title === undefined || last.title === title)) last.fields.push(field);
    else groups.push({ title, fields: [field] });
  }
  return groups;
}

/** One data step (Student, Family, Health or Other Data): every catalogue field of it, by section. */
export function RegistrationStepPage({ step, title }: { step: DataStep; title: string }) {
  usePageTitle(title);
  const { record, studentId, editable, role } = useRegistration();
  const values = recordValues(record);
  const shown = fieldsOfStep(step).filter((field) => isFieldVisible(field, values));
  const { problems } = useFieldProblems(studentId);
  // Values waiting for the connection count as given: the trouble is not the family's (D73).
  const missing = missingFields(step, valuesWithWaiting(values, problems));
  const withProblems = problemFieldsOf(step, problems, values);
  const waiting = waitingFieldsOf(step, problems, values);
  const labelOf = new Map(shown.map((f) => [f.name, f.label]));
  const next = REGISTRATION_STEPS[REGISTRATION_STEPS.findIndex((entry) => entry.path === `${step}-data`) + 1];
  const labels = (names: readonly string[]) => names.map((name) => labelOf.get(name) ?? name).join(', ');
  const groups = groupFields(shown);
  // Closed: nothing is saved, so the line must not promise it (R6: read-only when closed).
  const savingLine = editable ? 'Every change is saved as you go.' : 'Registration is closed, so nothing here can be changed.';
  const stateLine =
    withProblems.length > 0
      ? `Not complete: ${labels(withProblems)} ${withProblems.length === 1 ? 'shows' : 'show'} an error.`
      : missing.length === 0
        ? 'This step is complete.'
        : `Still needed: ${labels(missing)}.`;
  const waitingLine = waiting.length > 0 ? `Not saved yet: ${labels(waiting)}; kept on this device and sent when the connection is back.` : null;

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-labelledby="step-title">
      <Typography variant="h1" id="step-title">
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5 }} data-testid="step-missing">
        {stateLine} {savingLine}
      </Typography>
      {waitingLine && (
        <Typography color="text.secondary" sx={{ mt: 0.5 }} data-testid="step-waiting">
          {waitingLine}
        </Typography>
      )}
      {groups.map((group, index) => (
        // Each section hydrates in a turn of its own, so the page answers between them (D104).
        <Suspense key={`${group.title ?? 'fields'}-${index}`}>
          <FieldGroupSection group={group} values={values} studentId={studentId} editable={editable} role={role} />
        </Suspense>
      ))}
      {next && (
        // Every change is already saved; the button only moves on (the steps can be done in any order).
        <Box sx={{ mt: 3, display: 'flex', justifyContent: 'flex-end' }}>
          <Button component={RouterLink} to={`/registration/${next.path}`} variant="contained" endIcon={<ArrowForwardIcon />}>
            Next: {next.label}
          </Button>
        </Box>
      )}
    </Paper>
  );
}

interface FieldGroupSectionProps {
  group: FieldGroup;
  values: RecordValues;
  studentId: string;
  editable: boolean;
  role: SessionUser['role'];
}

/** One section of a step: its heading and its fields, two to a row on a wide screen. */
function FieldGroupSection({ group, values, studentId, editable, role }: FieldGroupSectionProps) {
  return (
    <Box component={group.title ? 'fieldset' : 'div'} sx={{ border: 0, p: 0, m: 0, mt: 3, minWidth: 0 }}>
      {group.title && (
        <Typography component="legend" variant="h2" sx={{ mb: 1.5, p: 0 }}>
          {group.title}
        </Typography>
      )}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: group.fields.every((f) => f.control === 'switch')
            ? { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))' }
            : { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' },
        }}
      >
        {group.fields.map((field) => (
          <Box key={field.name} data-field={field.name} sx={{ gridColumn: field.control === 'textarea' ? '1 / -1' : undefined, minWidth: 0 }}>
            <RegistrationField
              // A field is one child's: switching child starts the next child's afresh.
              key={`${studentId}:${field.name}`}
              field={field}
              value={values[field.name] ?? null}
              studentId={studentId}
              readOnly={!editable || (role !== 'staff' && field.readOnlyForStudents === true)}
            />
          </Box>
        ))}
      </Box>
    </Box>
  );
}
