import { z } from 'zod/mini';
import { BirthDateSchema, MailedTokenSchema, RememberSchema, StudentIdSchema } from './auth.schemas.js';
import { StaffPasswordSchema } from './staff.schemas.js';
import { personNameCheck } from './person-name.js';

/**
 * Family accounts (docs/decisions.md D54): a parent or guardian signs in with an e-mail
 * address and reaches each child linked to the account. The calls' bodies and answers, used by the
 * server's routes and by the family screens, so each rule is written once.
 */

export const FAMILY_EMAIL_INVALID = 'Enter a valid e-mail address.';

/** An e-mail address as a family types it: trimmed and lower-cased (one account per address). */
export const FamilyEmailSchema = z
  .string({ error: FAMILY_EMAIL_INVALID })
  .check(z.trim(), z.toLowerCase(), z.minLength(1, 'Enter your e-mail address.'), z.maxLength(254, 'E-mail is at most 254 characters.'), z.email(FAMILY_EMAIL_INVALID));

/**
 * A family account's password: the staff rule (at least 12 characters, and the server refuses
 * common ones), since the account opens several children's records.
 */
export const FamilyPasswordSchema = StaffPasswordSchema;

/** A parent's name, as mails and the office's screens show it: the one rule of every person's name. */
export const FamilyNameSchema = z
  .string({ error: 'Enter your name.' })
  .check(z.trim(), z.minLength(1, 'Enter your name.'), z.maxLength(100, 'Name is at most 100 characters.'), personNameCheck());

/**
 * A registration: name and e-mail only. The password is chosen on the confirmation page, by
 * whoever opened the mailed link (docs/decisions.md D66): the person who proves the mailbox.
 */
export const FamilyRegisterSchema = z.object({ name: FamilyNameSchema, email: FamilyEmailSchema });
export type FamilyRegisterInput = z.infer<typeof FamilyRegisterSchema>;

/** A link's token from a message (random, base64url). */
export const FamilyTokenSchema = z.object({ token: MailedTokenSchema });
export type FamilyTokenInput = z.infer<typeof FamilyTokenSchema>;

/** Opening the confirmation link: the token and the account's password, chosen now (D66). */
export const FamilyVerifySchema = z.object({ token: FamilyTokenSchema.shape.token, password: FamilyPasswordSchema });
export type FamilyVerifyInput = z.infer<typeof FamilyVerifySchema>;

export const FamilyLoginSchema = z.object({
  email: FamilyEmailSchema,
  password: z.string({ error: 'Enter your password.' }).check(z.minLength(1, 'Enter your password.'), z.maxLength(200, 'Password is at most 200 characters.')),
  remember: RememberSchema,
});
export type FamilyLoginInput = z.infer<typeof FamilyLoginSchema>;

export const FamilyForgotPasswordSchema = z.object({ email: FamilyEmailSchema });
export type FamilyForgotPasswordInput = z.infer<typeof FamilyForgotPasswordSchema>;

export const FamilyResetPasswordSchema = z.object({ token: FamilyTokenSchema.shape.token, password: FamilyPasswordSchema });
export type FamilyResetPasswordInput = z.infer<typeof FamilyResetPasswordSchema>;

/** Letters and digits a person cannot misread on a printed letter (no 0/O, 1/I/L). */
export const FAMILY_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const FAMILY_CODE_LENGTH = 8;
const FAMILY_CODE_INVALID = `Enter the ${FAMILY_CODE_LENGTH}-character code from the school's letter.`;

/** A family code as typed: spaces and dashes dropped, upper-cased, then 8 letters and digits. */
export const FamilyCodeSchema = z
  .string({ error: FAMILY_CODE_INVALID })
  .check(
    z.overwrite((text) => text.replace(/[\s-]/g, '').toUpperCase()),
    z.regex(new RegExp(`^[${FAMILY_CODE_ALPHABET}]{${FAMILY_CODE_LENGTH}}$`), FAMILY_CODE_INVALID),
  );

/** The code as printed and shown: two groups of four. */
export function formatFamilyCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

export const FamilyLinkSchema = z.object({
  code: FamilyCodeSchema,
  /** Typed dd/MM/yyyy (or yyyy-MM-dd); answered as yyyy-MM-dd (D77). */
  date_of_birth: BirthDateSchema,
});
export type FamilyLinkInput = z.infer<typeof FamilyLinkSchema>;

