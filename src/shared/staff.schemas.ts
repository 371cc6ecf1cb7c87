import { z } from 'zod/mini';
import { personNameCheck } from './person-name.js';
import { StaffRoleSchema, type StaffRole } from './staff.js';

/**
 * Staff accounts (docs/decisions.md D50): the administrator's calls that add, list and
 * change them, and a staff member's own password change. Used by the server's routes and by the
 * Staff Accounts screen and the staff "Choose a new password" form, so a rule is written once.
 */

/** Staff passwords: at least this long (OWASP ASVS 2.1.1; the list of common ones is the server's). */
export const STAFF_PASSWORD_MIN_LENGTH = 12;
export const STAFF_PASSWORD_TOO_SHORT = `At least ${STAFF_PASSWORD_MIN_LENGTH} characters.`;
export const STAFF_PASSWORD_TOO_COMMON = 'This password is too common; choose another.';

/** A new staff password: the length here; the server also refuses one on its list of common passwords. */
export const StaffPasswordSchema = z
  .string({ error: STAFF_PASSWORD_TOO_SHORT })
  .check(z.minLength(STAFF_PASSWORD_MIN_LENGTH, STAFF_PASSWORD_TOO_SHORT), z.maxLength(200, 'Password is at most 200 characters.'));

/** A user name as typed at the admin sign-in: letters, digits, dots, dashes and underscores. */
export const StaffUsernameSchema = z
  .string({ error: 'Enter a username.' })
  .check(
    z.trim(),
    z.minLength(1, 'Enter a username.'),
    z.maxLength(50, 'Username is at most 50 characters.'),
    z.regex(/^[A-Za-z0-9._-]+$/, 'Username has only letters, digits, dots, dashes and underscores.'),
  );

/** A staff member's name, as families and colleagues see it: the one rule of every person's name. */
export const StaffNameSchema = z
  .string({ error: 'Enter the name.' })
  .check(z.trim(), z.minLength(1, 'Enter the name.'), z.maxLength(100, 'Name is at most 100 characters.'), personNameCheck());

/** An e-mail address, or null (or left out) for none. */
export const StaffEmailSchema = z.nullable(
  z.string({ error: 'Enter a valid e-mail address.' }).check(z.trim(), z.maxLength(254, 'E-mail is at most 254 characters.'), z.email('Enter a valid e-mail address.')),
);

/** A form teacher's classes: form class ids, each once (whether they exist is the server's check). */
export const StaffClassIdsSchema = z.array(
  z.string({ error: 'A class is a form class id.' }).check(z.trim(), z.minLength(1, 'A class is a form class id.'), z.maxLength(10, 'A class is a form class id.')),
  { error: 'Classes are a list of form class ids.' },
).check(
  z.maxLength(40, 'At most 40 classes.'),
  z.refine((ids) => new Set(ids).size === ids.length, 'Each class once.'),
);

/**
 * The one rule joining a role and its classes: a form teacher has at least one class, nobody else
 * has any. Answers the problem, or null. The create schema and the server's change both use it.
 */
export function classesProblem(role: StaffRole, classIds: readonly string[]): string | null {
  if (role === 'form_teacher') return classIds.length === 0 ? 'Choose at least one class for a form teacher.' : null;
  return classIds.length > 0 ? 'Only a form teacher has classes.' : null;
}

export const CreateStaffSchema = z
  .object({
    username: StaffUsernameSchema,
    name: StaffNameSchema,
    role: StaffRoleSchema,
    class_ids: z._default(StaffClassIdsSchema, []),
    email: z.optional(StaffEmailSchema),
    sign_in_email: z.optional(StaffEmailSchema),
  })
  .check(
    z.superRefine((body, ctx) => {
      const problem = classesProblem(body.role, body.class_ids);
      if (problem) ctx.issues.push({ code: 'custom', message: problem, path: ['class_ids'], input: body.class_ids });
    }),
  );
export type CreateStaffInput = z.infer<typeof CreateStaffSchema>;

/**
 * A change of one account: any of its fields, or `reset_password: true` for a new one-time
 * password. A role and classes sent together are checked here; one sent alone is checked with
 * the stored other by the server.
 */
