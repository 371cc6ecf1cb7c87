import { PasswordField } from './password-field.js';
import type { FieldErrors } from '../lib/form-errors.js';

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match.';

interface NewPasswordFieldsProps {
  password: string;
  confirmation: string;
  onPassword: (value: string) => void;
  onConfirmation: (value: string) => void;
  /** Messages under 'password' and 'confirmation'. */
  errors: FieldErrors;
  /** The first field's label: "New password" for a change, "Password" for a new account. */
  label?: string;
  /** What the first field says before anything is wrong (the rule it is held to). */
  hint?: string;
}

/**
 * A new password and its confirmation, as every form that sets one asks them: a student's or a
 * staff member's change and a family account's registration and reset link.
 */
export function NewPasswordFields({ password, confirmation, onPassword, onConfirmation, errors, label = 'New password', hint }: NewPasswordFieldsProps) {
  return (
    <>
      <PasswordField
        label={label}
        name="new_password"
        autoComplete="new-password"
        value={password}
        onChange={(event) => onPassword(event.target.value)}
        error={Boolean(errors['password'])}
        helperText={errors['password'] ?? hint}
        required
      />
      <PasswordField
        label="Confirm password"
        name="confirm_password"
        autoComplete="new-password"
        value={confirmation}
        onChange={(event) => onConfirmation(event.target.value)}
        error={Boolean(errors['confirmation'])}
        helperText={errors['confirmation']}
        required
      />
    </>
  );
}
