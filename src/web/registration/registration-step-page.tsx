import { Suspense, useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { recordValues } from '../../shared/registration.answers.js';
import {
  fieldsOfStep,
  isFieldVisible,
  REGISTRATION_FIELDS,
  type FieldSection,
  type LookupName,
  type RegistrationField as CatalogueField,
} from '../../shared/registration.fields.js';
import type { DataStep } from '../../shared/registration.progress.js';
import { missingFields } from '../../shared/registration.progress.js';
import { lazyNamed } from '../lib/lazy-named.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { useRenderInSteps } from '../lib/use-render-in-steps.js';
import { useRegistration } from './registration-context.js';
import { loadRegistrationSchemas, lookupQuery } from './registration.api.js';

// The fields (the form controls and their menus, about 30 kB gzip) come after the step's first
// screen — its heading and what is still needed — as do the lookups their selects show and zod,
// which parses those and the saves (docs/performance.md, web).
const loadRegistrationField = () => import('./registration-field.js');
const RegistrationField = lazyNamed(loadRegistrationField, 'RegistrationField');

/** Headings of the sections a step's fields fall into (SPEC §2's lists of what each step holds). */
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

/**
 * False for the step's first screen, true once the browser has put it on screen: what only the
 * fields need is asked for then, not while that screen is still being drawn. (The second
 * animation frame comes after the first one's paint; a task queued from it runs after that.)
 */
function useFirstScreenPainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer = 0;
    let frame = window.requestAnimationFrame(() => {
      frame = window.requestAnimationFrame(() => {
        timer = window.setTimeout(() => setPainted(true), 0);
      });
    });
    return () => {
      window.cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, []);
  return painted;
}

/** Every lookup a registration field takes its options or suggestions from, once each. */
const REGISTRATION_LOOKUPS: readonly LookupName[] = [...new Set(REGISTRATION_FIELDS.flatMap((field) => (field.lookup ? [field.lookup] : [])))];

/**
 * The lookups of the shown fields, asked for once `wanted`; answers which have settled (loaded or
 * failed), so a section shows when its selects can show their values rather than blank.
 */
function useSettledLookups(fields: readonly CatalogueField[], wanted: boolean): ReadonlySet<LookupName> {
  const needed = new Set(fields.flatMap((field) => (field.lookup ? [field.lookup] : [])));
  const settled = new Set<LookupName>();
  // One query hook per lookup of the catalogue, always the same ones in the same order.
  for (const name of REGISTRATION_LOOKUPS) {
    const answer = useQuery({ ...lookupQuery(name), enabled: wanted && needed.has(name) });
    if (!answer.isPending) settled.add(name);
  }
  return settled;
}

/** One data step (Student, Family, Health or Other Data): every catalogue field of it, by section. */
export function RegistrationStepPage({ step, title }: { step: DataStep; title: string }) {
  usePageTitle(title);
  const { record, studentId, editable, role } = useRegistration();
  const values = recordValues(record);
  const shown = fieldsOfStep(step).filter((field) => isFieldVisible(field, values));
  const missing = missingFields(step, values);
  const labelOf = new Map(shown.map((f) => [f.name, f.label]));
  const groups = groupFields(shown);
  const painted = useFirstScreenPainted();
  useEffect(() => {
    // Ahead of the first section; a failure shows when it needs the file.
    if (painted) loadRegistrationField().catch(() => undefined);
  }, [painted]);
  // The save's answer schema (zod builds the registration schemas when their file loads): once a
  // field gets focus, ahead of its first save.
  const loadSaveSchemas = () => loadRegistrationSchemas().catch(() => undefined);
  const settled = useSettledLookups(shown, painted);
  // The heading and what is still needed first; then, once painted, one section per commit
  // (short tasks), each when the lookups of its selects are in. After that first reveal, every
  // section shows at once: one that appears later (a switch turned on) does not hold up or hide
  // the others.
  const [allRevealed, setAllRevealed] = useState(false);
  let ready = 0;
  if (painted) {
    const isGroupReady = (group: FieldGroup) => allRevealed || group.fields.every((field) => !field.lookup || settled.has(field.lookup));
    while (ready < groups.length && isGroupReady(groups[ready]!)) ready++;
  }
  const revealed = useRenderInSteps(ready, 0);
  if (!allRevealed && painted && revealed >= groups.length) setAllRevealed(true);
  const groupsShown = allRevealed ? groups.length : revealed;

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-labelledby="step-title" onFocus={loadSaveSchemas}>
      <Typography variant="h1" id="step-title">
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5 }} data-testid="step-missing">
        {missing.length === 0
          ? 'This step is complete. Every change is saved as you go.'
          : `Still needed: ${missing.map((name) => labelOf.get(name) ?? name).join(', ')}. Every change is saved as you go.`}
      </Typography>
      {/* The fields' code loads after the first screen: until then, nothing more (no spinner). */}
      <Suspense fallback={null}>
        {groups.slice(0, groupsShown).map((group, index) => (
          <Box key={`${group.title ?? 'fields'}-${index}`} component={group.title ? 'fieldset' : 'div'} sx={{ border: 0, p: 0, m: 0, mt: 3, minWidth: 0 }}>
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
                    field={field}
                    value={values[field.name] ?? null}
                    studentId={studentId}
                    readOnly={!editable || (role === 'student' && field.readOnlyForStudents === true)}
                  />
                </Box>
              ))}
            </Box>
          </Box>
        ))}
      </Suspense>
    </Paper>
  );
}
