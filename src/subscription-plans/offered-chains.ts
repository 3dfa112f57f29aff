// The chains a plan is offered on at enrolment (issue 39), and the one a customer picks: the plan's
// `chainIds` that the mode still has, in the plan's order (the first the default), or every chain of
// the mode, in configuration order, when the plan names none. The hosted enrolment offer and its enrol
// route both go through here, so a chain the page never offered is refused before anything is signed
// or relayed.
import { chainFor, chainsOf, type ChainConfig, type ChainSettings } from '../chain/config.js';
import { InvalidRequestError } from '../errors.js';

export type OfferedPlan = { livemode: boolean; chainIds: readonly number[] | null };

/** The mode's chains the plan is offered on; a mode without a chain is refused with its own message. */
export function offeredChainsOf(config: ChainConfig, plan: OfferedPlan): ChainSettings[] {
  chainFor(config, plan.livemode);
  const all = chainsOf(config, plan.livemode);
  if (!plan.chainIds) return all;
  // A chain removed from the configuration since the plan was made is no longer offered (nothing could charge there).
  return plan.chainIds.flatMap((chainId) => all.filter((settings) => settings.chainId === chainId));
}

/** The chain named (`chainId`, the customer's pick), else the plan's first; one it is not offered on is `param: chainId`. */
export function chosenPlanChain(offered: readonly ChainSettings[], chainId: number | undefined): ChainSettings {
  const first = offered[0];
  if (!first) throw new InvalidRequestError('This plan is not offered on any chain this deployment has.', { param: 'planId' });
  if (chainId === undefined) return first;
  const chosen = offered.find((settings) => settings.chainId === chainId);
  if (!chosen) {
    const ids = offered.map((settings) => settings.chainId).join(', ');
    throw new InvalidRequestError(`This plan is not offered on chain ${chainId}; it is offered on ${ids}.`, { param: 'chainId' });
  }
  return chosen;
}
