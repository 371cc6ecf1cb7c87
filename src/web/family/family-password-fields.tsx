import { STAFF_PASSWORD_MIN_LENGTH } from '../../shared/staff.schemas.js';
import { PasswordField } from '../components/password-field.js';
import type { FieldErrors } from '../lib/form-errors.js';

export const FAMILY_PASSWORDS_DO_NOT_MATCH = 'Passwords do not match.';

/** What the password field says before anything is wrong: the shared rule (FamilyPasswordSchema). */
export const FAMILY_PASSWORD_HINT = `At least ${STAFF_PASSWORD_MIN_LENGTH} characters, not a common password.`;

interface FamilyPasswordFieldsProps {
  password: string;
  confirmation: string;
  onPassword: (value: string) => void;
  onConfirmation: (value: string) => void;
  /** Messages under 'password' and 'confirmation'. */
  errors: FieldErrors;
}

/** A family account's new password and its confirmation (registration and the reset link). */
export function FamilyPasswordFields({ password, confirmation, onPassword, onConfirmation, errors }: FamilyPasswordFieldsProps) {
  return (
    <>
      <PasswordField
        label="Password"
        name="new_password"
        autoComplete="new-password"
        value={password}
        onChange={(event) => onPassword(event.target.value)}
        error={Boolean(errors['password'])}
        helperText={errors['password'] ?? FAMILY_PASSWORD_HINT}
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
