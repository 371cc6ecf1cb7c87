import { z } from 'zod/mini';
import { StudentIdSchema } from './auth.schemas.js';
import { FamilyEmailSchema } from './family.schemas.js';

/**
 * Messages to families (docs/decisions.md D57): the kinds of notice, the notices list, a
 * family's preferences, the unsubscribe link, the school's settings and the deadline reminders.
 * Used by the server's routes and by the notices screens.
 */

export const NOTICE_KINDS = [
  'document-returned',
  'registration-returned',
  'registration-verified',
  'deadline-reminder',
  'term-reports-posted',
  'attendance-digest',
  'absence-note-decided',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** The kinds a family may turn off; every message of these carries an unsubscribe link. */
export const OPTIONAL_NOTICE_KINDS = ['attendance-digest', 'deadline-reminder'] as const;
export type OptionalNoticeKind = (typeof OPTIONAL_NOTICE_KINDS)[number];
export const OptionalNoticeKindSchema = z.enum(OPTIONAL_NOTICE_KINDS, { message: 'Choose the attendance digest or the deadline reminders.' });

export const OPTIONAL_NOTICE_LABELS: Record<OptionalNoticeKind, string> = {
  'attendance-digest': "The day's absences and lates (attendance digest)",
  'deadline-reminder': 'Reminders before the registration deadline',
};

export function isOptionalNoticeKind(kind: string): kind is OptionalNoticeKind {
  return (OPTIONAL_NOTICE_KINDS as readonly string[]).includes(kind);
}

/** One notice in a family's (or a student's) list: the message's words, as the mail said them. */
export const NoticeSchema = z.object({
  id: z.number(),
  kind: z.string(),
  subject: z.string(),
  heading: z.string(),
  /** The message's paragraphs and links, in order. */
  blocks: z.array(z.union([z.object({ text: z.string() }), z.object({ link: z.object({ label: z.string(), href: z.string() }) })])),
  student_ids: z.array(z.string()),
  created_at: z.string(),
  read: z.boolean(),
});
export type Notice = z.infer<typeof NoticeSchema>;

export const NoticeListSchema = z.object({ notices: z.array(NoticeSchema), unread: z.number() });
export type NoticeList = z.infer<typeof NoticeListSchema>;

export const NoticeIdParamsSchema = z.object({
  id: z.coerce.number({ error: 'A notice id is a whole number.' }).check(z.int('A notice id is a whole number.'), z.gte(1, 'A notice id is a whole number.'), z.lte(2_147_483_647, 'A notice id is a whole number.')),
});

/** A family's choices for the optional kinds: true = send. */
export const NoticePreferencesSchema = z.object({
  'attendance-digest': z.boolean({ error: 'Say whether to send the attendance digest (true or false).' }),
  'deadline-reminder': z.boolean({ error: 'Say whether to send deadline reminders (true or false).' }),
});
export type NoticePreferences = z.infer<typeof NoticePreferencesSchema>;

/** An unsubscribe link's token: base64url payload, a dot, base64url signature. */
export const UnsubscribeSchema = z.object({
  token: z.string({ error: 'This link is incomplete.' }).check(z.trim(), z.regex(/^[A-Za-z0-9_-]{10,400}\.[A-Za-z0-9_-]{20,100}$/, 'This link is incomplete; open it again from the message.')),
});
export type UnsubscribeInput = z.infer<typeof UnsubscribeSchema>;

/** `/api/mail/unsubscribe?token=…`: the List-Unsubscribe link of a message (RFC 8058, D84), the same token. */
export const MailUnsubscribeQuerySchema = UnsubscribeSchema;

export const UnsubscribeAnswerSchema = z.object({ kind: OptionalNoticeKindSchema, label: z.string(), email: z.string() });
export type UnsubscribeAnswer = z.infer<typeof UnsubscribeAnswerSchema>;

const TIME_MESSAGE = 'Enter a time as HH:mm, e.g. 10:00.';

/** The school's settings for messages to families (the office and administrators). */
export const NoticeSettingsSchema = z.object({
  /** Whether the school sends the daily attendance digest at all. */
  digest_enabled: z.boolean({ error: 'Say whether the school sends the attendance digest (true or false).' }),
  /** When the digest goes out, in the school's time zone. */
  digest_time: z.string({ error: TIME_MESSAGE }).check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, TIME_MESSAGE)),
  /** How many days before the registration deadline reminders may be sent. */
  reminder_days: z.number({ error: 'Enter a number of days from 1 to 60.' }).check(z.int('Enter a number of days from 1 to 60.'), z.gte(1, 'Enter a number of days from 1 to 60.'), z.lte(60, 'Enter a number of days from 1 to 60.')),
});
export type NoticeSettings = z.infer<typeof NoticeSettingsSchema>;

export const DEFAULT_NOTICE_SETTINGS: NoticeSettings = { digest_enabled: true, digest_time: '10:00', reminder_days: 7 };

/** One family that would be (or was) reminded, with the children whose registration is unfinished. */
export const ReminderRecipientSchema = z.object({
  email: z.string(),
  name: z.nullable(z.string()),
  account: z.boolean(),
  students: z.array(z.object({ id: z.string(), name: z.string(), deadline: z.string() })),
});
export type ReminderRecipient = z.infer<typeof ReminderRecipientSchema>;

export const ReminderPreviewSchema = z.object({
  reminder_days: z.number(),
  today: z.string(),
  recipients: z.array(ReminderRecipientSchema),
  /** Unfinished records in the window whose families cannot be written to (no account, no verified e-mail). */
  unreachable_students: z.number(),
  /** Families left out because they had a reminder in the last 7 days or turned reminders off. */
  skipped: z.number(),
});
export type ReminderPreview = z.infer<typeof ReminderPreviewSchema>;

export const ReminderSendAnswerSchema = z.object({ sent: z.number() });

export const PARENT_EMAIL_FIELDS = ['mother', 'father', 'guardian'] as const;
export const ParentEmailFieldSchema = z.enum(PARENT_EMAIL_FIELDS, { message: 'Choose the mother, father or guardian e-mail.' });
export type ParentEmailFieldName = z.infer<typeof ParentEmailFieldSchema>;

/** The record's parent e-mails and whether the office marked each as verified. */
export const ParentEmailListSchema = z.object({
  emails: z.array(z.object({ parent: ParentEmailFieldSchema, email: z.nullable(z.string()), verified: z.boolean(), verified_at: z.nullable(z.string()) })),
});
export type ParentEmailList = z.infer<typeof ParentEmailListSchema>;

export const ParentEmailParamsSchema = z.object({ student_id: StudentIdSchema, parent: ParentEmailFieldSchema });

/** The office marks (or unmarks) an address; the body repeats the address it checked. */
export const VerifyParentEmailSchema = z.object({ email: FamilyEmailSchema, verified: z.boolean({ error: 'Say whether the address is verified (true or false).' }) });
export type VerifyParentEmailInput = z.infer<typeof VerifyParentEmailSchema>;
