// The account's default of the chains a new payment session accepts, one setting per mode (issue 39):
// read and replaced through GET/PUT /v1/merchants/me/accepted-chains, applied when a session names no chains
// (src/payment-sessions/accepted-chains.ts). Only a chain configured for the request's mode may be chosen.
import { chainFor, chainsOf, type ChainConfig } from '../chain/config.js';
import type { Db } from '../db/client.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { networkName } from '../payment-sessions/api-shape.js';
import { modeAcceptedChainIds } from '../payment-sessions/accepted-chains.js';
import * as repo from './repo.js';
import type { AcceptedChains } from './schemas.js';

function render(config: ChainConfig, livemode: boolean, stored: string[] | null): AcceptedChains {
  const chosen = modeAcceptedChainIds(config, livemode, stored);
  return {
    object: 'accepted_chains',
    livemode,
    acceptedChainIds: chosen,
    chains: chainsOf(config, livemode).map((settings) => ({
      chainId: settings.chainId,
      network: networkName(settings.chainId),
      accepted: chosen === null || chosen.includes(settings.chainId),
    })),
  };
}

export function createAcceptedChainsService({ sql, chain }: { sql: Db; chain: ChainConfig }) {
  return {
    async get(scope: MerchantScope): Promise<AcceptedChains> {
      chainFor(chain, scope.livemode); // a mode without a chain says so, as every chain route does
      const stored = await repo.findAcceptedChainIds(sql, scope.merchantId);
      if (stored === undefined) throw new NotFoundError('No such merchant.');
      return render(chain, scope.livemode, stored);
    },

    async set(scope: MerchantScope, acceptedChainIds: number[] | null): Promise<AcceptedChains> {
      chainFor(chain, scope.livemode);
      const modeIds = chainsOf(chain, scope.livemode).map((settings) => settings.chainId);
      (acceptedChainIds ?? []).forEach((chainId, i) => {
        if (!modeIds.includes(chainId)) {
          throw new InvalidRequestError(
            `Chain ${chainId} is not one of this deployment's ${scope.livemode ? 'live' : 'test'} mode chains (${modeIds.join(', ')}).`,
            { param: `acceptedChainIds.${i}` },
          );
        }
      });
      const stored = await repo.replaceModeAcceptedChainIds(sql, scope.merchantId, modeIds, [...new Set(acceptedChainIds ?? [])]);
      return render(chain, scope.livemode, stored);
    },
  };
}

export type AcceptedChainsService = ReturnType<typeof createAcceptedChainsService>;
