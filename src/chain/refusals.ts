/**
 * Token refusals, named. One pure classifier from an on-chain revert (Circle USDC's string reverts,
 * our contracts' custom errors) to a small set of codes every caller shares: charges, relay
 * submissions, refunds, escrow calls, the API objects, events, hosted pages and retry policy.
 *
 * Which account USDC found blacklisted is not in its revert ("Blacklistable: account is
 * blacklisted" names nobody): the classifier answers `account_blacklisted` and the caller, which can
 * read `isBlacklisted` on the chain, narrows it with `blacklistedSide` (I/O stays out of here).
 */
import { BaseError, ContractFunctionRevertedError, type Hex, decodeErrorResult, type Abi } from 'viem';

// The codes and the payer's sentences live in a dependency-free module the hosted pages import too.
import { REFUSAL_CODES, type RefusalCode } from './refusal-sentences.js';

export { REFUSAL_CODES, type RefusalCode, describeRefusalToPayer, payerRefusalMessages } from './refusal-sentences.js';

/** A decoded revert: a custom error's name and arguments, or `Error` with the revert string. */
export type Revert = { errorName: string; args: readonly unknown[] };

export type Refusal = { code: RefusalCode; reason: string };

/**
 * Circle FiatTokenV2_2's revert strings (verified against its source: Blacklistable, Pausable,
 * FiatTokenV1, EIP3009, EIP2612, ECRecover, SignatureChecker). Matched exactly, not by substring:
 * an unknown string stays unclassified rather than guessed.
 */
const TOKEN_STRINGS: Readonly<Record<string, RefusalCode>> = {
  'Blacklistable: account is blacklisted': 'account_blacklisted',
  'Pausable: paused': 'token_paused',
  'ERC20: transfer amount exceeds balance': 'insufficient_funds',
  'ERC20: transfer amount exceeds allowance': 'insufficient_allowance',
  'FiatTokenV2: invalid signature': 'signature_invalid',
  'FiatTokenV2: authorization is expired': 'authorization_expired',
  'FiatTokenV2: authorization is not yet valid': 'authorization_not_yet_valid',
  'FiatTokenV2: authorization is used or canceled': 'authorization_used',
  'EIP2612: permit is expired': 'authorization_expired',
  'EIP2612: invalid signature': 'signature_invalid',
  'ECRecover: invalid signature length': 'signature_invalid',
  "ECRecover: invalid signature 's' value": 'signature_invalid',
  "ECRecover: invalid signature 'v' value": 'signature_invalid',
  'ECRecover: invalid signature': 'signature_invalid',
};

/** Our contracts' custom errors that are refusals of the payer's money or signature. */
const CUSTOM_ERRORS: Readonly<Record<string, RefusalCode>> = {
  // SubscriptionManager pre-names low balance/allowance itself (the token's own string is never seen).
  InsufficientBalance: 'insufficient_funds',
  InsufficientAllowance: 'insufficient_allowance',
  // The permit's own revert is caught (a front-run permit is fine); what is left is "no allowance".
  PermitFailed: 'insufficient_allowance',
  EnrolmentExpired: 'authorization_expired',
  EnrolmentNonceUsed: 'authorization_used',
  InvalidEnrolmentSignature: 'signature_invalid',
  CancellationExpired: 'authorization_expired',
  InvalidCancellationSignature: 'signature_invalid',
  // OpenZeppelin v5 ERC-20 errors, for tokens that use them (not USDC).
  ERC20InsufficientBalance: 'insufficient_funds',
  ERC20InsufficientAllowance: 'insufficient_allowance',
  EnforcedPause: 'token_paused',
};

