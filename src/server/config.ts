import path from 'node:path';
import proxyAddr from '@fastify/proxy-addr';
import addressparser from 'nodemailer/lib/addressparser';
import { z } from 'zod';
import { DEMO_ADMIN } from './db/demo-data/demo-accounts.js';

/**
 * Environment → a frozen, typed configuration (README "Configuration"). Every bad key is listed at once and
 * the process stops with a one-line reason, rather than failing later on first use.
 */

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const TRUST_PROXY_EXAMPLE = 'e.g. 127.0.0.1 for a proxy on this machine, or 10.0.0.5,10.0.0.0/24';

/**
 * TRUST_PROXY: the addresses or CIDR ranges of the proxies in front of the portal, comma-separated
 * (also @fastify/proxy-addr's names loopback, linklocal, uniquelocal). Only a hop from one of them
 * is believed about the client's address and protocol, so the address the throttles and the audit
 * log record is the rightmost one a listed proxy added, never one the client wrote. `true` and hop
 * counts are refused: they believe whoever connects, and a client that reaches the port directly
 * would choose its own address (Fastify ignores hop counts for that reason). Unset or false: no proxy.
 */
const TrustProxySchema = z.string().transform((value, ctx): false | string[] => {
  const text = value.trim().toLowerCase();
  if (['false', '0', 'no', ''].includes(text)) return false;
  if (['true', 'yes'].includes(text) || /^\d+$/.test(text)) {
    ctx.addIssue({
      code: 'custom',
      message: `must list the proxy's addresses (${TRUST_PROXY_EXAMPLE}): with true or a hop count a client that reaches the port directly could choose the address the portal records`,
    });
    return z.NEVER;
  }
  const proxies = value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  try {
    proxyAddr.compile(proxies);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `${error instanceof Error ? error.message : String(error)} (${TRUST_PROXY_EXAMPLE})` });
    return z.NEVER;
  }
  return proxies;
});

/**
 * STAFF_2FA, the staff second factor: `required` for every staff account, `optional`
 * (each person may set it up), `off` (never asked, not offered).
 */
export const STAFF_2FA_RULES = ['required', 'optional', 'off'] as const;
export type Staff2faRule = (typeof STAFF_2FA_RULES)[number];

/**
 * PASSWORD_HASH_COST: `owasp` (the default, OWASP's argon2id minimum) or `test` (the smallest cost
 * argon2 accepts, so test suites that sign in hundreds of times do not spend minutes hashing). Two
 * named costs rather than numbers: nobody tunes production below OWASP's minimum by accident, and
 * `test` is refused when NODE_ENV=production (docs/decisions.md D68).
 */
export const PASSWORD_HASH_COSTS = ['owasp', 'test'] as const;
export type PasswordHashCost = (typeof PASSWORD_HASH_COSTS)[number];

const SMTP_URL_EXAMPLE = 'e.g. smtp://user:password@mail.school.tt:587 or smtps://user:password@mail.school.tt:465';

/**
 * SMTP_URL, the mail server messages leave through: smtp:// (STARTTLS when the server
 * offers it) or smtps:// (TLS from the start), with the account's name and password percent-encoded
 * in it. The reasons never repeat the value: it holds a password.
 */
const SmtpUrlSchema = z.string().superRefine((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: `is not a URL (${SMTP_URL_EXAMPLE})` });
    return;
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    ctx.addIssue({ code: 'custom', message: `must start with smtp:// or smtps:// (${SMTP_URL_EXAMPLE})` });
  } else if (url.hostname === '') {
    ctx.addIssue({ code: 'custom', message: `must name the mail server's host (${SMTP_URL_EXAMPLE})` });
  } else if (url.password !== '' && url.username === '') {
    ctx.addIssue({ code: 'custom', message: `has a password but no user name (${SMTP_URL_EXAMPLE})` });
  }
});

/** A sender as the mail server sees it: the display name (the school's when left out) and the address. */
export interface MailSender {
  readonly name: string;
  readonly address: string;
}

