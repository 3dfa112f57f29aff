// The escrow and the yield vault each hold one token, fixed when they were deployed.
// Agent wallets move the token of their mode (settings.token): before the first
// approve to either, check the contract pays in that same token, so a mode
// configured with another token's escrow or vault fails with a clear message
// instead of approving a token the contract never pulls.
import { type Address, erc4626Abi, getAddress, type PublicClient } from 'viem';
import { agenticCommerceEscrowAbi } from '../chain/generated/contracts.js';
import type { ChainSettings } from '../chain/config.js';

export class ModeTokenMismatchError extends Error {
  constructor(what: string, contract: Address, holds: Address, token: Address) {
    super(
      `The ${what} at ${contract} holds ${holds}, not this mode's token ${token}: deploy one for ${token} or configure the matching token.`,
    );
    this.name = 'ModeTokenMismatchError';
  }
}

const checked = new Map<string, Promise<void>>();

function once(key: string, check: () => Promise<void>): Promise<void> {
  let hit = checked.get(key);
  if (!hit) {
    hit = check();
    checked.set(key, hit);
    hit.catch(() => checked.delete(key));
  }
  return hit;
}

/** Throws ModeTokenMismatchError unless the mode's escrow pays in the mode's token (checked once per process). */
export function assertEscrowToken(client: PublicClient, settings: Pick<ChainSettings, 'chainId' | 'escrow' | 'token'>): Promise<void> {
  return once(`escrow:${settings.chainId}:${settings.escrow}:${settings.token}`, async () => {
    const holds = await client.readContract({ address: settings.escrow, abi: agenticCommerceEscrowAbi, functionName: 'paymentToken' });
    if (getAddress(holds) !== getAddress(settings.token))
      throw new ModeTokenMismatchError('escrow', settings.escrow, holds, settings.token);
  });
}

/** Throws ModeTokenMismatchError unless the yield vault's asset is the mode's token (checked once per process). */
export function assertVaultAsset(client: PublicClient, settings: Pick<ChainSettings, 'chainId' | 'token'>, vault: Address): Promise<void> {
  return once(`vault:${settings.chainId}:${vault}:${settings.token}`, async () => {
    const asset = await client.readContract({ address: vault, abi: erc4626Abi, functionName: 'asset' });
    if (getAddress(asset) !== getAddress(settings.token)) throw new ModeTokenMismatchError('yield vault', vault, asset, settings.token);
  });
}
