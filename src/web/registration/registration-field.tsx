import { memo, useId, useRef } from 'react';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { yesNoAnswer, PHONE_PREFIX, type FieldValue, type RegistrationField as CatalogueField } from '../../shared/registration.fields.js';
import { DateField, READ_ONLY_LOOK } from './date-field.js';
import { asText, useFieldSave } from './field-save.js';
import { useLookupOptions } from './registration.api.js';
import { SaveIndicator } from './save-indicator.js';
import { FieldMessage } from './field-message.js';
import { YesNoField } from './yes-no-field.js';
import { useTypedEarly } from '../lib/use-typed-early.js';

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

/**
 * One field of the registration record, drawn from its catalogue entry: it checks the input with
 * the same rules as the server and shows the message before any save; a valid change is saved on
 * blur (text) or on change (select, switch, date) with its own indicator (docs/requirements.md R4, R5).
 * Nothing typed is lost (D73): until the server takes it, the value is a draft of the signed-in
 * account on this device (field-problems.ts), shown in the field whatever happens. Connection
 * trouble, a server failure, no answer in time or an ended session keep it "not saved yet" in
 * those words, and the frame's sender (draft-sender.tsx) sends it for its own child; a value the
 * server refuses stays with the server's message and is not sent again until changed.
 * Memoised: its props are the catalogue entry and plain values, so a save of one field does not
 * render every other field of the step again.
 */
export const RegistrationField = memo(function RegistrationField({ field, value, studentId, readOnly }: RegistrationFieldProps) {
  const { problem, draft, setDraft, state, setState, message, waiting, focused, commit, onType } = useFieldSave(field, value, studentId, readOnly);

  const indicator = <SaveIndicator state={state} fieldLabel={field.label} />;
  const helperText = message ?? hintFor(field);
  const common = {
    name: field.name,
    label: field.label,
    required: field.required,
    // Waiting is not a fault in the answer: said in plain text, not in red (D73).
    error: message !== null && !waiting,
    helperText,
    margin: 'none' as const,
    ...(readOnly ? { sx: READ_ONLY_LOOK } : {}),
    onFocus: () => {
      focused.current = true;
    },
  };
  const helperProps: Record<string, string> = message !== null ? (waiting ? { role: 'status', 'data-waiting': 'true' } : { role: 'alert' }) : {};

  switch (field.control) {
    case 'yesno':
      return (
        <YesNoField
          field={field}
          answer={yesNoAnswer(draft)}
          readOnly={readOnly}
          indicator={indicator}
          message={message}
          waiting={waiting}
          onAnswer={(answer) => {
            setDraft(asText(answer));
            void commit(answer);
          }}
        />
      );
    case 'switch':
      return (
        <SwitchField
          field={field}
          checked={draft === '1'}
          readOnly={readOnly}
          indicator={indicator}
          message={message}
          waiting={waiting}
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
          // The stored value, or a valid one not yet saved: the picker keeps its own partial entry while the user types.
          value={problem?.pending ? problem.draft : asText(value)}
          waiting={waiting}
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
    default:
      return (
        <TextInputField
          field={field}
          value={draft}
          readOnly={readOnly}
          indicator={indicator}
          common={common}
          helperProps={helperProps}
          onType={onType}
          onBlur={() => {
            focused.current = false;
            void commit(draft);
          }}
          onTypedEarly={(typed, stillFocused) => {
            onType(typed);
            focused.current = stillFocused;
            if (!stillFocused) void commit(typed);
          }}
        />
      );
  }
});

interface TextInputFieldProps {
  field: CatalogueField;
  value: string;
  readOnly: boolean;
  indicator: React.ReactNode;
  common: Record<string, unknown>;
  helperProps: Record<string, string>;
  onType: (value: string) => void;
  onBlur: () => void;
  /** Typed before the page's code arrived (lib/use-typed-early.ts). */
  onTypedEarly: (typed: string, stillFocused: boolean) => void;
}

/** Text, e-mail, phone, number and long-text fields: a text box, with a lookup's suggestions when it has one. */
function TextInputField({ field, value, readOnly, indicator, common, helperProps, onType, onBlur, onTypedEarly }: TextInputFieldProps) {
  const isPhone = field.control === 'phone';
  const isNumber = field.control === 'number';
  const inputRef = useRef<HTMLInputElement | HTMLTextAreaElement>(null);
  useTypedEarly(inputRef, value, onTypedEarly);
  return (
    <>
      <TextField
        {...common}
        inputRef={inputRef}
        value={value}
        type={field.control === 'email' ? 'email' : 'text'}
        multiline={field.control === 'textarea'}
        minRows={field.control === 'textarea' ? 2 : undefined}
        onChange={(event) => onType(event.target.value)}
        onBlur={onBlur}
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
  /** The message says the value waits for the connection (not a problem with the answer). */
  waiting: boolean;
  onToggle: (checked: boolean) => void;
}

function SwitchField({ field, checked, readOnly, indicator, message, waiting, onToggle }: SwitchFieldProps) {
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
      {message && <FieldMessage id={helperId} message={message} waiting={waiting} />}
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
