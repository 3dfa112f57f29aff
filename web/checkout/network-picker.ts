// The network picker of the hosted pages (issue 39): the payment page and the plan enrolment page both offer
// the chains a payment or an enrolment may go to, here, shown only when there is a choice. The page decides
// what a choice re-points (the transfer, the offer, the token); the wallet is switched when it signs.
import { byId } from '../shared/page.js';
import type { CheckoutChain } from './types.js';

/** The chain chosen among `chains`: the one with `chainId`, else the first (the default until the customer chooses). */
export function chosenChainOf(chains: readonly CheckoutChain[], chainId: number | null): CheckoutChain {
  return chains.find((chain) => chain.chainId === chainId) ?? chains[0]!;
}

/** What the picker shows for a chain. */
export function networkOptionLabel(chain: CheckoutChain, livemode: boolean): string {
  return chain.network + (livemode ? '' : ' (test mode)');
}

/** Fills #network with `chains` and shows #network-choice when there are two or more; `onChange` gets each choice. */
export function offerNetworks(chains: readonly CheckoutChain[], livemode: boolean, onChange: (chain: CheckoutChain) => void): void {
  const select = byId<HTMLSelectElement>('network');
  const box = byId('network-choice');
  if (!select || !box || chains.length < 2) return;
  for (const chain of chains) {
    const option = document.createElement('option');
    option.value = String(chain.chainId);
    option.textContent = networkOptionLabel(chain, livemode);
    select.appendChild(option);
  }
  box.hidden = false;
  select.addEventListener('change', () => onChange(chosenChainOf(chains, Number(select.value))));
}

/** Holds the picker still (while a signature or submission for the chosen chain is under way) or frees it. */
export function lockNetworks(locked: boolean): void {
  const select = byId<HTMLSelectElement>('network');
  if (select) select.disabled = locked;
}