const MAIL_FROM_EXAMPLE = 'e.g. "St. Andrew’s Secondary School <office@school.tt>" or office@school.tt';

/** MAIL_FROM: one mailbox, `Name <address>` or a bare address (read by nodemailer's own parser). */
const MailFromSchema = z.string().transform((value, ctx): { name: string; address: string } => {
  const parsed = addressparser(value, { flatten: true });
  const mailbox = parsed.length === 1 ? parsed[0] : undefined;
  if (!mailbox?.address || !z.email().safeParse(mailbox.address).success) {
    ctx.addIssue({ code: 'custom', message: `must be one e-mail address, with a name or without (${MAIL_FROM_EXAMPLE})` });
    return z.NEVER;
  }
  return { name: mailbox.name, address: mailbox.address };
});

/** PUBLIC_URL: the portal's address as people open it, the base of every link in a message. */
const PublicUrlSchema = z.string().transform((value, ctx): string => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'is not a URL (e.g. https://portal.school.tt)' });
    return z.NEVER;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '' || url.username !== '') {
    ctx.addIssue({ code: 'custom', message: 'must be an http:// or https:// address without query or credentials (e.g. https://portal.school.tt)' });
    return z.NEVER;
  }
  return url.toString().replace(/\/+$/, '');
});

/** OIDC_ISSUER: the provider's issuer URL, where its discovery document is; https, or http on this machine only (tests). */
const IssuerSchema = z.string().transform((value, ctx): string => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'is not a URL (e.g. https://login.microsoftonline.com/<tenant id>/v2.0 or https://accounts.google.com)' });
    return z.NEVER;
  }
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    ctx.addIssue({ code: 'custom', message: 'must be an https:// address (e.g. https://accounts.google.com)' });
    return z.NEVER;
  }
  return value;
});

/** STAFF_PASSWORD_SIGNIN: whether staff may sign in with a password (`off`: only through the provider, and the break-glass administrator). */
export const STAFF_PASSWORD_SIGNIN_VALUES = ['on', 'off'] as const;

const EnvSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// (leave it unset for the embedded SQLite)')
      .optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DEMO_DATA: booleanFromEnv.optional(),
    SESSION_TTL_HOURS: z.coerce.number().positive().max(24 * 30).default(12),
    SESSION_IDLE_MINUTES: z.coerce.number().positive().max(24 * 60).default(60),
    REMEMBER_DAYS: z.coerce.number({ message: 'must be a whole number of days from 1 to 365' }).int('must be a whole number of days from 1 to 365').min(1, 'must be a whole number of days from 1 to 365').max(365, 'must be a whole number of days from 1 to 365').default(30),
    TRUST_PROXY: TrustProxySchema.default(false),
    UPLOAD_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(100 * 1024 * 1024)
      .default(10 * 1024 * 1024),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ADMIN_USERNAME: z.string().min(3).max(50).optional(),
    ADMIN_PASSWORD: z.string().min(10, 'must be at least 10 characters').max(200).optional(),
    SCHOOL_NAME: z.string().min(1).max(100).default('St. Andrew’s Secondary School'),
    API_DOCS: booleanFromEnv.optional(),
    STAFF_2FA: z.enum(STAFF_2FA_RULES, { message: 'must be required, optional or off' }).optional(),
    SMTP_URL: SmtpUrlSchema.optional(),
    MAIL_FROM: MailFromSchema.optional(),
    PUBLIC_URL: PublicUrlSchema.optional(),
    STUDENT_LIST_SERVER_MODE_ABOVE: z.coerce.number().int().min(0).max(1_000_000).default(2000),
    PASSWORD_HASH_COST: z.enum(PASSWORD_HASH_COSTS, { message: 'must be owasp or test (leave it unset in production)' }).default('owasp'),
    OIDC_ISSUER: IssuerSchema.optional(),
    OIDC_CLIENT_ID: z.string().min(1).max(500).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).max(500).optional(),
    OIDC_BUTTON_LABEL: z.string().min(1).max(60).default('Sign in with your school account'),
    OIDC_TRUSTS_MFA: booleanFromEnv.default(false),
    STAFF_PASSWORD_SIGNIN: z.enum(STAFF_PASSWORD_SIGNIN_VALUES, { message: 'must be on or off' }).default('on'),
    BREAK_GLASS_ADMIN: z.string().min(3).max(50).optional(),
    WORKER_NICE: z.coerce.number({ message: 'must be a whole number from 0 to 19' }).int('must be a whole number from 0 to 19').min(0, 'must be a whole number from 0 to 19').max(19, 'must be a whole number from 0 to 19').default(10),
    // Set by `npm start` (production) and by the tools in development and tests; read only here.
    NODE_ENV: z.string().optional(),
  })
  .refine((env) => Boolean(env.ADMIN_USERNAME) === Boolean(env.ADMIN_PASSWORD), {
    message: 'ADMIN_USERNAME and ADMIN_PASSWORD must be set together',
    path: ['ADMIN_PASSWORD'],
  })
  // The demo password is in the README: a real administrator with it would be anyone's (D35).
  .refine((env) => env.ADMIN_PASSWORD !== DEMO_ADMIN.password, {
    message: 'must not be the demo password published in the README',
    path: ['ADMIN_PASSWORD'],
  })
  // A mail server takes only senders of its own domains: a guessed address would fail every
  // message later, where only the Outbox shows it (docs/decisions.md D53).
  // The test cost makes stolen hashes cheap to crack: never on a production start.
  .refine((env) => !(env.PASSWORD_HASH_COST === 'test' && env.NODE_ENV === 'production'), {
    message: 'must not be test when NODE_ENV=production: test hashes are cheap to crack (leave it unset)',
    path: ['PASSWORD_HASH_COST'],
  })
  .refine((env) => [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET].every((v) => v === undefined) || [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET].every((v) => v !== undefined), {
    message: 'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together',
    path: ['OIDC_CLIENT_SECRET'],
  })
  // Passwords off with no provider would leave only the break-glass account: a typo, not a plan.
  .refine((env) => env.STAFF_PASSWORD_SIGNIN === 'on' || (env.OIDC_ISSUER && env.BREAK_GLASS_ADMIN), {
    message: 'off needs OIDC_ISSUER (the school\'s sign-in) and BREAK_GLASS_ADMIN (the one administrator who keeps a password)',
    path: ['STAFF_PASSWORD_SIGNIN'],
  })
  .refine((env) => !env.SMTP_URL || env.MAIL_FROM, {
    message: `must be set with SMTP_URL: the address your mail server sends from (${MAIL_FROM_EXAMPLE})`,
    path: ['MAIL_FROM'],
  });

