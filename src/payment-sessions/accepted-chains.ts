// Which chains a new payment session accepts (issue 39): those the request names, else those the
// merchant's account setting keeps of the mode's chains, else every chain of the mode, in the
// configuration's order. Each comes with its token there; the first is the session's chainId and token.
import { chainFor, chainsOf, type ChainConfig } from '../chain/config.js';
import { ApiError, InvalidRequestError } from '../errors.js';
import type { AcceptedChain } from './repo.js';

/** `chainId` as a chain of the mode, or the envelope naming `param` (a chain the mode lacks is client input, not a 500). */
function modeChain(config: ChainConfig, livemode: boolean, chainId: number, param: string) {
  try {
    return chainFor(config, livemode, chainId);
  } catch (error) {
    if (error instanceof ApiError) throw new InvalidRequestError(error.message, { param });
    throw error;
  }
}

/**
 * The account setting's part for one mode: `merchants.accepted_chain_ids` holds the chosen chains of both modes
 * (no chain id is in both: refused at start), so a mode's part is the ids among its configured chains, in
 * configuration order. Null: no restriction in this mode (never set, or it names none of this mode's chains).
 */
export function modeAcceptedChainIds(
  config: ChainConfig,
  livemode: boolean,
  stored: readonly (string | number)[] | null | undefined,
): number[] | null {
  if (!stored) return null;
  const ids = new Set(stored.map(Number));
  const kept = chainsOf(config, livemode)
    .map((settings) => settings.chainId)
    .filter((chainId) => ids.has(chainId));
  return kept.length > 0 ? kept : null;
}

export function resolveAcceptedChains(
  config: ChainConfig,
  livemode: boolean,
  requested: number[] | undefined,
  merchantChainIds: string[] | null | undefined,
): AcceptedChain[] {
  chainFor(config, livemode); // a mode without a chain is refused first, with its own message
  // Only this mode's part of the setting: the other mode's chains restrict nothing here.
  const modeIds = modeAcceptedChainIds(config, livemode, merchantChainIds);
  const allowed = modeIds ? new Set(modeIds) : undefined;
  if (requested) {
    const seen = new Set<number>();
    return requested.flatMap((chainId, i) => {
      const settings = modeChain(config, livemode, chainId, `acceptedChainIds.${i}`);
      if (allowed && !allowed.has(chainId))
        throw new InvalidRequestError(`Chain ${chainId} is not among the chains this account accepts (${[...allowed].join(', ')}).`, {
          param: `acceptedChainIds.${i}`,
        });
      if (seen.has(chainId)) return [];
      seen.add(chainId);
      return [{ chainId, token: settings.token }];
    });
  }
  const all = chainsOf(config, livemode);
  const kept = allowed ? all.filter((settings) => allowed.has(settings.chainId)) : all;
  return kept.map((settings) => ({ chainId: settings.chainId, token: settings.token }));
}

/** Whether the session accepts payment on `chainId`. */
export function acceptsChain(accepted: AcceptedChain[], chainId: number): boolean {
  return accepted.some((chain) => chain.chainId === chainId);
}
