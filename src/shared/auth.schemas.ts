import { z } from 'zod/mini';
import { DAY_FIRST_FORMAT, parseBirthDate } from './dates.js';
import { SCHOOL_ACTIONS, STUDENT_ACTIONS, StaffRoleSchema } from './staff.js';
import { STAFF_PASSWORD_MIN_LENGTH, StaffPasswordSchema } from './staff.schemas.js';

/**
 * Request and response schemas of the sign-in calls (docs/requirements.md R3, R15), used by the server's
 * routes and the sign-in screens. Written with `zod/mini`, whose functions are bundled one by one:
 * these are the only schemas the login page loads, and the whole of zod would be 26 kB gzip of its
 * JS budget (docs/performance.md, web). Classic schemas take them as parts like any other.
 */

export const STUDENT_ID_PATTERN = /^[A-Za-z0-9-]{1,20}$/;
export const StudentIdSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'Student ID is required.'),
    z.maxLength(20, 'Student ID is at most 20 characters.'),
    z.regex(STUDENT_ID_PATTERN, 'Student ID has only letters, digits and dashes.'),
  );

/**
 * "Keep me signed in on this device" (D47): false or left out, the session cookie ends with the
 * browser; true, it lasts the session's absolute lifetime. The server's own limits apply either way.
 */
export const RememberSchema = z._default(z.boolean({ error: 'Keep me signed in is true or false.' }), false);

const PasswordInput = z.string().check(z.minLength(1, 'This field is required.'), z.maxLength(200, 'Password is at most 200 characters.'));

export const StudentLoginSchema = z.object({
  student_id: StudentIdSchema,
  password: PasswordInput,
  remember: RememberSchema,
});
export type StudentLoginInput = z.infer<typeof StudentLoginSchema>;

export const LoginAnswerSchema = z.object({
  name: z.string(),
  student_id: z.string(),
  first_login: z.int(),
  password_reset: z.int(),
});
export type LoginAnswer = z.infer<typeof LoginAnswerSchema>;

export const BIRTH_DATE_INVALID = `Enter the date of birth as ${DAY_FIRST_FORMAT}, e.g. 09/03/2014.`;

/**
 * A typed date of birth, read by the one reading of a typed date (`parseBirthDate`, D77):
 * dd/MM/yyyy as the forms' placeholder says, yyyy-MM-dd, or yyyymmdd. Answers 'yyyy-MM-dd'.
 */
export const BirthDateSchema = z.pipe(
  z.string({ error: BIRTH_DATE_INVALID }).check(
    z.trim(),
    z.minLength(1, 'Enter the date of birth.'),
    z.refine((value) => parseBirthDate(value) !== null, BIRTH_DATE_INVALID),
  ),
  z.transform((value: string) => parseBirthDate(value) ?? value),
);

/** First login: birth certificate pin or SEA number, plus date of birth (R3). */
export const FirstLoginSchema = z.object({
  identifier: z
    .string()
    .check(z.trim(), z.minLength(1, 'Enter the birth certificate pin or SEA number.'), z.maxLength(15, 'At most 15 characters.')),
  date_of_birth: BirthDateSchema,
  remember: RememberSchema,
});
export type FirstLoginInput = z.infer<typeof FirstLoginSchema>;

export const UserStatusSchema = z.array(z.object({ student_id: z.string(), first_login: z.int(), password_reset: z.int() }));
export type UserStatus = z.infer<typeof UserStatusSchema>;

/**
 * Every account's new password, a student's too (docs/decisions.md D77): the one rule of staff and
 * family accounts (`StaffPasswordSchema`: at least 12 characters), and the server also refuses a
 * common password and, for a student, their date of birth (it needs the list and the record).
 */
