// One viem public client per chain settings (per mode), created lazily and reused.
import { BaseError, type HttpTransportConfig, type PublicClient, createPublicClient, http } from 'viem';
import { chainDefinition } from './chain-definition.js';
import { type ChainSettings, DEFAULT_RPC_BOUNDS } from './config.js';

export type RpcBounds = { rpcTimeoutMs?: number; rpcRetryCount?: number };

/**
 * The HTTP transport of every chain client of the service: each request bounded by the mode's
 * CHAIN_<MODE>_RPC_TIMEOUT_MS and RPC_RETRY_COUNT (DEFAULT_RPC_BOUNDS), so a node that accepts
 * connections and never answers fails the call in seconds (viem's own default waits about 45 s).
 */
export function rpcTransport(rpcUrl: string, bounds: RpcBounds, options: Omit<HttpTransportConfig, 'timeout' | 'retryCount'> = {}) {
  return http(rpcUrl, {
    ...options,
    timeout: bounds.rpcTimeoutMs ?? DEFAULT_RPC_BOUNDS.timeoutMs,
    retryCount: bounds.rpcRetryCount ?? DEFAULT_RPC_BOUNDS.retryCount,
  });
}

const clients = new Map<string, PublicClient>();

export function publicClientFor(settings: ChainSettings): PublicClient {
  const key = `${settings.chainId}|${settings.rpcUrl}|${settings.pollIntervalMs}|${settings.rpcTimeoutMs}|${settings.rpcRetryCount}`;
  let client = clients.get(key);
  if (!client) {
    client = createPublicClient({
      chain: chainDefinition(settings.chainId, settings.rpcUrl),
      // Requests issued in the same tick (pre-checks of concurrent relay requests, receipt polls of
      // concurrent submissions) share one HTTP round trip as a JSON-RPC batch.
      transport: rpcTransport(settings.rpcUrl, settings, { batch: { batchSize: 100 } }),
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
