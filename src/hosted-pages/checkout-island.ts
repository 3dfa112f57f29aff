// The checkout pages' JSON island: which page the script runs and the one id it needs. The server
// (src/checkout/page.ts) writes it and the browser entry (web/checkout/main.ts) reads it, so both import
// this module. No imports: the hosted pages' Vite build bundles it.

export type CheckoutIsland =
  | { page: 'session'; sessionId: string }
  | { page: 'plan'; planId: string }
  | { page: 'renewal'; subscriptionId: string }
  | { page: 'reauthorisation'; planChangeId: string }
  | { page: 'wallet-change'; walletChangeId: string };

export const CHECKOUT_ISLAND_ID = 'checkout-data';
