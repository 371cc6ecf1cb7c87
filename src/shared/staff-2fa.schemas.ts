import { z } from 'zod/mini';
import { CurrentPasswordSchema } from './staff.schemas.js';

/**
 * The staff second factor (docs/decisions.md "Staff second factor"): TOTP codes of
 * RFC 6238 (6 digits, 30 s) from an authenticator app, and one-time recovery codes. Used by the
 * server's routes and the sign-in and enrolment screens.
 */

export const TOTP_CODE_MESSAGE = 'Enter the 6-digit code from your authenticator app.';
/** The code an authenticator app shows; spaces (as some apps group the digits) are left out. */
export const TotpCodeSchema = z
  .string({ error: TOTP_CODE_MESSAGE })
  .check(
    z.overwrite((value) => value.replace(/\s+/g, '')),
    z.regex(/^\d{6}$/, TOTP_CODE_MESSAGE),
  );

export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_CODE_MESSAGE = 'Enter one of your recovery codes, like abcde-23456.';
/** A recovery code as printed (`abcde-23456`), in any case, with or without the dash or spaces. */
export const RecoveryCodeSchema = z
  .string({ error: RECOVERY_CODE_MESSAGE })
  .check(
    z.overwrite((value) => value.replace(/[\s-]+/g, '').toLowerCase()),
    z.regex(/^[a-z0-9]{10}$/, RECOVERY_CODE_MESSAGE),
  );

/** The second step of a staff sign-in: a code from the app, or one recovery code instead. */
export const SecondFactorLoginSchema = z
  .object({
    code: z.optional(TotpCodeSchema),
    recovery_code: z.optional(RecoveryCodeSchema),
  })
  .check(
    z.refine((body) => (body.code === undefined) !== (body.recovery_code === undefined), {
      message: 'Send either code or recovery_code.',
      path: ['code'],
    }),
  );
export type SecondFactorLoginInput = z.infer<typeof SecondFactorLoginSchema>;

/**
 * Starting enrolment: the current password first, so a session left open on a shared computer
 * cannot put someone else's phone on the account (docs/decisions.md D65).
 */
export const StartEnrolmentSchema = z.object({ current_password: CurrentPasswordSchema });
export type StartEnrolmentInput = z.infer<typeof StartEnrolmentSchema>;

/** A code from the app: confirms an enrolment, and turns the second factor off. */
export const TotpConfirmSchema = z.object({ code: TotpCodeSchema });
export type TotpConfirmInput = z.infer<typeof TotpConfirmSchema>;

/** Whether this portal asks the signed-in staff member for a second factor. */
export const SecondFactorRuleSchema = z.enum(['required', 'optional', 'off']);
export type SecondFactorRule = z.infer<typeof SecondFactorRuleSchema>;

export const SecondFactorStatusSchema = z.object({
  rule: SecondFactorRuleSchema,
  enabled: z.boolean(),
  /** Recovery codes not used yet (0 while the second factor is off). */
  recovery_codes_left: z.int(),
});
export type SecondFactorStatus = z.infer<typeof SecondFactorStatusSchema>;

/** A new secret, shown once, while enrolment waits for its first code. */
export const EnrolmentAnswerSchema = z.object({
  /** Base32, for typing into an app that cannot scan. */
  secret: z.string(),
  otpauth_uri: z.string(),
  /** The otpauth URI as a QR code: an SVG data URL. */
  qr_code: z.string(),
});
export type EnrolmentAnswer = z.infer<typeof EnrolmentAnswerSchema>;

/** The recovery codes, shown once when the second factor is turned on. */
export const RecoveryCodesAnswerSchema = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodesAnswer = z.infer<typeof RecoveryCodesAnswerSchema>;
