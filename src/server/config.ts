import path from 'node:path';
import { z } from 'zod';
import { DEMO_ADMIN } from './db/demo-data/demo-accounts.js';

/**
 * Environment → a frozen, typed configuration (DESIGN §1). Every bad key is listed at once and
 * the process stops with a one-line reason, rather than failing later on first use.
 */

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

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
    TRUST_PROXY: booleanFromEnv.default(false),
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
  })
  .refine((env) => Boolean(env.ADMIN_USERNAME) === Boolean(env.ADMIN_PASSWORD), {
    message: 'ADMIN_USERNAME and ADMIN_PASSWORD must be set together',
    path: ['ADMIN_PASSWORD'],
  })
  // The demo password is in the README: a real administrator with it would be anyone's (D35).
  .refine((env) => env.ADMIN_PASSWORD !== DEMO_ADMIN.password, {
    message: 'must not be the demo password published in the README',
    path: ['ADMIN_PASSWORD'],
  });

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  /** undefined = seed the demo school only into an empty embedded database without ADMIN_USERNAME (D35). */
  readonly demoData: boolean | undefined;
  readonly sessionTtlMs: number;
  readonly sessionIdleMs: number;
  readonly trustProxy: boolean;
  readonly uploadMaxBytes: number;
  readonly logLevel: string;
  readonly admin: { readonly username: string; readonly password: string } | undefined;
  readonly schoolName: string;
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
    trustProxy: e.TRUST_PROXY,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    logLevel: e.LOG_LEVEL,
    admin: e.ADMIN_USERNAME && e.ADMIN_PASSWORD ? { username: e.ADMIN_USERNAME, password: e.ADMIN_PASSWORD } : undefined,
    schoolName: e.SCHOOL_NAME,
  });
}
