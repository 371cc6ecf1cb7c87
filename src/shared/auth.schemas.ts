import { z } from 'zod/mini';
import { parseBirthDate } from './dates.js';
import { SCHOOL_ACTIONS, STUDENT_ACTIONS, StaffRoleSchema } from './staff.js';

/**
 * Request and response schemas of the sign-in calls (SPEC §7, DESIGN §5–6), used by the server's
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

export const PASSWORD_MIN_LENGTH = 8;
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

/** A birth date as 'yyyy-MM-dd' (what the screens show) or 'yyyymmdd' (DESIGN §6, still taken). */
export const BirthDateSchema = z
  .string()
  .check(
    z.trim(),
    z.refine((value) => parseBirthDate(value) !== null, 'Enter the date of birth as yyyy-MM-dd.'),
  );

/** First login: birth certificate pin or SEA number, plus date of birth (DESIGN §6). */
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

/** New password rule: at least 8 characters; the date-of-birth check needs the record (server). */
export const NewPasswordSchema = z
  .string()
  .check(
    z.minLength(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`),
    z.maxLength(200, 'Password is at most 200 characters.'),
  );

/**
 * Own change: `password` (+ `current_password` unless the account is in forced-change mode);
 * the spec's forced change after a reset sends `reset_password` instead (SPEC §7).
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
 * A completed staff sign-in: `role` is the account kind of the spec's admin area, `staff_role` the
 * job it does (D49); `second_factor_setup` when the session may only set up the second factor.
 */
export const AdminSignedInSchema = z.object({
  name: z.string(),
  role: z.literal('admin'),
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
  date_of_birth: z.string().check(z.trim(), z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter the date of birth as yyyy-MM-dd.')),
});
export type FindStudentIdInput = z.infer<typeof FindStudentIdSchema>;

export const ResetPasswordSchema = z.object({ student_id: StudentIdSchema });

export const SessionUserSchema = z.object({
  /** `guardian`: a parent's family account, which opens its linked children's records. */
  role: z.enum(['student', 'admin', 'guardian']),
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
export const SessionAnswerSchema = z.object({ user: z.nullable(SessionUserSchema) });
export type SessionAnswer = z.infer<typeof SessionAnswerSchema>;

export const ChangePasswordAnswerSchema = z.object({ name: z.string() });
export const FindStudentIdAnswerSchema = z.object({ student_id: z.string() });
