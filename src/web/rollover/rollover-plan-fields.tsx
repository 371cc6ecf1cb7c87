import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { TERM_NAMES } from '../../shared/school.constants.js';
import type { RolloverPlanInput, RolloverPreview, RolloverState } from '../../shared/rollover.schemas.js';
import { PHONE_TABLE_SX } from '../components/table-priority.js';
import type { FieldErrors } from '../lib/form-errors.js';
import { DayFirstDateField } from './day-first-date-field.js';

/** The mapping select's value for "the class leaves the school". */
const LEAVES = '__leaves__';

interface PlanPartProps {
  plan: RolloverPlanInput;
  errors: FieldErrors;
  /** An edit of the plan; it makes the preview stale. */
  onEdit: (next: RolloverPlanInput) => void;
}

/** Each class's move, chosen among the next form's classes or "leaves", with its count now and after the previewed run. */
export function ClassMoves({ state, plan, errors, current, onEdit }: PlanPartProps & { state: RolloverState; current: RolloverPreview | null }) {
  const levelOf = new Map(state.classes.map((c) => [c.class_id, c.form_level]));
  const countOf = new Map(state.classes.map((c) => [c.class_id, c.students]));
  const afterOf = new Map(current?.classes.map((c) => [c.class_id, c.after]) ?? []);
  return (
      <Box component="section" aria-labelledby="rollover-classes">
        <Typography id="rollover-classes" variant="h2" sx={{ fontSize: '1.15rem', mb: 1 }}>
          Classes
        </Typography>
        <TableContainer>
          <Table size="small" aria-label="Where each class goes" sx={PHONE_TABLE_SX}>
            <TableHead>
              <TableRow>
                <TableCell>Class</TableCell>
                <TableCell align="right">Now</TableCell>
                <TableCell>Moves to</TableCell>
                <TableCell align="right">After</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {plan.mapping.map((move, index) => {
                const level = levelOf.get(move.from) ?? 0;
                const choices = state.classes.filter((c) => c.form_level === level + 1);
                const error = errors[`mapping.${index}.to`] ?? errors[`mapping.${index}.from`];
                return (
                  <TableRow key={move.from} data-class={move.from}>
                    <TableCell component="th" scope="row">
                      {move.from}
                    </TableCell>
                    <TableCell align="right">{countOf.get(move.from) ?? 0}</TableCell>
                    <TableCell sx={{ minWidth: 130 }}>
                      <TextField
                        select
                        size="small"
                        fullWidth
                        label={`${move.from} moves to`}
                        value={move.to ?? LEAVES}
                        onChange={(event) => {
                          const to = event.target.value === LEAVES ? null : event.target.value;
                          onEdit({ ...plan, mapping: plan.mapping.map((m, i) => (i === index ? { ...m, to } : m)) });
                        }}
                        error={error !== undefined}
                        helperText={error}
                        slotProps={{ formHelperText: error ? { role: 'alert' } : {} }}
                      >
                        {choices.map((c) => (
                          <MenuItem key={c.class_id} value={c.class_id}>
                            {c.class_id}
                          </MenuItem>
                        ))}
                        <MenuItem value={LEAVES}>Leaves the school</MenuItem>
                      </TextField>
                    </TableCell>
                    <TableCell align="right" aria-label={`${move.from} after the rollover`}>
                      {current ? (afterOf.get(move.from) ?? 0) : '–'}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      </Box>
  );
}

/** The new year's terms, each with its start and end date, and the registration deadline. */
export function TermDates({ toLabel, plan, errors, onEdit }: PlanPartProps & { toLabel: string }) {
  return (
      <Box component="section" aria-labelledby="rollover-terms" sx={{ display: 'grid', gap: 1.5 }}>
        <Typography id="rollover-terms" variant="h2" sx={{ fontSize: '1.15rem' }}>
          Terms of {toLabel}
        </Typography>
        {plan.terms.map((term, index) => (
          <Box key={term.term} sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '160px 1fr 1fr' }, alignItems: 'start' }}>
            <Typography sx={{ pt: { sm: 1 } }}>
              Term {term.term} {TERM_NAMES[term.term]}
            </Typography>
            {(['start_date', 'end_date'] as const).map((field) => (
              <DayFirstDateField
                key={field}
                label={`Term ${term.term} ${field === 'start_date' ? 'starts' : 'ends'}`}
                value={term[field]}
                onChange={(value) => onEdit({ ...plan, terms: plan.terms.map((t, i) => (i === index ? { ...t, [field]: value } : t)) })}
                error={errors[`terms.${index}.${field}`]}
                required
              />
            ))}
          </Box>
        ))}
        <Box sx={{ maxWidth: 360, display: 'grid' }}>
          <DayFirstDateField
            label="Registration deadline (optional)"
            value={plan.registration_deadline ?? ''}
            onChange={(value) => onEdit({ ...plan, registration_deadline: value === '' ? null : value })}
            error={errors.registration_deadline}
            helperText="dd/MM/yyyy. Every registration window opens again with this deadline; empty: no deadline"
          />
        </Box>
      </Box>
  );
}
