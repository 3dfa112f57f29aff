/**
 * What USDC itself would refuse before any signature or transfer: is the token paused, is an address
 * blacklisted. Read at the door (enrolment, payment) and after a refusal, to name which side USDC
 * found blacklisted (its revert string does not say).
 */
import { type Address, BaseError, ContractFunctionRevertedError, ContractFunctionZeroDataError, type PublicClient } from 'viem';
import { fiatTokenAbi } from './generated/fiat-token.js';
import { type Refusal, blacklistedSide } from './refusals.js';

/**
 * Whether `account` is blacklisted on `token`. A token without `isBlacklisted` (not a FiatToken)
 * reads as not blacklisted: it cannot refuse for that reason.
 */
export async function isBlacklisted(client: PublicClient, token: Address, account: Address, blockNumber?: bigint): Promise<boolean> {
  try {
    return await client.readContract({
      address: token,
      abi: fiatTokenAbi,
      functionName: 'isBlacklisted',
      args: [account],
      ...(blockNumber !== undefined ? { blockNumber } : {}),
    });
  } catch (error) {
    if (isMissingFunction(error)) return false;
    throw error;
  }
}

/** Whether the token is paused; false for a token without `paused()`. */
export async function isPaused(client: PublicClient, token: Address): Promise<boolean> {
  try {
    return await client.readContract({ address: token, abi: fiatTokenAbi, functionName: 'paused' });
  } catch (error) {
    if (isMissingFunction(error)) return false;
    throw error;
  }
}

// A read that reverted or returned nothing: the function is missing (TestUSDC and plain ERC-20s).
// An RPC failure stays an error.
function isMissingFunction(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return error.walk((e) => e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError) !== null;
}

export type Standing = { paused: boolean; payerBlacklisted: boolean; payeeBlacklisted: boolean };

/** The three reads a payment or enrolment can be refused for, concurrently. */
export async function readStanding(client: PublicClient, token: Address, payer: Address, payee: Address): Promise<Standing> {
  const [paused, payerBlacklisted, payeeBlacklisted] = await Promise.all([
    isPaused(client, token),
    isBlacklisted(client, token, payer),
    isBlacklisted(client, token, payee),
  ]);
  return { paused, payerBlacklisted, payeeBlacklisted };
}

/**
 * `refusal` with the blacklisted side named from the chain (a no-op for other refusals): as of
 * `blockNumber` for a mined transaction (the issuer may have lifted the blacklist since), else now.
 */
export async function nameBlacklistedSide(
  client: PublicClient,
  token: Address,
  payer: Address,
  payee: Address,
  refusal: Refusal,
  blockNumber?: bigint,
): Promise<Refusal> {
  if (refusal.code !== 'account_blacklisted') return refusal;
  const [payerBlocked, payeeBlocked] = await Promise.all([
    isBlacklisted(client, token, payer, blockNumber),
    isBlacklisted(client, token, payee, blockNumber),
  ]);
  return blacklistedSide(refusal, { payer: payerBlocked, merchant: payeeBlocked });
}
