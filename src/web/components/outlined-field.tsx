import { useId, type ChangeEvent, type FocusEvent, type ReactNode } from 'react';
import { useDefaultProps } from '@mui/material/DefaultPropsProvider';
import FormControl, { type FormControlProps } from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import type { InputBaseComponentProps } from '@mui/material/InputBase';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';

export interface OutlinedFieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  onBlur?: (event: FocusEvent<HTMLInputElement>) => void;
  type?: string;
  autoComplete?: string;
  placeholder?: string;
  required?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  /** Keeps the label above the box even while the field is empty (for a placeholder or hint). */
  shrinkLabel?: boolean;
  endAdornment?: ReactNode;
  /** Attributes of the `<input>` itself (inputMode, maxLength). */
  htmlInput?: InputBaseComponentProps;
}

/**
 * An outlined text field with the markup of MUI's `TextField` (label tied to the input, helper
 * text as its description) composed from the parts TextField uses for this variant. TextField
 * itself also imports `Select` and with it Menu, Popover and Modal, which the sign-in screens never
 * show: about 10 kB of the login page's first load (docs/performance.md, web). The theme's
 * `MuiTextField` defaults (full width, normal margin) apply here too.
 */
export function OutlinedField(props: OutlinedFieldProps) {
  const { fullWidth, margin } = useDefaultProps<Pick<FormControlProps, 'fullWidth' | 'margin'>>({ props: {}, name: 'MuiTextField' });
  const { label, name, value, onChange, onBlur, type, autoComplete, placeholder, required = false, error = false } = props;
  const { helperText, shrinkLabel, endAdornment, htmlInput } = props;
  const id = useId();
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl fullWidth={fullWidth ?? false} margin={margin ?? 'none'} required={required} error={error} variant="outlined">
      <InputLabel htmlFor={id} id={`${id}-label`} {...(shrinkLabel !== undefined ? { shrink: shrinkLabel } : {})}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        name={name}
        type={type}
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        autoComplete={autoComplete}
        placeholder={placeholder}
        aria-describedby={helperTextId}
        label={label}
        fullWidth={fullWidth ?? false}
        endAdornment={endAdornment}
        inputProps={htmlInput}
        {...(shrinkLabel !== undefined ? { notched: shrinkLabel } : {})}
      />
      {helperText && <FormHelperText id={helperTextId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
