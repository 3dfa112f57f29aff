// Process configuration read once from the environment. Every setting has a
// development default so `npm start` needs no configuration at all.
import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * Development only: a fixed, publicly known key so `npm start` needs no
 * configuration. Production refuses to start without WEBHOOK_SECRET_ENCRYPTION_KEY.
 */
const DEV_WEBHOOK_SECRET_ENCRYPTION_KEY = createHash('sha256')
  .update('stablepay development-only webhook secret encryption key; never use in production')
  .digest();

const booleanSetting = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const configSchema = z.object({
  NODE_ENV: z.string().default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_BASE_URL: z.string().url().optional(),
  DATABASE_URL: z.string().min(1),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Largest request body accepted, in bytes (documented in the API reference). */
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  /** 32 bytes, base64 or hex: encrypts webhook signing secrets at rest (AES-256-GCM). Required in production. */
  WEBHOOK_SECRET_ENCRYPTION_KEY: z.string().optional(),
  /** Lets test-mode endpoints target private/loopback addresses (local receivers). Off by default; never applies to live mode. */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanSetting.default(false),
});

export type Config = {
  env: string;
  host: string;
  port: number;
  publicBaseUrl: string;
  databaseUrl: string;
  databasePoolMax: number;
  temporalAddress: string;
  temporalNamespace: string;
  logLevel: z.infer<typeof configSchema>['LOG_LEVEL'];
  bodyLimitBytes: number;
  webhooks: {
    secretEncryptionKey: Buffer;
    allowPrivateTargets: boolean;
  };
};

function parseEncryptionKey(value: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('Invalid configuration: WEBHOOK_SECRET_ENCRYPTION_KEY must be 32 bytes, hex or base64');
  return key;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.WEBHOOK_SECRET_ENCRYPTION_KEY) {
    throw new Error('Invalid configuration: WEBHOOK_SECRET_ENCRYPTION_KEY is required when NODE_ENV=production');
  }
  if (e.NODE_ENV === 'production' && e.WEBHOOK_ALLOW_PRIVATE_TARGETS) {
    throw new Error('Invalid configuration: WEBHOOK_ALLOW_PRIVATE_TARGETS must not be set when NODE_ENV=production');
  }
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicBaseUrl: e.PUBLIC_BASE_URL ?? `http://${e.HOST}:${e.PORT}`,
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    temporalAddress: e.TEMPORAL_ADDRESS,
    temporalNamespace: e.TEMPORAL_NAMESPACE,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    webhooks: {
      secretEncryptionKey: e.WEBHOOK_SECRET_ENCRYPTION_KEY
        ? parseEncryptionKey(e.WEBHOOK_SECRET_ENCRYPTION_KEY)
        : DEV_WEBHOOK_SECRET_ENCRYPTION_KEY,
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    },
  };
}
