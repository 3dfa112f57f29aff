// Moving a test chain's time forward (test clocks, issue #30). Only a chain whose node takes the
// anvil test methods can be moved: the dev chain of `npm start` and the tests' private chains.
// Chain time only moves forward: every later block on that chain carries the new time.
import { createPublicClient, createTestClient, http } from 'viem';

/** Whether the node at `rpcUrl` is anvil (its client version says so): only then may a clock move it. */
export async function isControllableChain(rpcUrl: string): Promise<boolean> {
  const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0, timeout: 5_000 }) });
  try {
    const version = await client.request({ method: 'web3_clientVersion' });
    return typeof version === 'string' && version.toLowerCase().startsWith('anvil');
  } catch {
    return false;
  }
}

/**
 * Mines a block at `toMs` (rounded up to a second) when the latest block is before it; a chain
 * already at or past it is left alone, so a retry of this step changes nothing.
 */
export async function moveChainTimeTo(rpcUrl: string, toMs: number): Promise<{ moved: boolean; blockTimestamp: bigint }> {
  const transport = http(rpcUrl);
  const pub = createPublicClient({ transport });
  const test = createTestClient({ mode: 'anvil', transport });
  const target = BigInt(Math.ceil(toMs / 1000));
  const latest = (await pub.getBlock({ blockTag: 'latest' })).timestamp;
  if (latest >= target) return { moved: false, blockTimestamp: latest };
  await test.setNextBlockTimestamp({ timestamp: target });
  await test.mine({ blocks: 1 });
  return { moved: true, blockTimestamp: (await pub.getBlock({ blockTag: 'latest' })).timestamp };
}

/** The latest block's time (ms) of the chain at `rpcUrl`. */
export async function chainTimeMs(rpcUrl: string): Promise<number> {
  const pub = createPublicClient({ transport: http(rpcUrl) });
  return Number((await pub.getBlock({ blockTag: 'latest' })).timestamp) * 1000;
}
