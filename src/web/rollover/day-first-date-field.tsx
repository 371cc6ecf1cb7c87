import { useEffect, useState } from 'react';
import TextField from '@mui/material/TextField';
import { DAY_FIRST_FORMAT, isIsoDate, parseTypedDate, toDayFirstDate } from '../../shared/dates.js';

/** The message of a date the field cannot read. */
export const DAY_FIRST_DATE_MESSAGE = `Write the date as ${DAY_FIRST_FORMAT}, e.g. 07/09/2027.`;

interface DayFirstDateFieldProps {
  label: string;
  /** yyyy-MM-dd; '' for none; any other text is what was typed and could not be read. */
  value: string;
  /** The date read (yyyy-MM-dd), '' when emptied, or the typed text when it cannot be read. */
  onChange: (value: string) => void;
  error: string | undefined;
  helperText?: string;
  required?: boolean;
}

const shown = (value: string) => (isIsoDate(value) ? toDayFirstDate(value) : value);

/**
 * A date typed in the school's format, dd/MM/yyyy (docs/decisions.md D79): a text field, not the
 * browser's date input, which shows the computer's own order (mm/dd/yyyy on many). It reads a date
 * as every typed date is read (`parseTypedDate`) and shows one it read as dd/MM/yyyy once left.
 */
export function DayFirstDateField({ label, value, onChange, error, helperText, required = false }: DayFirstDateFieldProps) {
  const [text, setText] = useState(() => shown(value));
  // A new value from outside (not the one this field just reported) replaces the text.
  useEffect(() => {
    setText((current) => ((parseTypedDate(current) ?? current.trim()) === value ? current : shown(value)));
  }, [value]);
  return (
    <TextField
      size="small"
      label={label}
      placeholder={DAY_FIRST_FORMAT}
      value={text}
      required={required}
      onChange={(event) => {
        setText(event.target.value);
        const typed = event.target.value.trim();
        onChange(typed === '' ? '' : (parseTypedDate(typed) ?? typed));
      }}
      onBlur={() => setText(shown(value))}
      error={error !== undefined}
      helperText={error ?? helperText ?? DAY_FIRST_FORMAT}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { maxLength: 10 }, formHelperText: error ? { role: 'alert' } : {} }}
    />
  );
}