/** One OpenID Connect provider staff may sign in with (docs/decisions.md D96). */
export interface OidcProviderConfig {
  /** The provider's name in the portal's paths (/api/oidc/<id>/…); `school` for the one the variables give. */
  readonly id: string;
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The button's words on the staff sign-in page. */
  readonly buttonLabel: string;
  /** OIDC_TRUSTS_MFA: every sign-in there counts as two-step, whatever its `amr` says. */
  readonly trustsMfa: boolean;
}

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  /** undefined = seed the demo school only into an empty embedded database without ADMIN_USERNAME (D35). */
  readonly demoData: boolean | undefined;
  readonly sessionTtlMs: number;
  readonly sessionIdleMs: number;
  /**
   * REMEMBER_DAYS (default 30): how long a student's or a family's "Keep me signed in" lasts after
   * its last use; each use starts the days again. Staff sessions keep SESSION_TTL_HOURS either way.
   */
  readonly rememberedSessionMs: number;
  /** The proxies in front (addresses or CIDR ranges) whose X-Forwarded-* are believed; false = none. */
  readonly trustProxy: false | readonly string[];
  readonly uploadMaxBytes: number;
  readonly logLevel: string;
  readonly admin: { readonly username: string; readonly password: string } | undefined;
  readonly schoolName: string;
  /** Serve the OpenAPI page at /api/docs (API_DOCS; default: off when NODE_ENV=production). */
  readonly apiDocs: boolean;
  /**
   * STAFF_2FA; undefined = the default: required for administrators and the office except on the
   * demo school's database, optional otherwise (staff-2fa.service.ts `secondFactorRule`).
   */
  readonly staff2fa: Staff2faRule | undefined;
  /** SMTP_URL; undefined = no mail server: messages wait in the outbox (the Outbox screen shows them). */
  readonly smtpUrl: string | undefined;
  /** MAIL_FROM; without one, the school's name at no-reply@localhost (used only with no SMTP_URL). */
  readonly mailFrom: MailSender;
  /** PUBLIC_URL without a trailing slash: the base of the links in messages. */
  readonly publicUrl: string;
  /**
   * STUDENT_LIST_SERVER_MODE_ABOVE (default 2,000): past this many students the admin list pages,
   * sorts, searches and filters on the server instead of in the page (D64).
   */
  readonly studentListServerModeAbove: number;
  /** PASSWORD_HASH_COST: the argon2id cost of new password hashes, `owasp` unless a test suite says `test`. */
  readonly passwordHashCost: PasswordHashCost;
  /**
   * WORKER_NICE (default 10): how much lower the PDF and file threads' priority is than the
   * server's, in nice levels, so a sign-in gets a busy core before a print does. The test suites
   * use 0: a niced thread beside another busy program waits for it, however fast the machine.
   */
  readonly workerNice: number;
  /** The OpenID Connect providers staff may sign in with (OIDC_*); empty: passwords only, as before (D96). */
  readonly oidcProviders: readonly OidcProviderConfig[];
  /** STAFF_PASSWORD_SIGNIN=off: false, and only `breakGlassAdmin` signs in with a password (D96). */
  readonly staffPasswordSignIn: boolean;
  /** BREAK_GLASS_ADMIN: the one administrator's username that keeps password and code when passwords are off. */
  readonly breakGlassAdmin: string | undefined;
}

export class ConfigError extends Error {}

/** Parses the environment once; throws ConfigError naming every bad key. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const reasons = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'} ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${reasons.join('; ')}`);
  }
  const e = parsed.data;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    demoData: e.DEMO_DATA,
    sessionTtlMs: e.SESSION_TTL_HOURS * 3_600_000,
    sessionIdleMs: e.SESSION_IDLE_MINUTES * 60_000,
    rememberedSessionMs: e.REMEMBER_DAYS * 86_400_000,
    trustProxy: e.TRUST_PROXY,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    logLevel: e.LOG_LEVEL,
    admin: e.ADMIN_USERNAME && e.ADMIN_PASSWORD ? { username: e.ADMIN_USERNAME, password: e.ADMIN_PASSWORD } : undefined,
    schoolName: e.SCHOOL_NAME,
    apiDocs: e.API_DOCS ?? e.NODE_ENV !== 'production',
    staff2fa: e.STAFF_2FA,
    smtpUrl: e.SMTP_URL,
    mailFrom: Object.freeze({ name: e.MAIL_FROM?.name || e.SCHOOL_NAME, address: e.MAIL_FROM?.address ?? 'no-reply@localhost' }),
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    studentListServerModeAbove: e.STUDENT_LIST_SERVER_MODE_ABOVE,
    passwordHashCost: e.PASSWORD_HASH_COST,
    workerNice: e.WORKER_NICE,
    oidcProviders: Object.freeze(
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? [Object.freeze({ id: 'school', issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET, buttonLabel: e.OIDC_BUTTON_LABEL, trustsMfa: e.OIDC_TRUSTS_MFA })]
        : [],
    ),
    staffPasswordSignIn: e.STAFF_PASSWORD_SIGNIN === 'on',
    breakGlassAdmin: e.BREAK_GLASS_ADMIN,
  });
}
