import { describe, expect, it } from 'vitest';
import { BaseError, ContractFunctionExecutionError, ContractFunctionRevertedError, encodeErrorResult, parseAbi } from 'viem';
import { subscriptionManagerAbi } from '../../src/chain/generated/contracts.js';
import {
  REFUSAL_CODES,
  blacklistedSide,
  classifyRevert,
  classifyRevertMessage,
  describeRefusal,
  describeRefusalToPayer,
  payerRefusalMessages,
  refusalOf,
  retryOf,
} from '../../src/chain/refusals.js';

const stringRevert = (reason: string) => ({ errorName: 'Error', args: [reason] });

describe('classifyRevert: Circle USDC revert strings', () => {
  it.each([
    ['Blacklistable: account is blacklisted', 'account_blacklisted'],
    ['Pausable: paused', 'token_paused'],
    ['ERC20: transfer amount exceeds balance', 'insufficient_funds'],
    ['ERC20: transfer amount exceeds allowance', 'insufficient_allowance'],
    ['FiatTokenV2: invalid signature', 'signature_invalid'],
    ['FiatTokenV2: authorization is expired', 'authorization_expired'],
    ['FiatTokenV2: authorization is not yet valid', 'authorization_not_yet_valid'],
    ['FiatTokenV2: authorization is used or canceled', 'authorization_used'],
    ['EIP2612: permit is expired', 'authorization_expired'],
    ['EIP2612: invalid signature', 'signature_invalid'],
    ['ECRecover: invalid signature length', 'signature_invalid'],
    ["ECRecover: invalid signature 's' value", 'signature_invalid'],
    ["ECRecover: invalid signature 'v' value", 'signature_invalid'],
    ['ECRecover: invalid signature', 'signature_invalid'],
  ])('%s -> %s', (reason, code) => {
    expect(classifyRevert(stringRevert(reason))).toEqual({ code, reason: describeRefusal(code as never) });
  });

  it('leaves strings it does not know unclassified', () => {
    expect(classifyRevert(stringRevert('FiatTokenV2: caller must be the payee'))).toBeUndefined();
    expect(classifyRevert(stringRevert('Pausable: paused and more'))).toBeUndefined();
  });
});

describe('classifyRevert: our custom errors', () => {
  it.each([
    ['InsufficientBalance', 'insufficient_funds'],
    ['InsufficientAllowance', 'insufficient_allowance'],
    ['PermitFailed', 'insufficient_allowance'],
    ['EnrolmentExpired', 'authorization_expired'],
    ['EnrolmentNonceUsed', 'authorization_used'],
    ['InvalidEnrolmentSignature', 'signature_invalid'],
    ['CancellationExpired', 'authorization_expired'],
    ['InvalidCancellationSignature', 'signature_invalid'],
    ['ERC20InsufficientBalance', 'insufficient_funds'],
    ['ERC20InsufficientAllowance', 'insufficient_allowance'],
    ['EnforcedPause', 'token_paused'],
  ])('%s -> %s', (errorName, code) => {
    expect(classifyRevert({ errorName, args: [] })?.code).toBe(code);
  });

  it('leaves non-refusals (state errors of the contract) unclassified', () => {
    for (const errorName of ['PeriodAlreadyCharged', 'NotOperator', 'SubscriptionIsCancelled', 'ChargeTransferFailed']) {
      expect(classifyRevert({ errorName, args: [] })).toBeUndefined();
    }
  });
});

describe('refusalOf: from viem errors', () => {
  it('decodes an Error(string) revert carried as raw data', () => {
    const data = encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: ['Pausable: paused'] });
    const error = new BaseError('execution reverted', { cause: Object.assign(new BaseError('rpc'), { data }) });
    expect(refusalOf(error)?.code).toBe('token_paused');
  });

  it('decodes the token string re-thrown by SubscriptionManager.charge (safeTransferFrom bubbles it)', () => {
    const data = encodeErrorResult({
      abi: parseAbi(['error Error(string)']),
      errorName: 'Error',
      args: ['Blacklistable: account is blacklisted'],
    });
    const reverted = new ContractFunctionRevertedError({ abi: subscriptionManagerAbi, data, functionName: 'charge' });
    const error = new ContractFunctionExecutionError(reverted, { abi: subscriptionManagerAbi, functionName: 'charge', args: [] });
    expect(refusalOf(error)?.code).toBe('account_blacklisted');
  });

  it('decodes a custom error of the contract', () => {
    const data = encodeErrorResult({ abi: subscriptionManagerAbi, errorName: 'InsufficientBalance', args: [1n, 2n, 3n] });
    const error = new BaseError('reverted', { cause: Object.assign(new BaseError('rpc'), { data }) });
    expect(refusalOf(error, subscriptionManagerAbi)?.code).toBe('insufficient_funds');
  });

  it('falls back to the message when there is no data', () => {
    expect(classifyRevertMessage('execution reverted: FiatTokenV2: authorization is expired')?.code).toBe('authorization_expired');
    expect(refusalOf(new BaseError('execution reverted: Pausable: paused'))?.code).toBe('token_paused');
    expect(refusalOf(new Error('Pausable: paused'))).toBeUndefined();
  });
});

describe('blacklistedSide and retryOf', () => {
  const blocked = classifyRevert(stringRevert('Blacklistable: account is blacklisted'))!;
  it('names the side read on the chain; the payer wins a tie', () => {
    expect(blacklistedSide(blocked, { payer: true, merchant: false }).code).toBe('payer_blacklisted');
    expect(blacklistedSide(blocked, { payer: false, merchant: true }).code).toBe('merchant_blacklisted');
    expect(blacklistedSide(blocked, { payer: true, merchant: true }).code).toBe('payer_blacklisted');
    expect(blacklistedSide(blocked, { payer: false, merchant: false }).code).toBe('account_blacklisted');
    const paused = classifyRevert(stringRevert('Pausable: paused'))!;
    expect(blacklistedSide(paused, { payer: true, merchant: true })).toBe(paused);
  });

  it('paused retries later, funds and allowance dun, the rest stops', () => {
    expect(retryOf('token_paused')).toBe('later');
    expect(retryOf('insufficient_funds')).toBe('dunning');
    expect(retryOf('insufficient_allowance')).toBe('dunning');
    for (const code of [
      'payer_blacklisted',
      'merchant_blacklisted',
      'account_blacklisted',
      'signature_invalid',
      'authorization_used',
      'authorization_expired',
    ] as const) {
      expect(retryOf(code)).toBe('never');
    }
    for (const code of REFUSAL_CODES) expect(describeRefusal(code)).toMatch(/\.$/);
  });

  it('every code has one payer sentence for the hosted pages: second person or the merchant named, what happened to the money, a next step', () => {
    const sentences = REFUSAL_CODES.map((code) => describeRefusalToPayer(code));
    expect(new Set(sentences).size).toBe(REFUSAL_CODES.length);
    for (const [i, code] of REFUSAL_CODES.entries()) {
      const text = sentences[i]!;
      expect(text, code).toMatch(/\.$/);
      expect(text, code).not.toBe(describeRefusal(code));
      expect(text, code).toMatch(/Nothing (more )?was taken/);
      expect(text, code).not.toMatch(/revert|Error\(|0x/);
    }
    expect(payerRefusalMessages()).toEqual(Object.fromEntries(REFUSAL_CODES.map((code) => [code, describeRefusalToPayer(code)])));
  });
});
