import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import {
  ABSENCE_ATTACHMENT,
  ABSENCE_NOTE_TEXT_MAX,
  ABSENCE_PART_LABELS,
  ABSENCE_PARTS,
  ABSENCE_REASONS,
  SendAbsenceNoteFieldsSchema,
  type AbsencePart,
} from '../../shared/absence-notes.schemas.js';
import { acceptAttribute } from '../../shared/documents.schemas.js';
import { RangeDateField } from '../components/range-date-field.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { preparePhoto } from '../lib/prepare-photo.js';
import { ApiError, errorMessage } from '../lib/api-client.js';
import { fieldErrorsOf, fieldHelper, firstFieldMessages, type FieldErrors } from '../lib/form-errors.js';
import { useSendAbsenceNote } from './absence-notes.api.js';

/** The fields the form shows a message under; any other message (the student's) goes in the alert. */
const FORM_FIELDS = new Set(['date_from', 'date_to', 'part', 'reason', 'text', 'file']);

interface AbsenceNoteFormProps {
  studentId: string;
  /** The day the form opens on (the digest's "Explain this absence" link), or none. */
  initialDate?: string | null;
}

/**
 * "Explain an absence" (docs/decisions.md D93): the days, the part of the day, a reason from the
 * shared list, up to 500 characters and an optional doctor's note (a PDF or a photo, made small on
 * the phone as the documents' photos are). The shared schema checks before sending; the server's
 * messages appear on their fields. Sent once: a second click while sending does nothing.
 */
export function AbsenceNoteForm({ studentId, initialDate = null }: AbsenceNoteFormProps) {
  const show = useSnackbar();
  const send = useSendAbsenceNote();
  const sending = useRef(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const [dateFrom, setDateFrom] = useState<string | null>(initialDate);
  const [dateTo, setDateTo] = useState<string | null>(null);
  const [part, setPart] = useState<AbsencePart>('whole_day');
  const [reason, setReason] = useState('');
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);

  const chooseFile = (event: ChangeEvent<HTMLInputElement>) => {
    setFile(event.target.files?.[0] ?? null);
    setErrors(({ file: _file, ...rest }) => rest);
    event.target.value = '';
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    const fields = { student_id: studentId, date_from: dateFrom ?? '', date_to: dateTo ?? '', part, reason, text };
    const parsed = SendAbsenceNoteFieldsSchema.safeParse(fields);
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error));
      setProblem(null);
      return;
    }
    sending.current = true;
    setErrors({});
    setProblem(null);
    try {
      const answer = await send.mutateAsync({ ...parsed.data, file: file ? await preparePhoto(file) : null });
      show(answer.message);
      setDateFrom(null);
      setDateTo(null);
      setPart('whole_day');
      setReason('');
      setText('');
      setFile(null);
    } catch (error) {
      const onFields = error instanceof ApiError ? firstFieldMessages(error.errors) : {};
      setErrors(onFields);
      const shown = Object.keys(onFields).some((field) => FORM_FIELDS.has(field));
      setProblem(shown ? null : errorMessage(error));
    } finally {
      sending.current = false;
    }
  };

  const busy = send.isPending;
  const textHelp = fieldHelper(errors, 'text', `${text.length} / ${ABSENCE_NOTE_TEXT_MAX}`);
  return (
    <Box component="form" method="post" noValidate onSubmit={(event) => void submit(event)} aria-labelledby="absence-note-form-title" sx={{ display: 'grid', gap: 1 }}>
      <Typography variant="h2" id="absence-note-form-title">
        Explain an absence
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Days already missed or a planned absence ahead (an appointment), in this term. For one day, leave the last day empty.
      </Typography>
      <Box sx={{ display: 'grid', gap: { xs: 0, sm: 2 }, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <RangeDateField name="date_from" label="First day" value={dateFrom} onChange={setDateFrom} problem={errors.date_from} />
        <RangeDateField name="date_to" label="Last day" value={dateTo} onChange={setDateTo} problem={errors.date_to} required={false} />
      </Box>
      <FormControl error={errors.part !== undefined}>
        <FormLabel id="absence-part-label">Missed</FormLabel>
        <RadioGroup aria-labelledby="absence-part-label" name="part" value={part} onChange={(event) => setPart(event.target.value as AbsencePart)} row>
          {ABSENCE_PARTS.map((code) => (
            <FormControlLabel key={code} value={code} control={<Radio />} label={ABSENCE_PART_LABELS[code]} />
          ))}
        </RadioGroup>
        {errors.part !== undefined && <FormHelperText role="alert">{errors.part}</FormHelperText>}
      </FormControl>
      <TextField select name="reason" label="Reason" required value={reason} onChange={(event) => setReason(event.target.value)} {...fieldHelper(errors, 'reason')}>
        {ABSENCE_REASONS.map((item) => (
          <MenuItem key={item.code} value={item.code}>
            {item.label}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        name="text"
        label={reason === 'other' ? 'Why (required for Other)' : 'More about it (optional)'}
        multiline
        minRows={3}
        value={text}
        onChange={(event) => setText(event.target.value)}
        {...textHelp}
        slotProps={{ ...textHelp.slotProps, htmlInput: { maxLength: ABSENCE_NOTE_TEXT_MAX } }}
      />
      <Box>
        <input
          ref={fileInput}
          type="file"
          name="file"
          hidden
          accept={acceptAttribute(ABSENCE_ATTACHMENT)}
          onChange={chooseFile}
          aria-label="Attach a doctor's note (PDF or photo)"
        />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <Button variant="outlined" startIcon={<AttachFileIcon />} onClick={() => fileInput.current?.click()} disabled={busy}>
            {file ? 'Choose another file' : "Attach a doctor's note"}
          </Button>
          {file ? (
            <>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }} data-testid="absence-note-file">
                {file.name}
              </Typography>
              <Button size="small" onClick={() => setFile(null)} disabled={busy}>
                Remove
              </Button>
            </>
          ) : (
            <Typography variant="body2" color="text.secondary">
              Optional: a PDF or a photo.
            </Typography>
          )}
        </Box>
        {errors.file !== undefined && (
          <FormHelperText error role="alert">
            {errors.file}
          </FormHelperText>
        )}
      </Box>
      {problem && (
        <Alert severity="error" role="alert">
          {problem}
        </Alert>
      )}
      <Box>
        <Button type="submit" variant="contained" disabled={busy} sx={{ width: { xs: '100%', sm: 'auto' } }}>
          {busy ? 'Sending…' : 'Send to the school'}
        </Button>
      </Box>
      <Typography variant="caption" color="text.secondary">
        The form teacher, the office and the principal read your note; the school&apos;s answer appears below.
      </Typography>
    </Box>
  );
}
