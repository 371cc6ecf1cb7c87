import { useState } from 'react';
import type { $ZodError } from 'zod/v4/core';
import { PasswordField } from './password-field.js';
import { isApiError } from '../lib/api-client.js';
import { fieldErrorsOf, firstFieldMessages, type FieldErrors } from '../lib/form-errors.js';

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match.';

/** What a mailed link's page says when the link's address was cut short. */
export const INCOMPLETE_LINK = 'This link is incomplete. Open it again from the message, or copy the whole address into the browser.';

/** A shared schema, as far as a form needs it. */
interface BodySchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: Pick<$ZodError, 'issues'> };
}

/**
 * A new password and its confirmation as a form's state, for every page that sets one from a
 * mailed link (a student's reset, a family account's address check and reset). `check` holds the
 * body to its schema and the two fields to each other, shows what is wrong under the fields and
 * answers the body to send, or null; `showRefusal` shows the server's field messages there.
 * `fields` goes to NewPasswordFields as it is.
 */
export function useNewPasswordForm() {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  function check<T>(schema: BodySchema<T>, bodyWith: (password: string) => unknown): T | null {
    const parsed = schema.safeParse(bodyWith(password));
    const found = parsed.success ? {} : fieldErrorsOf(parsed.error);
    if (confirmation !== password) found['confirmation'] = PASSWORDS_DO_NOT_MATCH;
    setErrors(found);
    return parsed.success && Object.keys(found).length === 0 ? parsed.data : null;
  }
  const showRefusal = (cause: unknown) => {
    if (isApiError(cause) && cause.errors) setErrors(firstFieldMessages(cause.errors));
  };
  return { fields: { password, confirmation, onPassword: setPassword, onConfirmation: setConfirmation, errors }, check, showRefusal };
}

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
