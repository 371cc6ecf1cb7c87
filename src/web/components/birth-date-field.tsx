import { DAY_FIRST_FORMAT, parseBirthDate, toDayFirstDate } from '../../shared/dates.js';
import { OutlinedField } from './outlined-field.js';

interface BirthDateFieldProps {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  autoComplete: string;
  /** "Date of birth" unless named ("Child's date of birth"). */
  label?: string;
}

/**
 * A typed date of birth (the student's first sign-in and password reset, the Student ID finder,
 * the family's "Add a child"), written dd/MM/yyyy as the placeholder says (docs/decisions.md
 * D77). A text field, not the browser's date input, which shows the computer's own order
 * (mm/dd/yyyy on many). The shared reading (`parseBirthDate`) also takes yyyy-MM-dd and the digits
 * alone; a date it reads is shown as dd/MM/yyyy when the field is left.
 */
export function BirthDateField({ value, onChange, error, autoComplete, label = 'Date of birth' }: BirthDateFieldProps) {
  return (
    <OutlinedField
      label={label}
      name="date_of_birth"
      autoComplete={autoComplete}
      placeholder={DAY_FIRST_FORMAT}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onBlur={() => {
        const read = parseBirthDate(value);
        onChange(read === null ? value : toDayFirstDate(read));
      }}
      error={error !== undefined}
      helperText={error ?? 'Day, month and year, e.g. 09/03/2014'}
      shrinkLabel
      htmlInput={{ maxLength: 10 }}
      required
    />
  );
}
