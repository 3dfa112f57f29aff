/**
 * Why a mined transaction reverted, named. A receipt carries no revert data, so the call is replayed
 * (eth_call, same sender, target and data) against the state of the block it was mined in; what the
 * token or contract answers there is classified by src/chain/refusals.ts. A replay that now succeeds
 * (the state moved within the block) or reverts for an unnamed reason answers undefined: the caller
 * keeps its generic handling.
 */
import type { Abi, Address, Hex, PublicClient } from 'viem';
import { type Refusal, refusalOf } from './refusals.js';

export type MinedCall = { from: Address; to: Address; data: Hex; blockNumber: bigint };

export async function refusalOfMinedCall(client: PublicClient, call: MinedCall, abi?: Abi): Promise<Refusal | undefined> {
  try {
    await client.call({ account: call.from, to: call.to, data: call.data, blockNumber: call.blockNumber });
    return undefined;
  } catch (error) {
    return refusalOf(error, abi);
  }
}
