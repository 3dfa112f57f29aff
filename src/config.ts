// Process configuration read once from the environment. Every setting has a
// development default so `npm start` needs no configuration at all.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { loadChainConfig, type ChainConfig } from './chain/config.js';
import { TASK_QUEUES } from './temporal/task-queues.js';
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from './db/client.js';
import { DEFAULT_LEASE_RENEW_MS, DEFAULT_LEASE_TTL_MS } from './indexer/lease.js';

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
  /** Bounds on waiting for Postgres (src/db/client.ts, DatabaseTimeouts); 0 turns a server-side one off. */
  DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().positive().max(300).default(DEFAULT_DATABASE_TIMEOUTS.connectTimeoutSeconds),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(DEFAULT_DATABASE_TIMEOUTS.statementTimeoutMs),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(0).default(DEFAULT_DATABASE_TIMEOUTS.idleInTransactionTimeoutMs),
  DATABASE_RECONNECT_MAX_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(DEFAULT_DATABASE_TIMEOUTS.reconnectMaxDelayMs),
  /** The Retry-After of a 503 service_unavailable (a dependency is unreachable). */
  UNAVAILABLE_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(5),
  /** How long /readyz waits for each dependency before reporting it down. */
  READINESS_CHECK_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2_000),
  /** The indexer's lease (src/indexer/lease.ts): how long it lasts, how often it is renewed and a standby retries. */
  INDEXER_LEASE_TTL_MS: z.coerce.number().int().min(200).default(DEFAULT_LEASE_TTL_MS),
  INDEXER_LEASE_RENEW_MS: z.coerce.number().int().min(50).optional(),
  TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default(TASK_QUEUES.main),
  /**
   * Workflows the worker keeps in memory between their tasks (the sticky cache). Bounds the worker's
   * memory whatever the number of open workflows; an evicted workflow is replayed at its next task.
   * At least the worker's 500 concurrent workflow tasks, which stay cached while they run. Default:
   * DEFAULT_MAX_CACHED_WORKFLOWS (src/temporal/worker.ts).
   */
  TEMPORAL_WORKER_MAX_CACHED_WORKFLOWS: z.coerce.number().int().min(500).optional(),
  /**
   * A workflow bundle built beforehand (bundleWorkflowCode of workflows/index.ts); without it the worker
   * bundles the workflows at start, seconds of CPU. The test suite passes the bundle it builds once.
   */
  TEMPORAL_WORKFLOW_BUNDLE_PATH: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Largest request body accepted, in bytes (documented in the API reference). */
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  /** Dashboard tokens: the identity provider's issuer, the audience of our API and its JWKS URL. */
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_AUDIENCE: z.string().min(1).default('stablepay-api'),
  OIDC_JWKS_URL: z.string().url().optional(),
  /** Least time between two JWKS fetches triggered by an unknown `kid` (bounds load on the identity provider). */
  OIDC_JWKS_COOLDOWN_MS: z.coerce.number().int().min(0).default(30_000),
  /** The dashboard's OAuth client id at the identity provider (authorization code + PKCE, no secret). */
  DASHBOARD_OIDC_CLIENT_ID: z.string().min(1).default('stablepay-dashboard'),
  /** Where the built dashboard is served from (default dashboard/dist, written by src/dashboard/build.ts). */
  DASHBOARD_DIST_DIR: z.string().min(1).optional(),
  /** Outgoing mail (smtp:// or smtps://); the dev SMTP sink by default. */
  SMTP_URL: z.string().min(1).default('smtp://127.0.0.1:2525'),
  MAIL_FROM: z.string().min(3).default('StablePay <no-reply@stablepay.local>'),
  /** 32 bytes, base64: encrypts TOTP secrets and pending key reveals at rest. Required in production. */
  SECRETS_ENCRYPTION_KEY: z.string().optional(),
  /** JSON `{ "public_keys": [{ "key_identifier", "key" (PEM) }] }` of the secret-scanning partner. */
  SECRET_SCANNING_PUBLIC_KEYS: z.string().optional(),
  /**
   * Which proxies' X-Forwarded-For to believe for the client IP (the per-IP limit): unset or `false`
   * = none, the socket's address counts; or a comma-separated list of the proxies' addresses, CIDRs
   * or `loopback` / `linklocal` / `uniquelocal`. `true` believes any sender: only behind a proxy
   * that overwrites the header.
   */
  TRUST_PROXY: z.string().trim().optional(),
  RATE_LIMIT_PER_IP_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_PER_KEY_PER_MINUTE: z.coerce.number().int().min(1).default(10_000),
  /** How often each api instance adds its local counts to the shared counters. */
  RATE_LIMIT_FLUSH_MS: z.coerce.number().int().min(10).max(10_000).default(250),
  /** 32 bytes, base64 or hex: encrypts webhook signing secrets at rest (AES-256-GCM). Required in production. */
  WEBHOOK_SECRET_ENCRYPTION_KEY: z.string().optional(),
  /** Lets test-mode endpoints target private/loopback addresses (local receivers). Off by default; never applies to live mode. */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanSetting.default(false),
  /**
   * The lease of an Idempotency-Key's holder, in seconds: a retry takes over a key whose request died
   * (or still runs) this long after it was claimed. The longest a retry can be answered 409 "still being processed".
   */
  IDEMPOTENCY_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /**
   * `fork` (default): each test clock gets an anvil forked from the test chain, whose time only it moves, and
   * its wallets' subscriptions and its sessions live there (issue 39, docs/decisions.md); needs the anvil binary.
   * `shared`: a clock moves the test chain itself, for everyone (an image without anvil, or a test chain
   * whose subscriptions were enrolled before their wallets joined a clock).
   */
  TEST_CLOCK_CHAINS: z.enum(['shared', 'fork']).default('fork'),
  /** With TEST_CLOCK_CHAINS=fork: where each fork's state is dumped and reloaded from (anvil --state). */
  TEST_CLOCK_CHAIN_STATE_DIR: z.string().optional(),
});

