import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { format as formatDate, isValid, parseISO } from 'date-fns';

function toDate(value: string | null): Date | null {
  if (!value) return null;
  const parsed = parseISO(value);
  return isValid(parsed) ? parsed : null;
}

/** A picked Date as 'yyyy-MM-dd'; 'invalid' for a half-typed date, null for none. */
function toIso(date: Date | null): string | null {
  if (date === null) return null;
  return isValid(date) ? formatDate(date, 'yyyy-MM-dd') : 'invalid';
}

interface RangeDateFieldProps {
  name: string;
  label: string;
  /** 'yyyy-MM-dd', 'invalid' while half typed, or null. */
  value: string | null;
  onChange: (value: string | null) => void;
  /** The school's today: no later date can be picked (none: days ahead too, a planned absence). */
  today?: string | undefined;
  /** Left out, the field is optional (the last day of a one-day absence note). */
  required?: boolean;
  /** The range rule's message for this field (checkReportRange), shown as an alert. */
  problem?: string | undefined;
  margin?: 'normal' | 'none';
}

/**
 * One end of an attendance range: a date picker typed or picked as yyyy-MM-dd, never after today
 * when told today, its message under it (the attendance report's dialog, the class attendance
 * screen, an absence note's days).
 */
export function RangeDateField({ name, label, value, onChange, today, problem, margin = 'normal', required = true }: RangeDateFieldProps) {
  return (
    <LocalizationProvider dateAdapter={AdapterDateFns}>
      <DatePicker
        label={label}
        value={toDate(value)}
        format="yyyy-MM-dd"
        disableFuture={today !== undefined}
        {...(today !== undefined ? { maxDate: parseISO(today) } : {})}
        onChange={(date) => onChange(toIso(date))}
        slotProps={{
          textField: {
            name,
            required,
            fullWidth: true,
            margin,
            error: problem !== undefined,
            helperText: problem ?? 'yyyy-MM-dd',
            // PickersTextField takes the helper text's props here (not slotProps.formHelperText).
            FormHelperTextProps: problem !== undefined ? { role: 'alert' } : {},
          },
        }}
      />
    </LocalizationProvider>
  );
}