/** Readable sentences for API objects, pages and emails; they name the next step. */
const REASONS: Readonly<Record<RefusalCode, string>> = {
  insufficient_funds: "The payer's USDC balance is lower than the amount.",
  insufficient_allowance: "The payer's USDC allowance for this payment is lower than the amount.",
  payer_blacklisted: "The payer's address is blocked by the USDC issuer; it cannot send or receive USDC.",
  merchant_blacklisted: "The merchant's payout address is blocked by the USDC issuer; it cannot receive USDC.",
  account_blacklisted: 'An address in this payment is blocked by the USDC issuer.',
  token_paused: 'USDC transfers are paused by the issuer; the payment can be retried once they resume.',
  authorization_expired: 'The signed authorization has expired; sign a new one.',
  authorization_not_yet_valid: 'The signed authorization is not valid yet.',
  authorization_used: 'The signed authorization was already used or cancelled.',
  signature_invalid: 'The signature does not match the payer or the payment; sign again.',
};

export function describeRefusal(code: RefusalCode): string {
  return REASONS[code];
}

export function isRefusalCode(code: string): code is RefusalCode {
  return (REFUSAL_CODES as readonly string[]).includes(code);
}

/** The named refusal of a decoded revert, or undefined when it is not one of ours to name. */
export function classifyRevert(revert: Revert): Refusal | undefined {
  const code =
    revert.errorName === 'Error' && typeof revert.args[0] === 'string' ? TOKEN_STRINGS[revert.args[0]] : CUSTOM_ERRORS[revert.errorName];
  return code ? { code, reason: describeRefusal(code) } : undefined;
}

/** A revert string as viem reports it without data ("execution reverted: Pausable: paused"). */
export function classifyRevertMessage(message: string): Refusal | undefined {
  for (const [text, code] of Object.entries(TOKEN_STRINGS)) {
    if (message.includes(`reverted: ${text}`) || message.includes(`reason: ${text}`) || message.endsWith(text)) {
      return { code, reason: describeRefusal(code) };
    }
  }
  return undefined;
}

/**
 * Narrows `account_blacklisted` by what the caller read on the chain. The payer wins a tie (both
 * blocked): a payer can never pay anyone, whereas the merchant may change its payout address.
 */
export function blacklistedSide(refusal: Refusal, reads: { payer: boolean; merchant: boolean }): Refusal {
  if (refusal.code !== 'account_blacklisted') return refusal;
  const code: RefusalCode = reads.payer ? 'payer_blacklisted' : reads.merchant ? 'merchant_blacklisted' : 'account_blacklisted';
  return { code, reason: describeRefusal(code) };
}

/** What to do after a refusal: stop for good, try again later unchanged, or follow the dunning schedule. */
export type RefusalRetry = 'never' | 'later' | 'dunning';

export function retryOf(code: RefusalCode): RefusalRetry {
  switch (code) {
    case 'token_paused':
    case 'authorization_not_yet_valid':
      return 'later';
    case 'insufficient_funds':
    case 'insufficient_allowance':
      return 'dunning';
    default:
      return 'never';
  }
}

/** The revert behind a viem error: decoded custom error or Error(string), or raw data decoded with `abi`. */
export function revertOf(error: unknown, abi?: Abi): Revert | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError) {
    if (reverted.data) return { errorName: reverted.data.errorName, args: reverted.data.args ?? [] };
    if (reverted.reason) return { errorName: 'Error', args: [reverted.reason] };
  }
  const withData = error.walk(
    (e) => typeof (e as { data?: unknown }).data === 'string' && String((e as { data: string }).data).startsWith('0x'),
  ) as { data?: Hex } | null;
  const data = withData?.data;
  if (data && data.length >= 10) {
    try {
      // viem always knows Error(string) and Panic(uint256), whatever `abi` holds.
      const decoded = decodeErrorResult({ abi: abi ?? [], data });
      return { errorName: decoded.errorName, args: decoded.args ?? [] };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The named refusal behind a viem error, if it is one (from decoded data, else from the message). */
export function refusalOf(error: unknown, abi?: Abi): Refusal | undefined {
  const revert = revertOf(error, abi);
  if (revert) return classifyRevert(revert);
  if (error instanceof BaseError) return classifyRevertMessage(error.details || error.shortMessage || error.message);
  return undefined;
}
