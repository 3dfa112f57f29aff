// Which chains a plan is offered on at enrolment, and which one a customer's pick resolves to (issue 39).
import { describe, expect, it } from 'vitest';
import type { ChainConfig, ChainSettings } from '../../src/chain/config.js';
import { InvalidRequestError } from '../../src/errors.js';
import { chosenPlanChain, offeredChainsOf } from '../../src/subscription-plans/offered-chains.js';

const chainOf = (chainId: number, livemode = false): ChainSettings => ({
  mode: livemode ? 'live' : 'test',
  livemode,
  rpcUrl: `http://127.0.0.1:${chainId}`,
  chainId,
  token: '0x0000000000000000000000000000000000000001',
  subscriptionManager: '0x0000000000000000000000000000000000000002',
  escrow: '0x0000000000000000000000000000000000000003',
  confirmations: 1,
  startBlock: 0n,
  stuckAfterSeconds: 60,
  pollIntervalMs: 1000,
});
const [a, b, c] = [chainOf(31337), chainOf(31338), chainOf(31339)];
const config: ChainConfig = { test: a, others: { test: [b, c] }, live: chainOf(8453, true) };
const ids = (chains: ChainSettings[]) => chains.map((s) => s.chainId);

function refusal(run: () => unknown): { param: string | undefined; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    return { param: (error as InvalidRequestError).param, message: (error as Error).message };
  }
  throw new Error('expected a refusal');
}

describe("a plan's chains at enrolment", () => {
  it('a plan naming no chains is offered on every chain of its mode, in configuration order; the first is the default', () => {
    const offered = offeredChainsOf(config, { livemode: false, chainIds: null });
    expect(ids(offered)).toEqual([31337, 31338, 31339]);
    expect(chosenPlanChain(offered, undefined).chainId).toBe(31337);
    expect(chosenPlanChain(offered, 31339).chainId).toBe(31339);
    expect(ids(offeredChainsOf(config, { livemode: true, chainIds: null }))).toEqual([8453]);
  });

  it("a plan's chainIds keep the plan's order (its first the default) and drop a chain the mode no longer has", () => {
    const offered = offeredChainsOf(config, { livemode: false, chainIds: [31339, 99999, 31337] });
    expect(ids(offered)).toEqual([31339, 31337]);
    expect(chosenPlanChain(offered, undefined).chainId).toBe(31339);
  });

  it('a chain the plan is not offered on, or the mode lacks, is refused naming chainId and the chains offered', () => {
    const offered = offeredChainsOf(config, { livemode: false, chainIds: [31338] });
    expect(refusal(() => chosenPlanChain(offered, 31337))).toEqual({
      param: 'chainId',
      message: 'This plan is not offered on chain 31337; it is offered on 31338.',
    });
    expect(refusal(() => chosenPlanChain(offered, 8453)).param).toBe('chainId');
  });

  it('a plan whose chains are all gone, or a mode without chains, is refused, never a 500', () => {
    expect(refusal(() => chosenPlanChain(offeredChainsOf(config, { livemode: false, chainIds: [99999] }), undefined)).param).toBe('planId');
    expect(refusal(() => offeredChainsOf({ test: a }, { livemode: true, chainIds: null })).param).toBe('livemode');
  });
});