/** A family account's child, as the child switcher shows it. */
export const FamilyChildSchema = z.object({
  student_id: z.string(),
  first_name: z.nullable(z.string()),
  last_name: z.nullable(z.string()),
  class_id: z.nullable(z.string()),
  /** "Form 4 4A", or null for a child in no class. */
  class_name: z.nullable(z.string()),
  /** Everyone linked to this child, this account first: a parent sees who else reaches the record. */
  guardians: z.array(z.object({ name: z.string(), is_you: z.boolean() })),
});
export type FamilyChild = z.infer<typeof FamilyChildSchema>;
export const FamilyChildListSchema = z.array(FamilyChildSchema);

export const FamilyMessageAnswerSchema = z.object({ message: z.string() });
export type FamilyMessageAnswer = z.infer<typeof FamilyMessageAnswerSchema>;

/** A completed family sign-in (and the answer of a verified registration, which signs in). */
export const FamilySignedInSchema = z.object({ name: z.string(), email: z.string(), role: z.literal('guardian') });
export type FamilySignedIn = z.infer<typeof FamilySignedInSchema>;

/** Linking a child answers the child, as the switcher lists it. */
export const FamilyLinkAnswerSchema = z.object({ message: z.string(), child: FamilyChildSchema });
export type FamilyLinkAnswer = z.infer<typeof FamilyLinkAnswerSchema>;

export const FamilyCodeAnswerSchema = z.object({ code: z.string(), expires_at: z.string() });
export type FamilyCodeAnswer = z.infer<typeof FamilyCodeAnswerSchema>;

export const FamilyInviteSchema = z.object({ email: FamilyEmailSchema });
export type FamilyInviteInput = z.infer<typeof FamilyInviteSchema>;

/** The registration record's parent e-mail fields (students columns), in the order they are offered. */
export const RECORD_PARENT_EMAIL_FIELDS = ['email_mother', 'email_father', 'email_guardian'] as const;
export type RecordParentEmailField = (typeof RECORD_PARENT_EMAIL_FIELDS)[number];

/** A student invites only an address already on the record as a parent's (D66); the office any. */
export const STUDENT_INVITE_RECORD_ONLY =
  "You can invite only a parent's e-mail that is on your registration record. Ask the school office to send an invitation to another address.";

/** An invitation opened while signed in with an account of another address (D66). */
export const INVITATION_OTHER_ADDRESS = (signedInAs: string) =>
  `This invitation was sent to another e-mail address, and you are signed in as ${signedInAs}. Sign out, then sign in (or create a family account) with the address the invitation was sent to, and open the link again.`;

/** The office links an existing family account to a student by its e-mail. */
export const OfficeLinkSchema = z.object({ email: FamilyEmailSchema });
export type OfficeLinkInput = z.infer<typeof OfficeLinkSchema>;

export const LINKED_VIA_LABELS = { code: 'Family code', invitation: 'Invitation', office: 'Linked by the office', demo: 'Demo school' } as const;

/** Who reaches a student's record, for the office (and the invitations still open). */
export const StudentFamilySchema = z.object({
  guardians: z.array(
    z.object({
      user_id: z.int(),
      name: z.string(),
      email: z.string(),
      linked_via: z.enum(['code', 'invitation', 'office', 'demo']),
      linked_at: z.string(),
    }),
  ),
  invitations: z.array(z.object({ email: z.string(), created_at: z.string(), expires_at: z.string() })),
  /**
   * The student's own changes to a parent e-mail of the record, newest first (D66): a student
   * could otherwise point the school's messages and invitations at an address of their choosing.
   */
  parent_email_changes: z.array(
    z.object({ field: z.enum(RECORD_PARENT_EMAIL_FIELDS), old_value: z.nullable(z.string()), new_value: z.nullable(z.string()), changed_at: z.string() }),
  ),
  /** When the newest unused family code expires, or null when none is waiting. */
  code_expires_at: z.nullable(z.string()),
});
export type StudentFamily = z.infer<typeof StudentFamilySchema>;

export const StudentIdParamsSchema = z.object({ student_id: StudentIdSchema });
