import { parseBirthDate } from '../../shared/dates.js';
import { OutlinedField } from '../components/outlined-field.js';

interface BirthDateFieldProps {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  autoComplete: string;
}

/**
 * The date of birth on the sign-in screens, typed as yyyy-MM-dd like every date on screen (SPEC
 * §9). A text field, not the browser's date input, which shows the computer's own order
 * (mm/dd/yyyy on many). Digits alone are taken too and shown as yyyy-MM-dd when the field is left.
 */
export function BirthDateField({ value, onChange, error, autoComplete }: BirthDateFieldProps) {
  return (
    <OutlinedField
      label="Date of birth"
      name="date_of_birth"
      autoComplete={autoComplete}
      placeholder="yyyy-MM-dd"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onBlur={() => onChange(parseBirthDate(value) ?? value)}
      error={error !== undefined}
      helperText={error ?? 'Year, month and day, e.g. 2014-03-09'}
      shrinkLabel
      htmlInput={{ maxLength: 10 }}
      required
    />
  );
}
