import { useEffect, useRef, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { format as formatDate, isValid, parseISO } from 'date-fns';
import type { RegistrationField as CatalogueField } from '../../shared/registration.fields.js';

/** A registration date field: MUI's date picker, with its own date-fns localisation. */

/** A read-only text or date field looks it: a dashed outline on a grey ground (D42). */
export const READ_ONLY_LOOK = {
  '& .MuiOutlinedInput-root, & .MuiPickersOutlinedInput-root': { bgcolor: 'action.hover' },
  '& .MuiOutlinedInput-notchedOutline, & .MuiPickersOutlinedInput-notchedOutline': { borderStyle: 'dashed' },
} as const;

interface DateFieldProps {
  field: CatalogueField;
  value: string;
  readOnly: boolean;
  indicator: ReactNode;
  message: string | null;
  /** The message says the value waits to be sent: not an error in the answer (D73). */
  waiting?: boolean;
  onDraft: (value: string) => void;
  onCommit: (value: string) => void;
  onFocus: () => void;
}

/** 'yyyy-MM-dd' ↔ Date for the picker; an incomplete entry stays as its invalid Date. */
function toDate(value: string): Date | null {
  if (value === '') return null;
  const parsed = parseISO(value);
  return isValid(parsed) ? parsed : null;
}

export function DateField({ field, value, readOnly, indicator, message, waiting = false, onDraft, onCommit, onFocus }: DateFieldProps) {
  const [picked, setPicked] = useState<Date | null>(toDate(value));
  // The latest entry, for the blur handler (the picker may call it before re-rendering).
  const latest = useRef<Date | null>(picked);
  const open = useRef(false);
  const wrapper = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const stored = toDate(value);
    // The same day as shown (always so on mount) keeps the picker's own state as it is.
    setPicked((shown) => (shown?.getTime() === stored?.getTime() ? shown : stored));
    latest.current = stored;
  }, [value]);
  const asIso = (date: Date | null): string => (date === null ? '' : isValid(date) ? formatDate(date, 'yyyy-MM-dd') : 'invalid');
  return (
    <Box
      ref={wrapper}
      sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}
      onFocus={onFocus}
      // Typed dates save when focus leaves the whole field (moving between the day, month and
      // year sections is not leaving it); calendar picks save when the calendar closes.
      onBlur={(event) => {
        if (open.current) return;
        if (event.relatedTarget instanceof Node && wrapper.current?.contains(event.relatedTarget)) return;
        onCommit(asIso(latest.current));
      }}
    >
      <LocalizationProvider dateAdapter={AdapterDateFns}>
        <DatePicker
          label={field.label}
          value={picked}
          format="yyyy-MM-dd"
          readOnly={readOnly}
          disableFuture={!field.allowFuture}
          sx={readOnly ? { flex: 1, ...READ_ONLY_LOOK } : { flex: 1 }}
          {...(field.minDate ? { minDate: parseISO(field.minDate) } : {})}
          {...(field.name === 'date_of_birth' ? { openTo: 'year' as const } : {})}
          onOpen={() => {
            open.current = true;
          }}
          onClose={() => {
            open.current = false;
            onCommit(asIso(latest.current));
          }}
          onChange={(date) => {
            latest.current = date;
            setPicked(date);
            onDraft(asIso(date));
          }}
          slotProps={{
            textField: {
              name: field.name,
              required: field.required,
              fullWidth: true,
              margin: 'none',
              error: message !== null && !waiting,
              helperText: message ?? 'yyyy-MM-dd',
              FormHelperTextProps: message !== null ? { role: waiting ? 'status' : 'alert' } : {},
            },
          }}
        />
      </LocalizationProvider>
      <Box sx={{ pt: 2 }}>{indicator}</Box>
    </Box>
  );
}

