/**
 * Circle's USDC at a chain's canonical USDC address on an anvil (Base's 0x8335…2913 on a chain id 8453
 * anvil): what a fork of the real chain would hold there, without a fork. The implementation is
 * deployed as on the dev chain (circle-usdc.ts); FiatTokenProxy's runtime code is then written at the
 * canonical address with its admin and implementation slots set, since a CREATE cannot land there.
 * The token is initialised through that address like the dev token (same dev roles).
 */
import { type Address, type Hex, type PublicClient, pad } from 'viem';
import { initialiseUsdc, loadCircleUsdcArtifacts } from './circle-usdc.js';
import { ensureUsdcImplementation, giveUsdcRolesGas } from './deploy.js';
import { DEV_ACCOUNTS } from './test-accounts.js';

/** AdminUpgradeabilityProxy (zeppelinos) storage slots: keccak256("org.zeppelinos.proxy.implementation"), keccak256("org.zeppelinos.proxy.admin"). */
export const FIAT_TOKEN_PROXY_SLOTS = Object.freeze({
  implementation: '0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3' as Hex,
  admin: '0x10d6a54a4754c8869d6886b5f5d7fbfa5b4522237ea5c60d11bc4e7a1ff9390b' as Hex,
});

const rpc = (client: PublicClient, method: string, params: unknown[]) =>
  client.request({ method: method as never, params: params as never });

/** Installs and initialises Circle's USDC at `address` on an anvil; the dev deployer is the proxy's admin. */
export async function installUsdcAt(client: PublicClient, address: Address): Promise<void> {
  await giveUsdcRolesGas(client);
  const implementation = await ensureUsdcImplementation(client, await client.getChainId());
  await rpc(client, 'anvil_setCode', [address, loadCircleUsdcArtifacts().fiatTokenProxy.deployedBytecode]);
  await rpc(client, 'anvil_setStorageAt', [address, FIAT_TOKEN_PROXY_SLOTS.implementation, pad(implementation)]);
  await rpc(client, 'anvil_setStorageAt', [address, FIAT_TOKEN_PROXY_SLOTS.admin, pad(DEV_ACCOUNTS.deployer.address)]);
  await initialiseUsdc(client, address);
}