export const DEV_SECRETS_KEY = createHash('sha256').update('stablepay-development-only-secrets-key').digest();

export type SecretScanningKey = { keyIdentifier: string; publicKeyPem: string };

function parseScanningKeys(raw: string | undefined): SecretScanningKey[] {
  if (!raw) return [];
  const parsed = z
    .object({ public_keys: z.array(z.object({ key_identifier: z.string().min(1), key: z.string().min(1) })) })
    .parse(JSON.parse(raw));
  return parsed.public_keys.map((k) => ({ keyIdentifier: k.key_identifier, publicKeyPem: k.key }));
}

export type Config = {
  env: string;
  host: string;
  port: number;
  publicBaseUrl: string;
  databaseUrl: string;
  databasePoolMax: number;
  databaseTimeouts: DatabaseTimeouts;
  unavailableRetryAfterSeconds: number;
  readinessCheckTimeoutMs: number;
  /** The indexer's lease timings (src/indexer/lease.ts). */
  indexerLease: { ttlMs: number; renewIntervalMs: number };
  temporalAddress: string;
  temporalNamespace: string;
  temporalTaskQueue: string;
  workerMaxCachedWorkflows: number | undefined;
  /** TEMPORAL_WORKFLOW_BUNDLE_PATH: a prebuilt workflow bundle; undefined: bundle at start. */
  workflowBundlePath: string | undefined;
  logLevel: z.infer<typeof configSchema>['LOG_LEVEL'];
  bodyLimitBytes: number;
  /** Null when no identity provider is configured: dashboard tokens are then refused. */
  oidc: { issuer: string; audience: string; jwksUrl: string; jwksCooldownMs: number } | null;
  /** The web dashboard at /dashboard: its OAuth client id and the folder of its built assets. */
  dashboard: { clientId: string; distDir: string | undefined };
  smtpUrl: string;
  mailFrom: string;
  secretsEncryptionKey: Buffer;
  secretScanningKeys: SecretScanningKey[];
  /** Idempotency-Key leases (IDEMPOTENCY_LEASE_SECONDS). */
  idempotency: { leaseSeconds: number };
  rateLimits: { perIpPerMinute: number; perKeyPerMinute: number; flushIntervalMs: number };
  /** How a test clock's chain is had: the test chain itself, or a fork of it per clock (TEST_CLOCK_CHAINS). */
  testClockChains: { mode: 'shared' | 'fork'; stateDir: string | undefined };
  /** Fastify's trustProxy, from TRUST_PROXY. */
  trustProxy: boolean | string;
  webhooks: {
    secretEncryptionKey: Buffer;
    allowPrivateTargets: boolean;
  };
  /** Chain settings per mode (src/chain/config.ts lists the CHAIN_* variables). */
  chain: ChainConfig;
};

function parseEncryptionKey(value: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('Invalid configuration: WEBHOOK_SECRET_ENCRYPTION_KEY must be 32 bytes, hex or base64');
  return key;
}

function parseTrustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === '' || value === 'false') return false;
  return value === 'true' ? true : value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  let secretsEncryptionKey = DEV_SECRETS_KEY;
  if (e.SECRETS_ENCRYPTION_KEY) {
    secretsEncryptionKey = Buffer.from(e.SECRETS_ENCRYPTION_KEY, 'base64');
    if (secretsEncryptionKey.length !== 32) throw new Error('Invalid configuration: SECRETS_ENCRYPTION_KEY must be 32 bytes, base64');
  } else if (e.NODE_ENV === 'production') {
    throw new Error('Invalid configuration: SECRETS_ENCRYPTION_KEY is required in production');
  }
  let secretScanningKeys: SecretScanningKey[];
  try {
    secretScanningKeys = parseScanningKeys(e.SECRET_SCANNING_PUBLIC_KEYS);
  } catch {
    throw new Error('Invalid configuration: SECRET_SCANNING_PUBLIC_KEYS must be {"public_keys":[{"key_identifier","key"}]}');
  }
  if (e.NODE_ENV === 'production' && !e.WEBHOOK_SECRET_ENCRYPTION_KEY) {
    throw new Error('Invalid configuration: WEBHOOK_SECRET_ENCRYPTION_KEY is required when NODE_ENV=production');
  }
  const leaseRenewMs = e.INDEXER_LEASE_RENEW_MS ?? Math.min(DEFAULT_LEASE_RENEW_MS, Math.floor(e.INDEXER_LEASE_TTL_MS / 3));
  // At least two renewals per lease: one lost renewal must not cost the lease.
  if (leaseRenewMs * 2 > e.INDEXER_LEASE_TTL_MS)
    throw new Error('Invalid configuration: INDEXER_LEASE_RENEW_MS must be at most half of INDEXER_LEASE_TTL_MS');
  if (e.NODE_ENV === 'production' && e.WEBHOOK_ALLOW_PRIVATE_TARGETS) {
    throw new Error('Invalid configuration: WEBHOOK_ALLOW_PRIVATE_TARGETS must not be set when NODE_ENV=production');
  }
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicBaseUrl: e.PUBLIC_BASE_URL ?? `http://${e.HOST}:${e.PORT}`,
    testClockChains: { mode: e.TEST_CLOCK_CHAINS, stateDir: e.TEST_CLOCK_CHAIN_STATE_DIR },
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    databaseTimeouts: {
      connectTimeoutSeconds: e.DATABASE_CONNECT_TIMEOUT_SECONDS,
      statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      reconnectMaxDelayMs: e.DATABASE_RECONNECT_MAX_DELAY_MS,
    },
    unavailableRetryAfterSeconds: e.UNAVAILABLE_RETRY_AFTER_SECONDS,
    readinessCheckTimeoutMs: e.READINESS_CHECK_TIMEOUT_MS,
    indexerLease: { ttlMs: e.INDEXER_LEASE_TTL_MS, renewIntervalMs: leaseRenewMs },
    temporalAddress: e.TEMPORAL_ADDRESS,
    temporalNamespace: e.TEMPORAL_NAMESPACE,
    temporalTaskQueue: e.TEMPORAL_TASK_QUEUE,
    workerMaxCachedWorkflows: e.TEMPORAL_WORKER_MAX_CACHED_WORKFLOWS,
    workflowBundlePath: e.TEMPORAL_WORKFLOW_BUNDLE_PATH,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    oidc:
      e.OIDC_ISSUER && e.OIDC_JWKS_URL
        ? { issuer: e.OIDC_ISSUER, audience: e.OIDC_AUDIENCE, jwksUrl: e.OIDC_JWKS_URL, jwksCooldownMs: e.OIDC_JWKS_COOLDOWN_MS }
        : null,
    dashboard: { clientId: e.DASHBOARD_OIDC_CLIENT_ID, distDir: e.DASHBOARD_DIST_DIR },
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    secretsEncryptionKey,
    secretScanningKeys,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    idempotency: { leaseSeconds: e.IDEMPOTENCY_LEASE_SECONDS },
    rateLimits: {
      perIpPerMinute: e.RATE_LIMIT_PER_IP_PER_MINUTE,
      perKeyPerMinute: e.RATE_LIMIT_PER_KEY_PER_MINUTE,
      flushIntervalMs: e.RATE_LIMIT_FLUSH_MS,
    },
    webhooks: {
      secretEncryptionKey: e.WEBHOOK_SECRET_ENCRYPTION_KEY
        ? parseEncryptionKey(e.WEBHOOK_SECRET_ENCRYPTION_KEY)
        : DEV_WEBHOOK_SECRET_ENCRYPTION_KEY,
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    },
    chain: loadChainConfig(env),
  };
}
