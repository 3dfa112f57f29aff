// The start-up check of a configured chain: does its node report the chain id we
// configured, and is there code at every contract address we will call there? A
// wrong RPC URL or a chain the contracts were never deployed to would otherwise
// show up much later as reverts, empty reads or missed payments. A node that does
// not answer is an outage, not a misconfiguration: the processes start anyway and
// that chain is reported degraded until it answers (src/health/readiness.ts).
import type { Address } from 'viem';
import { allChains, type ChainConfig, type ChainSettings } from './config.js';
import { publicClientFor, safeChainError } from './clients.js';

export type ChainCheck =
  | { kind: 'ok' }
  | { kind: 'unreachable'; error: unknown }
  /** Each problem is one sentence naming the chain and the variable to fix. */
  | { kind: 'misconfigured'; problems: string[] };

/** A configured chain that is not what its configuration says: the process refuses to start. */
export class ChainMisconfiguredError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid chain configuration: ${problems.join(' ')}`);
    this.name = 'ChainMisconfiguredError';
  }
}

/** How log lines and refusals name a chain: "test mode chain 31338". */
export function chainLabel(settings: Pick<ChainSettings, 'mode' | 'chainId'>): string {
  return `${settings.mode} mode chain ${settings.chainId}`;
}

function prefixOf(settings: ChainSettings): string {
  return settings.variablePrefix ?? `CHAIN_${settings.mode.toUpperCase()}_`;
}

/** Every contract address the service calls on this chain, with the variable that sets it. */
function contractsOf(settings: ChainSettings): { variable: string; address: Address }[] {
  const P = prefixOf(settings);
  const named: [string, Address | undefined][] = [
    [`${P}TOKEN_ADDRESS`, settings.token],
    [`${P}SUBSCRIPTION_MANAGER_ADDRESS`, settings.subscriptionManager],
    [`${P}SUBSCRIPTION_MANAGER_V2_ADDRESS`, settings.subscriptionManagerV2],
    [`${P}ESCROW_ADDRESS`, settings.escrow],
    [`${P}DEPOSIT_FACTORY_ADDRESS`, settings.depositFactory],
    [`${P}DEPOSIT_FACTORY_V2_ADDRESS`, settings.depositFactoryV2],
  ];
  return named.filter((entry): entry is [string, Address] => entry[1] !== undefined).map(([variable, address]) => ({ variable, address }));
}

export async function checkChain(settings: ChainSettings): Promise<ChainCheck> {
  const client = publicClientFor(settings);
  const P = prefixOf(settings);
  let reported: number;
  try {
    reported = await client.getChainId();
  } catch (error) {
    return { kind: 'unreachable', error: safeChainError(error) };
  }
  if (reported !== settings.chainId) {
    return {
      kind: 'misconfigured',
      problems: [
        `${chainLabel(settings)}: the node at ${P}RPC_URL reports chain id ${reported}, not ${settings.chainId}; point ${P}RPC_URL at a node of chain ${settings.chainId} (or correct the chain's id or preset).`,
      ],
    };
  }
  const problems: string[] = [];
  // A further chain inherits its addresses from the mode's first chain (CREATE2): say so, the variable may be unset.
  const further = P !== `CHAIN_${settings.mode.toUpperCase()}_`;
  try {
    for (const { variable, address } of contractsOf(settings)) {
      const code = await client.getCode({ address });
      if (!code || code === '0x') {
        problems.push(
          `${chainLabel(settings)}: no contract at ${address} (${variable}${further ? `, the mode's first chain's address when unset` : ''}); deploy the contracts to this chain (npm run contracts:deploy) or set ${variable} to where they are.`,
        );
      }
    }
  } catch (error) {
    return { kind: 'unreachable', error: safeChainError(error) };
  }
  return problems.length > 0 ? { kind: 'misconfigured', problems } : { kind: 'ok' };
}

type CheckLog = { warn: (obj: object, msg: string) => void };

/**
 * The api's and the worker's start: every configured chain checked at once. A misconfigured chain
 * refuses the start (ChainMisconfiguredError, naming every problem found); an unreachable one is
 * logged and the start goes on (its calls fail and are retried until the node answers).
 */
export async function refuseMisconfiguredChains(config: ChainConfig, log: CheckLog): Promise<void> {
  const chains = allChains(config);
  const checks = await Promise.all(chains.map((settings) => checkChain(settings)));
  const problems: string[] = [];
  for (const [i, check] of checks.entries()) {
    const settings = chains[i]!;
    if (check.kind === 'misconfigured') problems.push(...check.problems);
    if (check.kind === 'unreachable') {
      log.warn(
        { chainId: settings.chainId, livemode: settings.livemode, err: check.error },
        `${chainLabel(settings)} did not answer at start-up; its contracts are checked when it does (the indexer waits for it)`,
      );
    }
  }
  if (problems.length > 0) throw new ChainMisconfiguredError(problems);
}
