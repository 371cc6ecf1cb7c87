import type { ReactNode } from 'react';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { REGISTRATION_STATES, REGISTRATION_STATE_LABELS, type RegistrationState } from '../../shared/students.schemas.js';

/** The student list's search box and its class and registration filters. */
export function StudentFilters({
  search,
  onSearch,
  classId,
  onClassId,
  classChoices,
  showsClassChoice,
  everyClass,
  registration,
  onRegistration,
}: {
  search: string;
  onSearch: (search: string) => void;
  classId: string;
  onClassId: (classId: string) => void;
  classChoices: ReadonlyArray<{ id: string }>;
  showsClassChoice: boolean;
  everyClass: boolean;
  registration: RegistrationState | '';
  onRegistration: (registration: RegistrationState | '') => void;
}) {
  return (
    <Box sx={{ display: 'grid', gap: 2, mb: 1.5, gridTemplateColumns: { xs: '1fr 1fr', md: 'minmax(0, 2fr) minmax(0, 1fr) minmax(0, 1fr)' } }}>
      <TextField
        label="Search students"
        placeholder="ID, name, pin, class or date of birth"
        type="search"
        value={search}
        onChange={(event) => onSearch(event.target.value)}
        size="small"
        sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}
        slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon aria-hidden /></InputAdornment> } }}
      />
      {showsClassChoice && (
        <TextField select label="Class" value={classId} onChange={(event) => onClassId(event.target.value)} size="small" fullWidth>
          <MenuItem value="">{everyClass ? 'All classes' : 'All my classes'}</MenuItem>
          {classChoices.map((formClass) => (
            <MenuItem key={formClass.id} value={formClass.id}>
              {formClass.id}
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField
        select
        label="Registration"
        value={registration}
        onChange={(event) => onRegistration(event.target.value as RegistrationState | '')}
        size="small"
        fullWidth
        sx={showsClassChoice ? undefined : { gridColumn: { xs: '1 / -1', md: 'span 2' } }}
      >
        <MenuItem value="">Any stage</MenuItem>
        {REGISTRATION_STATES.map((state) => (
          <MenuItem key={state} value={state}>
            {REGISTRATION_STATE_LABELS[state]}
          </MenuItem>
        ))}
      </TextField>
    </Box>
  );
}

/** The line under the filters: the count, former students, and the list's own buttons. */
export function StudentListToolbar({
  count,
  withFormer,
  onWithFormer,
  onExport,
  exportDisabled,
  classTools,
  onAdd,
}: {
  count: ReactNode;
  withFormer: boolean;
  onWithFormer: (withFormer: boolean) => void;
  /** Absent when the person may not export the call list. */
  onExport?: () => void;
  exportDisabled: boolean;
  classTools: ReactNode;
  /** Absent when the person may not add a student. */
  onAdd?: () => void;
}) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
      <Typography role="status" aria-live="polite" sx={{ fontWeight: 500 }}>
        {count}
      </Typography>
      <FormControlLabel control={<Checkbox size="small" checked={withFormer} onChange={(event) => onWithFormer(event.target.checked)} />} label="Include former students" />
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', ml: { sm: 'auto' } }}>
        {onExport && (
          <Button variant="outlined" startIcon={<FileDownloadIcon />} onClick={onExport} disabled={exportDisabled}>
            Export call list
          </Button>
        )}
        {classTools}
        {onAdd && (
          <Button variant="contained" startIcon={<PersonAddIcon />} onClick={onAdd}>
            Add student
          </Button>
        )}
      </Box>
    </Box>
  );
}
