// A mined chargeMany's receipt is read once for the whole batch: each item's outcome from its own log.
import { encodeAbiParameters, encodeEventTopics, toFunctionSelector, type Address, type Hex, type Log } from 'viem';
import { describe, expect, it } from 'vitest';
import { subscriptionManagerAbi } from '../../src/chain/generated/contracts.js';
import { chargeManyOutcomes } from '../../src/subscriptions/chain.js';

const manager: Address = '0x00000000000000000000000000000000000000aa';
const elsewhere: Address = '0x00000000000000000000000000000000000000bb';
const alreadyCharged = toFunctionSelector('PeriodAlreadyCharged(uint256,uint32)');

function log(address: Address, topics: Hex[], data: Hex, logIndex: number): Log {
  return {
    address,
    topics: topics as [Hex, ...Hex[]],
    data,
    blockHash: `0x${'11'.repeat(32)}`,
    blockNumber: 7n,
    logIndex,
    transactionHash: `0x${'22'.repeat(32)}`,
    transactionIndex: 0,
    removed: false,
  };
}

const charged = (address: Address, id: bigint, periodIndex: number, at: number) =>
  log(
    address,
    encodeEventTopics({ abi: subscriptionManagerAbi, eventName: 'SubscriptionCharged', args: { id, periodIndex } }) as Hex[],
    encodeAbiParameters([{ type: 'uint256' }], [1_000_000n]),
    at,
  );
const failed = (id: bigint, periodIndex: number, reason: Hex, at: number) =>
  log(
    manager,
    encodeEventTopics({ abi: subscriptionManagerAbi, eventName: 'SubscriptionChargeFailed', args: { id, periodIndex } }) as Hex[],
    encodeAbiParameters([{ type: 'bytes4' }], [reason]),
    at,
  );

describe('chargeManyOutcomes', () => {
  it("names each item's outcome from its own log, and only this manager's logs count", () => {
    const outcomes = chargeManyOutcomes(manager, [
      charged(manager, 1n, 0, 0),
      failed(2n, 3, alreadyCharged, 1),
      // The same id and period charged by another contract says nothing about this manager's item.
      charged(elsewhere, 3n, 1, 2),
      // A transfer log of the token sits in the same receipt and is not an outcome.
      log(elsewhere, [`0x${'33'.repeat(32)}`], '0x', 3),
    ]);
    expect([...outcomes]).toEqual([
      ['1:0', 'charged'],
      ['2:3', alreadyCharged],
    ]);
    expect(outcomes.has('3:1')).toBe(false);
  });

  it('is empty for a receipt without charge logs', () => {
    expect(chargeManyOutcomes(manager, []).size).toBe(0);
  });
});
