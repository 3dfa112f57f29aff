/**
 * Test helpers for the chain layer: revert assertions. The EIP-712 types and signing helpers live in
 * src/chain/typed-data.ts (product code uses them too) and are re-exported here.
 */
import { decodeRevert, type DecodedRevert } from '../../src/chain/typed-data.js';

export * from '../../src/chain/typed-data.js';

/** Awaits `p` and asserts it reverted with the named custom error. Returns the decoded error. */
export async function expectRevert(p: Promise<unknown>, errorName: string): Promise<DecodedRevert> {
  let error: unknown;
  try {
    await p;
  } catch (err) {
    error = err;
  }
  if (error === undefined) throw new Error(`expected revert ${errorName}, but the call succeeded`);
  const decoded = decodeRevert(error);
  if (!decoded) throw new Error(`expected revert ${errorName}, got: ${String(error)}`);
  if (decoded.errorName !== errorName) {
    throw new Error(`expected revert ${errorName}, got ${decoded.errorName}(${decoded.args.map(String).join(', ')})`);
  }
  return decoded;
}

/** Awaits `p` and asserts it reverted with `Error(reason)`: Circle's USDC reverts with strings, not custom errors. */
export async function expectRevertReason(p: Promise<unknown>, reason: string): Promise<DecodedRevert> {
  const decoded = await expectRevert(p, 'Error');
  if (decoded.args[0] !== reason) throw new Error(`expected revert reason "${reason}", got "${String(decoded.args[0])}"`);
  return decoded;
}

/** Re-exported so tests import ABIs from one place. */
export { subscriptionManagerAbi } from '../../src/chain/generated/contracts.js';
export { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
