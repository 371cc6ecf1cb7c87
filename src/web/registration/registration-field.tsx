import { memo, useEffect, useId, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { onlineManager, useQueryClient } from '@tanstack/react-query';
import {
  checkFieldValue,
  FIELD_MESSAGES,
  yesNoAnswer,
  PHONE_PREFIX,
  type FieldValue,
  type RegistrationField as CatalogueField,
} from '../../shared/registration.fields.js';
import { SAVE_INDICATOR_DELAY_MS } from '../../shared/school.constants.js';
import { errorMessage, isApiError } from '../lib/api-client.js';
import { DateField, READ_ONLY_LOOK } from './date-field.js';
import { useFieldProblems } from './field-problems.js';
import { registrationStatusKey, useLookupOptions, useSaveField } from './registration.api.js';
import { SaveIndicator, type SaveState } from './save-indicator.js';
import { YesNoField } from './yes-no-field.js';

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

/** How long to wait before sending again when the browser is online but the server did not answer. */
const RETRY_MS = 5000;
const OFFLINE_MESSAGE = 'You are offline. This will be saved when the connection is back.';
const UNREACHABLE_RETRY_MESSAGE = 'Could not reach the school portal. Trying again…';
const asText = (value: FieldValue): string => (value === null ? '' : String(value));


/**
 * One field of the registration record, drawn from its catalogue entry: it checks the input with
 * the same rules as the server and shows the message before any save; a valid change is saved on
 * blur (text) or on change (select, switch, date) with its own indicator (SPEC §2, §4, §5).
 * Nothing typed is dropped without a word: a refused value stays with its message (kept by the
 * frame while the student visits another step); a save the server refuses puts the stored value
 * back and says why; a save that cannot reach the server keeps the value, says so and is sent
 * again when the connection is back (D42).
 * Memoised: its props are the catalogue entry and plain values, so a save of one field does not
 * render every other field of the step again.
 */
export const RegistrationField = memo(function RegistrationField({ field, value, studentId, readOnly }: RegistrationFieldProps) {
  const save = useSaveField(studentId);
  const queryClient = useQueryClient();
  const { problems, report } = useFieldProblems(studentId);
  // Whether the field is still on screen: a save that ends after the person moved on (another
  // step, another child) records its outcome in the frame's store itself.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  // What the field showed when the student left it (problems.get is read on mount only).
  const [kept] = useState(() => problems.get(field.name));
  const [draft, setDraft] = useState<string>(kept?.draft ?? asText(value));
  const [message, setMessage] = useState<string | null>(kept?.message ?? null);
  const [state, setState] = useState<SaveState>(kept ? 'error' : 'idle');
  /** A valid value waiting for the connection. */
  const [waiting, setWaiting] = useState<FieldValue | undefined>(undefined);
  /** Bumped to make the date picker show the stored value again after a refused save. */
  const [revision, setRevision] = useState(0);
  const saved = useRef<FieldValue>(value);
  const inFlight = useRef<FieldValue | undefined>(undefined);
  const focused = useRef(false);

  useEffect(() => {
    report(field.name, message === null ? null : { draft, message, pending: waiting !== undefined });
  }, [report, field.name, draft, message, waiting]);

  // A value saved elsewhere (another tab, a reload) replaces the draft unless the user is typing;
  // on mount the draft is already right (a value kept from the last visit must stay).
  const shownValue = useRef(value);
  useEffect(() => {
    saved.current = value;
    if (shownValue.current === value) return;
    shownValue.current = value;
    if (!focused.current) setDraft(asText(value));
  }, [value]);

  // Sends a waiting value again: when the browser is back online, or after a pause when it
  // thinks it is online but the server did not answer.
  useEffect(() => {
    if (waiting === undefined) return;
    const again = () => void latestCommit.current(waiting);
    if (!navigator.onLine) {
      window.addEventListener('online', again);
      return () => window.removeEventListener('online', again);
    }
    const timer = window.setTimeout(again, RETRY_MS);
    return () => window.clearTimeout(timer);
  }, [waiting]);

  // A value still waiting when the student left the field is sent again on return.
  useEffect(() => {
    if (!kept?.pending) return;
    const check = checkFieldValue(field, kept.draft);
    if (check.ok) setWaiting(check.value);
  }, [kept, field]);

  async function commit(raw: unknown): Promise<void> {
    const check = checkFieldValue(field, raw);
    if (!check.ok) {
      setWaiting(undefined);
      setMessage(check.messages[0] ?? null);
      return;
    }
    setMessage(null);
    if (asText(check.value) === asText(saved.current)) {
      setWaiting(undefined);
      if (state === 'error') setState('idle');
      return;
    }
    if (inFlight.current !== undefined && asText(check.value) === asText(inFlight.current)) return;
    inFlight.current = check.value;
    setState('saving');
    const started = Date.now();
    let outcome: SaveState = 'saved';
    // Offline, Query holds the save and sends it when the browser is back online: say so meanwhile.
    if (!onlineManager.isOnline()) setMessage(OFFLINE_MESSAGE);
    try {
      await save.mutateAsync({ name: field.name, value: check.value });
      if (!mounted.current) report(field.name, null);
      saved.current = check.value;
      setWaiting(undefined);
      setMessage((shown) => (shown === OFFLINE_MESSAGE || shown === UNREACHABLE_RETRY_MESSAGE ? null : shown));
    } catch (error) {
      outcome = 'error';
      const fieldMessage = isApiError(error) ? error.errors?.[field.name]?.[0] : undefined;
      if (isApiError(error) && error.status === 0) {
        // No answer: the value is kept and sent again (the effect above), or, when the field has
        // left the screen, kept in the frame for this child and sent when the field is back.
        const unsent = navigator.onLine ? UNREACHABLE_RETRY_MESSAGE : OFFLINE_MESSAGE;
        if (!mounted.current) report(field.name, { draft: asText(check.value), message: unsent, pending: true });
        setMessage(unsent);
        setWaiting(check.value);
      } else if (fieldMessage !== undefined) {
        // The server's rule for this value: it stays in the field with the message, as the screen's own rules do.
        setWaiting(undefined);
        setMessage(fieldMessage);
      } else {
        // Refused for another reason: the field shows what is stored again, and why in words.
        setWaiting(undefined);
        setDraft(asText(saved.current));
        setRevision((n) => n + 1);
        setMessage(`Could not save: ${errorMessage(error)}`);
        // The window closed while the page was open: the banner and read-only fields follow.
        if (isApiError(error, 'registration_closed')) void queryClient.invalidateQueries({ queryKey: registrationStatusKey });
      }
    }
    inFlight.current = undefined;
    // The spec's indicator: 'saving' for at least 600 ms, then the check or the alert icon.
    await sleep(Math.max(0, SAVE_INDICATOR_DELAY_MS - (Date.now() - started)));
    setState(outcome);
  }
  // The retry effect above runs on the waiting value only and calls the render's latest commit.
  const latestCommit = useRef(commit);
  latestCommit.current = commit;

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
    ...(readOnly ? { sx: READ_ONLY_LOOK } : {}),
    onFocus: () => {
      focused.current = true;
    },
  };
  const helperProps: Record<string, string> = message !== null ? { role: 'alert' } : {};

  switch (field.control) {
    case 'yesno':
      return (
        <YesNoField
          field={field}
          answer={yesNoAnswer(draft)}
          readOnly={readOnly}
          indicator={indicator}
          message={message}
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
          key={revision}
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
