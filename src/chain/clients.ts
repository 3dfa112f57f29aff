// One viem public client per chain settings (per mode), created lazily and reused.
import { BaseError, type PublicClient, createPublicClient, http } from 'viem';
import { chainDefinition } from './chain-definition.js';
import type { ChainSettings } from './config.js';

const clients = new Map<string, PublicClient>();

export function publicClientFor(settings: ChainSettings): PublicClient {
  const key = `${settings.chainId}|${settings.rpcUrl}|${settings.pollIntervalMs}`;
  let client = clients.get(key);
  if (!client) {
    client = createPublicClient({
      chain: chainDefinition(settings.chainId, settings.rpcUrl),
      // Requests issued in the same tick (pre-checks of concurrent relay requests, receipt polls of
      // concurrent submissions) share one HTTP round trip as a JSON-RPC batch.
      transport: http(settings.rpcUrl, { retryCount: 2, timeout: 15_000, batch: { batchSize: 100 } }),
      pollingInterval: settings.pollIntervalMs,
      // Never serve a stale head: the indexer and confirmations read it on purpose.
      cacheTime: 0,
      // No Multicall3 aggregation: a dev chain has no Multicall3 deployed.
      batch: { multicall: false },
    }) as PublicClient;
    clients.set(key, client);
  }
  return client;
}

/**
 * A chain error fit for logs and workflow history: viem's full messages carry the RPC URL, which
 * often embeds a provider API key. Keeps the error's name and short message only.
 */
export function safeChainError(error: unknown): unknown {
  if (!(error instanceof BaseError)) return error;
  const safe = new Error(`${error.name}: ${error.shortMessage}`);
  safe.name = error.name;
  return safe;
}

/** Runs `work`, rethrowing chain errors without their RPC URL (API errors pass unchanged). */
export async function withSafeChainErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw safeChainError(error);
  }
}
