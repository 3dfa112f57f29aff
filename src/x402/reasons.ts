// The invalidReason / errorReason values the facilitator answers with: the x402
// reference facilitator's (@x402/evm's exact scheme, character for character,
// which it keeps identical to the Go one), plus the protocol-level ones of the
// v2 specification (section 9) where no scheme is involved yet.
import { type RefusalCode, isRefusalCode } from '../chain/refusals.js';

export const X402_REASONS = {
  // Protocol level (specification v2, section 9).
  invalidVersion: 'invalid_x402_version',
  unsupportedScheme: 'unsupported_scheme',
  invalidNetwork: 'invalid_network',
  invalidPayload: 'invalid_payload',
  invalidRequirements: 'invalid_payment_requirements',
  // exact on EVM (reference facilitator).
  schemeMismatch: 'invalid_exact_evm_scheme',
  networkMismatch: 'invalid_exact_evm_network_mismatch',
  recipientMismatch: 'invalid_exact_evm_recipient_mismatch',
  invalidSignature: 'invalid_exact_evm_signature',
  validBefore: 'invalid_exact_evm_payload_authorization_valid_before',
  validAfter: 'invalid_exact_evm_payload_authorization_valid_after',
  valueMismatch: 'invalid_exact_evm_payload_authorization_value_mismatch',
  tokenNameMismatch: 'invalid_exact_evm_token_name_mismatch',
  tokenVersionMismatch: 'invalid_exact_evm_token_version_mismatch',
  nonceUsed: 'invalid_exact_evm_nonce_already_used',
  insufficientBalance: 'invalid_exact_evm_insufficient_balance',
  simulationFailed: 'invalid_exact_evm_transaction_simulation_failed',
  transactionFailed: 'invalid_exact_evm_transaction_failed',
  invalidTransactionState: 'invalid_transaction_state',
  // Settled later than the answer: the transaction is on its way (x402 core retries settle once).
  settlementPending: 'settlement_pending',
} as const;

export type X402Reason = (typeof X402_REASONS)[keyof typeof X402_REASONS];

/** The chain layer's named token refusals (src/chain/refusals.ts) that x402 has a name for. */
const NAMED_REFUSALS: Readonly<Partial<Record<RefusalCode, X402Reason>>> = {
  signature_invalid: X402_REASONS.invalidSignature,
  authorization_expired: X402_REASONS.validBefore,
  authorization_not_yet_valid: X402_REASONS.validAfter,
  authorization_used: X402_REASONS.nonceUsed,
  insufficient_funds: X402_REASONS.insufficientBalance,
};

/**
 * The reason for a token refusal (a simulation's or an included transaction's revert, as the relay
 * decoded it): first the chain layer's refusal code (`failureOf` names Circle's reverts, e.g.
 * `signature_invalid` when a contract wallet refuses the signature), else the custom error's name or
 * FiatToken's revert string in the reason, as failures recorded before the codes carry them.
 * Blacklist and pause have no x402 name: they stay the generic failure, with the revert in the message.
 */
export function refusalReason(failure: { code: string; reason: string }, fallback: X402Reason): X402Reason {
  const named = isRefusalCode(failure.code) ? NAMED_REFUSALS[failure.code] : undefined;
  if (named) return named;
  const said = `${failure.code} ${failure.reason}`;
  if (/AuthorizationExpired|authorization is expired/i.test(said)) return X402_REASONS.validBefore;
  if (/AuthorizationNotYetValid|authorization is not yet valid/i.test(said)) return X402_REASONS.validAfter;
  if (/AuthorizationUsedOrCanceled|authorization is used or canceled/i.test(said)) return X402_REASONS.nonceUsed;
  if (/ERC20InsufficientBalance|transfer amount exceeds balance/i.test(said)) return X402_REASONS.insufficientBalance;
  if (/InvalidSignature|invalid signature/i.test(said)) return X402_REASONS.invalidSignature;
  if (failure.code === 'NonceConsumed') return X402_REASONS.invalidTransactionState;
  return fallback;
}
