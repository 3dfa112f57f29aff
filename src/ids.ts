// Opaque, prefixed, time-sortable identifiers (`inv_01J...`). The body is a
// ULID-like string: 48 bits of milliseconds then 80 random bits, Crockford
// base32, so ids sort by creation time and list cursors stay stable.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const ID_PREFIXES = {
  merchant: 'mer',
  apiKey: 'key',
  apiKeyAudit: 'kal',
  event: 'evt',
  plan: 'plan',
  webhookEndpoint: 'we',
  webhookDelivery: 'wdl',
  webhookNotice: 'wen',
  customer: 'cus',
  subscription: 'sub',
  subscriptionCharge: 'subch',
  request: 'req',
  email: 'eml',
  emailVerification: 'emv',
  relaySubmission: 'rls',
  paymentSession: 'ps',
  invoice: 'inv',
  refund: 're',
  storefront: 'sf',
  product: 'prod',
  agentJob: 'job',
  agentActivity: 'aga',
  webhookListenerSession: 'wls',
  webhookListenerRequest: 'wlr',
  deposit: 'dep',
  depositSweep: 'swp',
  testClock: 'clock',
  coupon: 'coupon',
  promotionCode: 'promo',
  discount: 'di',
  planChange: 'spc',
  walletChange: 'swc',
  billingMeter: 'mtr',
  billingPortalSession: 'bps',
  billingPortalConfiguration: 'bpc',
  receipt: 'rcpt',
  usageClose: 'uclose',
  usageThresholdBill: 'uthb',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

let lastMs = 0;
let lastRandom: Uint8Array = new Uint8Array(10);

function encodeTime(ms: number): string {
  let out = '';
  let value = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  // 80 bits -> 16 base32 characters, 5 bytes (40 bits) at a time.
  let out = '';
  for (let offset = 0; offset < 10; offset += 5) {
    let chunk = 0;
    for (let i = 0; i < 5; i++) chunk = chunk * 256 + bytes[offset + i]!;
    let part = '';
    for (let i = 0; i < 8; i++) {
      part = ALPHABET[chunk % 32] + part;
      chunk = Math.floor(chunk / 32);
    }
    out += part;
  }
  return out;
}

function incrementRandom(bytes: Uint8Array): Uint8Array {
  const next = Uint8Array.from(bytes);
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i]! < 255) {
      next[i]! += 1;
      return next;
    }
    next[i] = 0;
  }
  return next;
}

/** A new monotonic ULID body: later calls in one process always sort after earlier ones. */
export function ulid(now = Date.now()): string {
  if (now <= lastMs) {
    lastRandom = incrementRandom(lastRandom);
    return encodeTime(lastMs) + encodeRandom(lastRandom);
  }
  lastMs = now;
  lastRandom = randomBytes(10);
  return encodeTime(now) + encodeRandom(lastRandom);
}

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${ulid()}`;
}

const ID_PATTERNS = new Map<IdKind, RegExp>();

/** The exact format of an id of `kind`: its prefix, then a ULID in Crockford base32. */
export function idPattern(kind: IdKind): RegExp {
  let pattern = ID_PATTERNS.get(kind);
  if (!pattern) ID_PATTERNS.set(kind, (pattern = new RegExp(`^${ID_PREFIXES[kind]}_[0-9A-HJKMNP-TV-Z]{26}$`)));
  return pattern;
}

/** True when `value` looks like an id of `kind` (used to reject bad path ids early). */
export function isId(kind: IdKind, value: string): boolean {
  return idPattern(kind).test(value);
}
