import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { format, isValid, parseISO } from 'date-fns';
import { ADMIN_MIN_BIRTH_DATE, adminEditFieldLabel } from '../../shared/students.schemas.js';
import { fieldHelper } from '../lib/form-errors.js';

const MIN_DATE = parseISO(ADMIN_MIN_BIRTH_DATE);
/** A typed date the picker cannot read: kept as text, so the shared rule names the problem instead of an empty date being sent or called missing. */
const UNREADABLE_DATE = 'not a date';

interface BirthDatePickerProps {
  /** yyyy-MM-dd, '' for none, or what was typed that is not a date. */
  value: string;
  onChange: (value: string) => void;
  /** The shared rule's or the server's message, shown under the field. */
  message: string | undefined;
}

/** A student's date of birth as the office enters it (Add and Edit Student): picked or typed as yyyy-MM-dd, from 1950. */
export function BirthDatePicker({ value, onChange, message }: BirthDatePickerProps) {
  const dateValue = value && value !== UNREADABLE_DATE ? parseISO(value) : null;
  const choose = (date: Date | null) => onChange(date === null ? '' : isValid(date) ? format(date, 'yyyy-MM-dd') : UNREADABLE_DATE);
  return (
    <LocalizationProvider dateAdapter={AdapterDateFns}>
      <DatePicker
        label={adminEditFieldLabel('date_of_birth')}
        value={dateValue && isValid(dateValue) ? dateValue : null}
        openTo="year"
        views={['year', 'month', 'day']}
        format="yyyy-MM-dd"
        minDate={MIN_DATE}
        disableFuture
        onChange={choose}
        slotProps={{
          textField: {
            name: 'date_of_birth',
            required: true,
            fullWidth: true,
            margin: 'dense',
            ...fieldHelper({ date_of_birth: message }, 'date_of_birth', `yyyy-MM-dd, from ${ADMIN_MIN_BIRTH_DATE}`),
          },
        }}
      />
    </LocalizationProvider>
  );
}
