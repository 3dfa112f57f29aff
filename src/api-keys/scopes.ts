// The eighteen scopes of a secret key, underscore-separated and alphabetical,
// and the presets the dashboard offers when a key is issued.

export const SCOPES = [
  'agents_read',
  'agents_write',
  'analytics_read',
  'invoices_read',
  'invoices_write',
  'payment_sessions_read',
  'payment_sessions_write',
  'plans_read',
  'plans_write',
  'refunds_read',
  'refunds_write',
  'relay_read',
  'relay_write',
  'storefront_write',
  'subscriptions_read',
  'subscriptions_write',
  'webhooks_read',
  'webhooks_write',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export const SCOPE_PRESETS = {
  'read-only': SCOPES.filter((s) => s.endsWith('_read')),
  'checkout-only': ['payment_sessions_read', 'payment_sessions_write', 'plans_read', 'relay_read', 'relay_write'],
  full: [...SCOPES],
} as const satisfies Record<string, readonly Scope[]>;

export type ScopePreset = keyof typeof SCOPE_PRESETS;

/**
 * The outer bound of what a publishable key may do, whatever scopes it lists: read-only methods and
 * creating a payment session (spec, API keys rule 2). Within it, a publishable key reaches only the
 * routes declared `access.scope(scope, { publishableKey: true })`; src/plugins/browser-keys.ts refuses
 * at registration a declaration outside this bound.
 */
export function publishableKeyMayCall(method: string, url: string): boolean {
  if (method === 'GET' || method === 'HEAD') return true;
  return method === 'POST' && url === '/v1/payment-sessions';
}
