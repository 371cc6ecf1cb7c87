import { useId } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { FieldMessage } from './field-message.js';
import { YES_NO_WORDS, type RegistrationField as CatalogueField, type YesNoAnswer } from '../../shared/registration.fields.js';

interface YesNoFieldProps {
  field: CatalogueField;
  /** The answer shown: 1 Yes, 0 No, null not answered. */
  answer: YesNoAnswer;
  readOnly: boolean;
  indicator: React.ReactNode;
  message: string | null;
  /** The message says the answer waits for the connection (not a problem with the answer). */
  waiting: boolean;
  onAnswer: (answer: YesNoAnswer) => void;
}

/**
 * A yes/no question of the record (D75): the question in words, Yes and No with neither chosen
 * until the family answers, and "Clear answer" to make it not answered again. Radio buttons, so
 * Tab reaches the group and the arrow keys choose; the two choices sit side by side at 390 px.
 */
export function YesNoField({ field, answer, readOnly, indicator, message, waiting, onAnswer }: YesNoFieldProps) {
  const questionId = useId();
  const stateId = useId();
  const messageId = useId();
  const question = field.question ?? field.label;
  return (
    <Box role="group" aria-labelledby={questionId} data-answer={answer === null ? 'none' : String(answer)}>
      <Typography id={questionId} variant="body2" sx={{ fontWeight: 500 }}>
        {question}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 1 }}>
        <RadioGroup
          row
          name={field.name}
          value={answer === null ? '' : String(answer)}
          aria-labelledby={questionId}
          aria-describedby={message ? `${stateId} ${messageId}` : stateId}
          onChange={(event) => onAnswer(event.target.value === '1' ? 1 : 0)}
        >
          <FormControlLabel value="1" control={<Radio disabled={readOnly} />} label={YES_NO_WORDS['1']} />
          <FormControlLabel value="0" control={<Radio disabled={readOnly} />} label={YES_NO_WORDS['0']} />
        </RadioGroup>
        {answer !== null && !readOnly && (
          <Button size="small" onClick={() => onAnswer(null)} aria-label={`Clear the answer: ${question}`}>
            Clear answer
          </Button>
        )}
        {indicator}
      </Box>
      <FormHelperText id={stateId} sx={{ mt: 0 }}>
        {answer === null ? YES_NO_WORDS.null : `Answered ${YES_NO_WORDS[answer === 1 ? '1' : '0']}`}
      </FormHelperText>
      {message && <FieldMessage id={messageId} message={message} waiting={waiting} />}
    </Box>
  );
}
