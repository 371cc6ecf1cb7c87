import { z } from 'zod/mini';

/**
 * The Outbox (docs/decisions.md D53): the administrator's list of the messages the
 * portal sends, resending one, and a test message that checks the school's mail settings. Used by
 * the server's routes and by the Outbox screen.
 */

export const OUTBOX_STATES = ['queued', 'sending', 'sent', 'failed'] as const;
export const OutboxStateSchema = z.enum(OUTBOX_STATES, { message: 'A state is queued, sending, sent or failed.' });
export type OutboxState = z.infer<typeof OutboxStateSchema>;

export const OUTBOX_STATE_LABELS: Record<OutboxState, string> = {
  queued: 'Waiting',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
};

export const EMAIL_INVALID = 'Enter a valid e-mail address.';

/** One recipient's address: no name, no list, no line breaks (it goes into a header). */
export const EmailAddressSchema = z
  .string({ error: EMAIL_INVALID })
  .check(z.trim(), z.minLength(1, 'Enter an e-mail address.'), z.maxLength(254, 'An e-mail address is at most 254 characters.'), z.email(EMAIL_INVALID));

/** GET /api/outbox: newest first, a page at a time, optionally one state only. */
export const OutboxListQuerySchema = z.object({
  state: z.optional(OutboxStateSchema),
  page: z._default(z.coerce.number({ error: 'A page is a whole number from 1.' }).check(z.int('A page is a whole number from 1.'), z.gte(1, 'A page is a whole number from 1.'), z.lte(100_000, 'A page is a whole number from 1.')), 1),
  page_size: z._default(z.coerce.number({ error: 'A page size is 1 to 100.' }).check(z.int('A page size is 1 to 100.'), z.gte(1, 'A page size is 1 to 100.'), z.lte(100, 'A page size is 1 to 100.')), 25),
});
export type OutboxListQuery = z.infer<typeof OutboxListQuerySchema>;

export const OutboxIdParamsSchema = z.object({
  id: z.coerce.number({ error: 'No message has this id.' }).check(z.int('No message has this id.'), z.positive('No message has this id.'), z.lte(2_147_483_647, 'No message has this id.')),
});

/** A message as the Outbox shows it: who to, what about, how it went; never its body. */
export const OutboxMessageSchema = z.object({
  id: z.int(),
  to: z.string(),
  /** The template's subject for this message (rendered for the screen). */
  subject: z.string(),
  template: z.string(),
  state: OutboxStateSchema,
  tries: z.int(),
  /** The last failure's reason, as the mail server (or the network) gave it; null when none. */
  last_error: z.nullable(z.string()),
  created_at: z.string(),
  sent_at: z.nullable(z.string()),
  /** A waiting message's next try; null once it is sent or has failed. */
  next_attempt_at: z.nullable(z.string()),
});
export type OutboxMessage = z.infer<typeof OutboxMessageSchema>;

export const OutboxPageSchema = z.object({
  messages: z.array(OutboxMessageSchema),
  /** Messages matching the query, over every page. */
  total: z.int(),
  page: z.int(),
  page_size: z.int(),
  /** How many tries a message gets before it is marked failed. */
  max_tries: z.int(),
  /** Whether a mail server is configured (SMTP_URL); without one, messages wait here. */
  smtp_configured: z.boolean(),
});
export type OutboxPage = z.infer<typeof OutboxPageSchema>;

/** POST /api/outbox/test: where the test message goes. */
export const SendTestMessageSchema = z.object({ to: EmailAddressSchema });
export type SendTestMessageInput = z.infer<typeof SendTestMessageSchema>;
