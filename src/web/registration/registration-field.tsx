import { memo, useEffect, useId, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useQueryClient } from '@tanstack/react-query';
import {
  checkFieldValue,
  FIELD_MESSAGES,
  PHONE_PREFIX,
  type FieldValue,
  type RegistrationField as CatalogueField,
} from '../../shared/registration.fields.js';
import { SAVE_INDICATOR_DELAY_MS } from '../../shared/school.constants.js';
import { isApiError } from '../lib/api-client.js';
import { DateField } from './date-field.js';
import { registrationStatusKey, useLookupOptions, useSaveField } from './registration.api.js';
import { SaveIndicator, type SaveState } from './save-indicator.js';

interface RegistrationFieldProps {
  field: CatalogueField;
  /** The stored value (from the record). */
  value: FieldValue;
  studentId: string;
  readOnly: boolean;
}

/** The short hint under a field when it has no message. */
function hintFor(field: CatalogueField): string | undefined {
  if (field.control === 'phone') return '7 digits';
  if (field.control === 'textarea' && field.required) return "Write 'None' if there is nothing to tell.";
  if (field.control === 'number' && field.format === 'year') return 'yyyy';
  return undefined;
}

const sleep = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));
const asText = (value: FieldValue): string => (value === null ? '' : String(value));

/**
 * One field of the registration record, drawn from its catalogue entry: it checks the input with
 * the same rules as the server and shows the message before any save; a valid change is saved on
 * blur (text) or on change (select, switch, date) with its own indicator (SPEC §2, §4, §5).
 * Memoised: its props are the catalogue entry and plain values, so a save of one field does not
 * render every other field of the step again.
 */
export const RegistrationField = memo(function RegistrationField({ field, value, studentId, readOnly }: RegistrationFieldProps) {
  const save = useSaveField(studentId);
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<string>(asText(value));
  const [message, setMessage] = useState<string | null>(null);
  const [state, setState] = useState<SaveState>('idle');
  const saved = useRef<FieldValue>(value);
  const inFlight = useRef<FieldValue | undefined>(undefined);
  const focused = useRef(false);

  // A value saved elsewhere (another tab, a reload) replaces the draft unless the user is typing.
  useEffect(() => {
    saved.current = value;
    if (!focused.current) setDraft(asText(value));
  }, [value]);

  async function commit(raw: unknown): Promise<void> {
    const check = checkFieldValue(field, raw);
    if (!check.ok) {
      setMessage(check.messages[0] ?? null);
      return;
    }
    setMessage(null);
    if (asText(check.value) === asText(saved.current)) return;
    if (inFlight.current !== undefined && asText(check.value) === asText(inFlight.current)) return;
    inFlight.current = check.value;
    setState('saving');
    const started = Date.now();
    let outcome: SaveState = 'saved';
    try {
      await save.mutateAsync({ name: field.name, value: check.value });
      saved.current = check.value;
    } catch (error) {
      outcome = 'error';
      if (isApiError(error)) {
        setMessage(error.errors?.[field.name]?.[0] ?? error.displayMessage);
        // The window closed while the page was open: the banner and read-only fields follow.
        if (error.code === 'registration_closed') void queryClient.invalidateQueries({ queryKey: registrationStatusKey });
      } else {
        setMessage('Could not save. Please try again.');
      }
    }
    inFlight.current = undefined;
    // The spec's indicator: 'saving' for at least 600 ms, then the check or the alert icon.
    await sleep(Math.max(0, SAVE_INDICATOR_DELAY_MS - (Date.now() - started)));
    setState(outcome);
  }

  /** Rules broken while typing show at once; 'required' waits for the blur. */
  function onType(next: string): void {
    setDraft(next);
    const check = checkFieldValue(field, next);
    setMessage(!check.ok && check.messages[0] !== FIELD_MESSAGES.required ? (check.messages[0] ?? null) : null);
    if (state !== 'saving') setState('idle');
  }

  const indicator = <SaveIndicator state={state} fieldLabel={field.label} />;
  const helperText = message ?? hintFor(field);
  const common = {
    name: field.name,
    label: field.label,
    required: field.required,
    error: message !== null,
    helperText,
    margin: 'none' as const,
    onFocus: () => {
      focused.current = true;
    },
  };
  const helperProps: Record<string, string> = message !== null ? { role: 'alert' } : {};

  switch (field.control) {
    case 'switch':
      return (
        <SwitchField
          field={field}
          checked={draft === '1'}
          readOnly={readOnly}
          indicator={indicator}
          message={message}
          onToggle={(checked) => {
            setDraft(checked ? '1' : '0');
            void commit(checked ? 1 : 0);
          }}
        />
      );
    case 'select':
      return (
        <SelectField
          field={field}
          value={draft}
          readOnly={readOnly}
          indicator={indicator}
          common={common}
          helperProps={helperProps}
          onPick={(next) => {
            setDraft(next);
            void commit(next);
          }}
          onBlur={() => {
            focused.current = false;
          }}
        />
      );
    case 'date':
      return (
        <DateField
          field={field}
          // The stored value: the picker keeps its own partial entry while the user types.
          value={asText(value)}
          readOnly={readOnly}
          indicator={indicator}
          message={message}
          onDraft={(next) => {
            setDraft(next);
            if (state !== 'saving') setState('idle');
          }}
          onCommit={(next) => {
            focused.current = false;
            void commit(next);
          }}
          onFocus={() => {
            focused.current = true;
          }}
        />
      );
    default: {
      const isPhone = field.control === 'phone';
      const isNumber = field.control === 'number';
      return (
        <>
          <TextField
            {...common}
            value={draft}
            type={field.control === 'email' ? 'email' : 'text'}
            multiline={field.control === 'textarea'}
            minRows={field.control === 'textarea' ? 2 : undefined}
            onChange={(event) => onType(event.target.value)}
            onBlur={() => {
              focused.current = false;
              void commit(draft);
            }}
            slotProps={{
              htmlInput: {
                readOnly,
                inputMode: isPhone || isNumber ? 'numeric' : field.control === 'email' ? 'email' : undefined,
                autoComplete: 'off',
                ...(field.lookup ? { list: `${field.name}-suggestions` } : {}),
              },
              input: {
                ...(isPhone ? { startAdornment: <InputAdornment position="start">{PHONE_PREFIX}</InputAdornment> } : {}),
                endAdornment: <InputAdornment position="end">{indicator}</InputAdornment>,
              },
              formHelperText: helperProps,
            }}
          />
          {field.lookup && <LookupSuggestions id={`${field.name}-suggestions`} field={field} />}
        </>
      );
    }
  }
});

