// Pure pieces of the x402 settle path: which transferWithAuthorization
// overload a signature goes through, and how a token refusal is named.
import { decodeFunctionData, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { encodeRelayCall, type PaymentCall } from '../../src/relay/calls.js';
import { refusalReason, X402_REASONS } from '../../src/x402/reasons.js';

const payment = (signature: Hex): PaymentCall => ({
  kind: 'payment',
  token: '0x0000000000000000000000000000000000000001',
  from: '0x0000000000000000000000000000000000000002',
  to: '0x0000000000000000000000000000000000000003',
  value: '10000',
  validAfter: '0',
  validBefore: '4000000000',
  nonce: `0x${'ab'.repeat(32)}`,
  signature,
});

describe('transferWithAuthorization overload', () => {
  it('sends a 65-byte signature as (v, r, s)', () => {
    const signature = `0x${'11'.repeat(32)}${'22'.repeat(32)}1b` as Hex;
    const { args } = decodeFunctionData({ abi: fiatTokenAbi, data: encodeRelayCall(payment(signature)).data });
    expect(args).toHaveLength(9);
    expect(args!.slice(6)).toEqual([27, `0x${'11'.repeat(32)}`, `0x${'22'.repeat(32)}`]);
  });

  it("sends any other signature (an ERC-1271 wallet's) as bytes", () => {
    const signature = `0x${'33'.repeat(96)}` as Hex;
    const { functionName, args } = decodeFunctionData({ abi: fiatTokenAbi, data: encodeRelayCall(payment(signature)).data });
    expect(functionName).toBe('transferWithAuthorization');
    expect(args).toHaveLength(7);
    expect(args![6]).toBe(signature);
  });
});

describe('refusalReason', () => {
  it.each([
    [{ code: 'AuthorizationExpired', reason: '' }, X402_REASONS.validBefore],
    [{ code: 'Error', reason: 'The contract reverted with Error(FiatTokenV2: authorization is expired).' }, X402_REASONS.validBefore],
    [{ code: 'AuthorizationNotYetValid', reason: '' }, X402_REASONS.validAfter],
    [{ code: 'Error', reason: 'Error(FiatTokenV2: authorization is used or canceled)' }, X402_REASONS.nonceUsed],
    [{ code: 'ERC20InsufficientBalance', reason: '' }, X402_REASONS.insufficientBalance],
    [{ code: 'Error', reason: 'Error(ERC20: transfer amount exceeds balance)' }, X402_REASONS.insufficientBalance],
    [{ code: 'InvalidSignature', reason: '' }, X402_REASONS.invalidSignature],
    [{ code: 'Error', reason: 'Error(FiatTokenV2: invalid signature)' }, X402_REASONS.invalidSignature],
    [{ code: 'signature_invalid', reason: 'The signature is not valid for this payment.' }, X402_REASONS.invalidSignature],
    [{ code: 'authorization_expired', reason: '' }, X402_REASONS.validBefore],
    [{ code: 'authorization_not_yet_valid', reason: '' }, X402_REASONS.validAfter],
    [{ code: 'authorization_used', reason: '' }, X402_REASONS.nonceUsed],
    [{ code: 'insufficient_funds', reason: '' }, X402_REASONS.insufficientBalance],
    [{ code: 'token_paused', reason: '' }, X402_REASONS.simulationFailed],
    [{ code: 'account_blacklisted', reason: '' }, X402_REASONS.simulationFailed],
    [{ code: 'NonceConsumed', reason: '' }, X402_REASONS.invalidTransactionState],
    [{ code: 'Error', reason: 'Error(Blacklistable: account is blacklisted)' }, X402_REASONS.simulationFailed],
    [{ code: 'Error', reason: 'Error(Pausable: paused)' }, X402_REASONS.simulationFailed],
  ])('names %o as %s', (failure, reason) => {
    expect(refusalReason(failure, X402_REASONS.simulationFailed)).toBe(reason);
  });
});
