// The token refusal codes and the sentence a payer reads for each, on the hosted pages and in the
// server's answers. No imports: the hosted pages' browser code (web/) bundles this module, so it
// must not pull viem or anything of the server in. src/chain/refusals.ts classifies reverts into
// these codes and re-exports everything here.

export const REFUSAL_CODES = [
  'insufficient_funds',
  'insufficient_allowance',
  'payer_blacklisted',
  'merchant_blacklisted',
  /** Blacklisted, side not known yet (neither payer nor payee reads as blacklisted, e.g. the relayer). */
  'account_blacklisted',
  'token_paused',
  'authorization_expired',
  'authorization_not_yet_valid',
  'authorization_used',
  'signature_invalid',
] as const;

export type RefusalCode = (typeof REFUSAL_CODES)[number];

/**
 * The same refusals as the payer reads them on the hosted pages (checkout, enrolment, renewal, the
 * invoice's pay link): one plain sentence each, in the second person, saying what happened to their
 * money and what to do next. Kept beside REASONS so that a new code cannot miss either text.
 */
const PAYER_MESSAGES: Readonly<Record<RefusalCode, string>> = {
  insufficient_funds:
    'Your wallet does not hold enough USDC for this payment. Nothing was taken; add USDC to it or pay with another wallet.',
  insufficient_allowance:
    'Your wallet has not allowed enough USDC for this payment. Nothing was taken; sign the allowance your wallet asks for and try again.',
  payer_blacklisted: 'This wallet is blocked by the USDC issuer and cannot send USDC. Nothing was taken; pay with another wallet.',
  merchant_blacklisted: 'The merchant cannot receive USDC at the moment. Nothing was taken; please contact the merchant.',
  account_blacklisted: 'An address in this payment is blocked by the USDC issuer. Nothing was taken; please contact the merchant.',
  token_paused: 'USDC transfers are paused by the issuer right now. Nothing was taken; please try again later.',
  authorization_expired: 'Your signature expired before it could be used. Nothing was taken; try again and sign the new request.',
  authorization_not_yet_valid:
    "Your signature is not valid yet: your device's clock may be wrong. Nothing was taken; check the clock and try again.",
  authorization_used: 'This signature was already used. Nothing more was taken; reload the page to see where the payment stands.',
  signature_invalid: "Your wallet's signature could not be verified. Nothing was taken; try again or use another wallet.",
};

export function describeRefusalToPayer(code: RefusalCode): string {
  return PAYER_MESSAGES[code];
}

/** Every payer sentence by code (the hosted pages' scripts look codes up in it). */
export function payerRefusalMessages(): Readonly<Record<RefusalCode, string>> {
  return PAYER_MESSAGES;
}
