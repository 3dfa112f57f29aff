// One viem public client per chain settings (per mode), created lazily and reused.
import { type PublicClient, createPublicClient, http } from 'viem';
import { devChain } from './deploy.js';
import type { ChainSettings } from './config.js';

const clients = new Map<string, PublicClient>();

export function publicClientFor(settings: ChainSettings): PublicClient {
  const key = `${settings.chainId}|${settings.rpcUrl}|${settings.pollIntervalMs}`;
  let client = clients.get(key);
  if (!client) {
    client = createPublicClient({
      chain: devChain(settings.chainId, settings.rpcUrl),
      transport: http(settings.rpcUrl, { retryCount: 2, timeout: 15_000 }),
      pollingInterval: settings.pollIntervalMs,
      // Never serve a stale head: the indexer and confirmations read it on purpose.
      cacheTime: 0,
      // Pre-checks of concurrent requests share one HTTP round trip.
      batch: { multicall: false },
    }) as PublicClient;
    clients.set(key, client);
  }
  return client;
}