export const UpdateStaffSchema = z
  .object({
    name: z.optional(StaffNameSchema),
    role: z.optional(StaffRoleSchema),
    class_ids: z.optional(StaffClassIdsSchema),
    email: z.optional(StaffEmailSchema),
    sign_in_email: z.optional(StaffEmailSchema),
    disabled: z.optional(z.boolean({ error: 'Disabled is true or false.' })),
    reset_password: z.optional(z.literal(true, { error: 'reset_password is true, or left out.' })),
  })
  .check(
    z.refine((body) => Object.values(body).some((value) => value !== undefined), 'Send at least one change.'),
    z.superRefine((body, ctx) => {
      if (body.role === undefined || body.class_ids === undefined) return;
      const problem = classesProblem(body.role, body.class_ids);
      if (problem) ctx.issues.push({ code: 'custom', message: problem, path: ['class_ids'], input: body.class_ids });
    }),
  );
export type UpdateStaffInput = z.infer<typeof UpdateStaffSchema>;

export const StaffIdParamsSchema = z.object({
  id: z.coerce.number({ error: 'No staff account has this id.' }).check(z.int('No staff account has this id.'), z.positive('No staff account has this id.'), z.lte(2_147_483_647, 'No staff account has this id.')),
});

export const StaffAccountSchema = z.object({
  id: z.int(),
  username: z.string(),
  name: z.string(),
  role: StaffRoleSchema,
  /** A form teacher's classes; empty for every other role. */
  class_ids: z.array(z.string()),
  email: z.nullable(z.string()),
  /**
   * The school e-mail the school's provider (OpenID Connect, D96) signs this person in with,
   * lower-case, unique; null: no sign-in through the provider.
   */
  sign_in_email: z.nullable(z.string()),
  /** How the account signs in: with a password, through the school's provider, or both. */
  sign_in: z.object({
    password: z.boolean(),
    /** `waiting`: a school e-mail is set and not used yet; `linked`: the provider signed this person in. */
    school_account: z.enum(['none', 'waiting', 'linked']),
  }),
  disabled: z.boolean(),
  /** A second factor is set up (its enrolment is the TOTP feature's). */
  has_2fa: z.boolean(),
  /** New or reset: the next sign-in must choose a password first. */
  must_change_password: z.boolean(),
  /** The last successful sign-in (ISO time), from the audit log; null when none is recorded. */
  last_sign_in_at: z.nullable(z.string()),
});
export type StaffAccount = z.infer<typeof StaffAccountSchema>;
export const StaffListSchema = z.array(StaffAccountSchema);

/** An account with the one-time password just made for it: shown once, never stored in clear. */
export const StaffAccountWithPasswordSchema = z.object({
  ...StaffAccountSchema.shape,
  one_time_password: z.optional(z.string()),
});
export type StaffAccountWithPassword = z.infer<typeof StaffAccountWithPasswordSchema>;

/**
 * An administrator's reset of another staff member's second factor (docs/decisions.md D65): the
 * account as it is now, and the address its owner is told at, or null when it has no e-mail (the
 * administrator then tells them).
 */
export const ResetSecondFactorAnswerSchema = z.object({
  account: StaffAccountSchema,
  mailed_to: z.nullable(z.string()),
});
export type ResetSecondFactorAnswer = z.infer<typeof ResetSecondFactorAnswerSchema>;

/** The password a signed-in staff member types again to prove it is them (checked by the server). */
export const CurrentPasswordSchema = z
  .string({ error: 'Enter your current password.' })
  .check(z.minLength(1, 'Enter your current password.'), z.maxLength(200, 'Password is at most 200 characters.'));

/** A staff member's own change (and the forced one after a new account or a reset). */
export const ChangeStaffPasswordSchema = z.object({
  current_password: CurrentPasswordSchema,
  password: StaffPasswordSchema,
});
export type ChangeStaffPasswordInput = z.infer<typeof ChangeStaffPasswordSchema>;
export const ChangeStaffPasswordAnswerSchema = z.object({ name: z.string() });