/** Free-text fields with a lookup (previous school) suggest its values without limiting to them. */
function LookupSuggestions({ id, field }: { id: string; field: CatalogueField }) {
  const options = useLookupOptions(field.lookup).data ?? [];
  return (
    <datalist id={id}>
      {options.map((option) => (
        <option key={option.value} value={option.value} />
      ))}
    </datalist>
  );
}

interface SwitchFieldProps {
  field: CatalogueField;
  checked: boolean;
  readOnly: boolean;
  indicator: React.ReactNode;
  message: string | null;
  onToggle: (checked: boolean) => void;
}

function SwitchField({ field, checked, readOnly, indicator, message, onToggle }: SwitchFieldProps) {
  const helperId = useId();
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <FormControlLabel
          control={
            <Switch
              name={field.name}
              checked={checked}
              disabled={readOnly}
              onChange={(event) => onToggle(event.target.checked)}
              slotProps={{ input: message ? { 'aria-describedby': helperId } : {} }}
            />
          }
          label={field.label}
        />
        {indicator}
      </Box>
      {message && (
        <FormHelperText id={helperId} error role="alert">
          {message}
        </FormHelperText>
      )}
    </Box>
  );
}

interface SelectFieldProps {
  field: CatalogueField;
  value: string;
  readOnly: boolean;
  indicator: React.ReactNode;
  common: Record<string, unknown>;
  helperProps: Record<string, string>;
  onPick: (value: string) => void;
  onBlur: () => void;
}

function SelectField({ field, value, readOnly, indicator, common, helperProps, onPick, onBlur }: SelectFieldProps) {
  const lookup = useLookupOptions(field.lookup);
  const options = field.options ? field.options.map((option) => ({ value: option, label: option })) : (lookup.data ?? []);
  // A stored value the list no longer has is still shown, so nothing silently changes.
  const known = value === '' || options.some((option) => option.value === value);
  return (
    <TextField
      {...common}
      select
      value={lookup.isPending && field.lookup ? '' : value}
      onChange={(event) => onPick(event.target.value)}
      onBlur={onBlur}
      disabled={readOnly}
      slotProps={{
        input: { endAdornment: <InputAdornment position="end" sx={{ mr: 3 }}>{indicator}</InputAdornment> },
        formHelperText: helperProps,
      }}
    >
      {!field.required && (
        <MenuItem value="">
          <em>Not given</em>
        </MenuItem>
      )}
      {field.required && value === '' && <MenuItem value="" sx={{ display: 'none' }} />}
      {!known && <MenuItem value={value}>{value}</MenuItem>}
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