export const NewPasswordSchema = StaffPasswordSchema;
export const PASSWORD_MIN_LENGTH = STAFF_PASSWORD_MIN_LENGTH;
/** What a new password field says before anything is wrong: the rule above, in words. */
export const NEW_PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters, not a common password.`;

/**
 * Own change: `password` (+ `current_password` unless the account is in forced-change mode);
 * the forced change after a reset sends `reset_password` instead (R15).
 */
export const ChangePasswordSchema = z
  .object({
    student_id: StudentIdSchema,
    password: z.optional(NewPasswordSchema),
    reset_password: z.optional(NewPasswordSchema),
    current_password: z.optional(z.string().check(z.maxLength(200))),
  })
  .check(
    z.refine((body) => Boolean(body.password) !== Boolean(body.reset_password), {
      message: 'Send either password or reset_password.',
      path: ['password'],
    }),
  );
export type ChangePasswordInput = z.infer<typeof ChangePasswordSchema>;

export const AdminLoginSchema = z.object({
  username: z.string().check(z.trim(), z.minLength(1, 'Username field empty'), z.maxLength(50, 'Username is at most 50 characters.')),
  password: PasswordInput,
  remember: RememberSchema,
});
export type AdminLoginInput = z.infer<typeof AdminLoginSchema>;

/**
 * A completed staff sign-in: `role` is the account kind of the admin area (R11), `staff_role` the
 * job it does (D49); `second_factor_setup` when the session may only set up the second factor.
 */
export const AdminSignedInSchema = z.object({
  name: z.string(),
  role: z.literal('staff'),
  staff_role: StaffRoleSchema,
  second_factor_setup: z.optional(z.boolean()),
});
/** The password was right and the account has a second factor: no session yet, the code comes next. */
export const SecondFactorNeededSchema = z.object({ second_factor: z.literal('totp') });
export const AdminLoginAnswerSchema = z.union([AdminSignedInSchema, SecondFactorNeededSchema]);
export type AdminLoginAnswer = z.infer<typeof AdminLoginAnswerSchema>;

export const FindStudentIdSchema = z.object({
  first_name: z.string().check(z.trim(), z.minLength(1, 'This field is required.'), z.maxLength(20)),
  last_name: z.string().check(z.trim(), z.minLength(1, 'This field is required.'), z.maxLength(20)),
  date_of_birth: BirthDateSchema,
});
export type FindStudentIdInput = z.infer<typeof FindStudentIdSchema>;

export const ResetPasswordSchema = z.object({ student_id: StudentIdSchema });

/** A mailed link's secret (random, base64url): a family's links and a student's password reset link. */
export const MailedTokenSchema = z
  .string({ error: 'This link is incomplete.' })
  .check(z.trim(), z.regex(/^[A-Za-z0-9_-]{20,100}$/, 'This link is incomplete; open it again from the message.'));

/**
 * "Forgot your password?" of a student (D77): the Student ID and the date of birth. The link goes
 * to the family's addresses only when both match; the answer is the same words either way.
 */
export const StudentForgotPasswordSchema = z.object({ student_id: StudentIdSchema, date_of_birth: BirthDateSchema });
export type StudentForgotPasswordInput = z.infer<typeof StudentForgotPasswordSchema>;

/** Opening a student's reset link: the token and the new password, under every account's rule. */
export const StudentResetPasswordSchema = z.object({ token: MailedTokenSchema, password: NewPasswordSchema });
export type StudentResetPasswordInput = z.infer<typeof StudentResetPasswordSchema>;

/** A saved reset: the student signs in with the new password (the link's opener is often a parent). */
export const StudentResetAnswerSchema = z.object({ message: z.string(), student_id: z.string() });
export type StudentResetAnswer = z.infer<typeof StudentResetAnswerSchema>;

export const SessionUserSchema = z.object({
  /** `guardian`: a parent's family account, which opens its linked children's records. */
  role: z.enum(['student', 'staff', 'guardian']),
  name: z.string(),
  initials: z.string(),
  student_id: z.nullable(z.string()),
  username: z.nullable(z.string()),
  first_login: z.int(),
  password_reset: z.int(),
  /** The job of a staff account; null for a student. */
  staff_role: z.nullable(StaffRoleSchema),
  /** A form teacher's classes; empty for everyone else. */
  class_ids: z.array(z.string()),
  /** A family account's linked children (student IDs); empty for everyone else. */
  child_ids: z.optional(z.array(z.string())),
  /** A family account's sign-in address. */
  email: z.optional(z.nullable(z.string())),
  /** The school-wide actions this person may take (from the server's policy): what the admin area shows. */
  permissions: z.array(z.enum(SCHOOL_ACTIONS)),
  /** The second factor is required and not set up yet: the session reaches only its enrolment. */
  second_factor_setup: z.optional(z.boolean()),
  /**
   * What this person may do to each student they can see (a student: their own record; a form
   * teacher: their classes' students), from the same policy: the admin area's Edit and Reset password.
   */
  student_permissions: z.array(z.enum(STUDENT_ACTIONS)),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;
/**
 * What a disabled staff account reads, after its right password or at the next request of a
 * session it had (D84): that it is disabled, and whom to ask.
 */
export const STAFF_ACCOUNT_DISABLED_MESSAGE = 'Your staff account is disabled. Ask the school’s administrator to turn it on again.';

/** Who is signed in; `ended` says why a session just ended when the person should be told (a disabled account, D84). */
export const SessionAnswerSchema = z.object({ user: z.nullable(SessionUserSchema), ended: z.optional(z.literal('account_disabled')) });
export type SessionAnswer = z.infer<typeof SessionAnswerSchema>;

export const ChangePasswordAnswerSchema = z.object({ name: z.string() });
export const FindStudentIdAnswerSchema = z.object({ student_id: z.string() });
