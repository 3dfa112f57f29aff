// Chain time: the timestamp the next block can carry at the earliest, which is
// what a contract's time checks see when a transaction sent now is mined. The
// relay's pre-checks and its simulation both use it, so they agree, and so do
// the operator's charges (a period that starts between the latest block and now).
import { type Address, type Hex, type PublicClient, BaseError, numberToHex } from 'viem';

const latestTimestamps = new WeakMap<PublicClient, { at: number; timestamp: Promise<bigint> }>();

/**
 * max(latest block timestamp + 1, wall clock). On a live chain the wall clock decides (the latest
 * block lags it by about a block time); on an idle automine dev chain the latest block can be
 * minutes old while the next one is mined at the wall clock. The latest block's timestamp is shared
 * for `maxAgeMs` (default a second) across concurrent callers; 0 reads it afresh (a chain whose
 * clock is moved by hand, as tests do, can jump months within that second).
 */
export async function nextBlockTime(client: PublicClient, { maxAgeMs = 1000 }: { maxAgeMs?: number } = {}): Promise<bigint> {
  let hit = latestTimestamps.get(client);
  if (!hit || maxAgeMs === 0 || Date.now() - hit.at > maxAgeMs) {
    hit = { at: Date.now(), timestamp: client.getBlock({ blockTag: 'latest' }).then((b) => b.timestamp) };
    hit.timestamp.catch(() => latestTimestamps.delete(client));
    latestTimestamps.set(client, hit);
  }
  const latest = await hit.timestamp;
  const wall = BigInt(Math.floor(Date.now() / 1000));
  return latest + 1n > wall ? latest + 1n : wall;
}

/** A node that does not take the block-overrides parameter answers "invalid params" (-32602). */
function refusesBlockOverrides(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return error.walk((e) => (e as { code?: unknown }).code === -32602) !== null;
}

/**
 * eth_estimateGas on the latest state, executed with the next block's timestamp (block overrides,
 * supported by anvil, geth since 1.15, erigon and reth). At `latest` alone, `block.timestamp` is the
 * latest block's, which can be before an authorization's validAfter although the transaction, once
 * mined, is inside its window. A node that refuses block overrides gets the plain estimate at
 * `latest`. A revert is thrown as the node reported it (with its data, for decoding).
 */
export async function estimateGasInNextBlock(
  client: PublicClient,
  request: { from: Address; to: Address; data: Hex },
  time: bigint,
): Promise<bigint> {
  // viem's estimateGas has no block overrides (its eth_call has): send the request ourselves.
  const estimate = client.request as unknown as (args: { method: 'eth_estimateGas'; params: unknown[] }) => Promise<Hex>;
  try {
    return BigInt(await estimate({ method: 'eth_estimateGas', params: [request, 'latest', {}, { time: numberToHex(time) }] }));
  } catch (error) {
    if (!refusesBlockOverrides(error)) throw error;
    return client.estimateGas({ account: request.from, to: request.to, data: request.data, blockTag: 'latest' });
  }
}

/**
 * Runs a simulation (an eth_call through viem's `blockOverrides`) at the next block's time, so a
 * check of `block.timestamp` sees what the mined transaction will see. A node that refuses block
 * overrides gets the call at `latest`. Any other error, a revert included, is the caller's.
 */
export async function callInNextBlock<T>(
  client: PublicClient,
  run: (blockOverrides: { time: bigint } | undefined) => Promise<T>,
  options: { maxAgeMs?: number } = {},
): Promise<T> {
  const time = await nextBlockTime(client, options);
  try {
    return await run({ time });
  } catch (error) {
    if (!refusesBlockOverrides(error)) throw error;
    return run(undefined);
  }
}
