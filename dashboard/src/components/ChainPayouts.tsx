// Payouts per chain (issue 39): where the merchant is paid on each configured chain of the dashboard's mode
// (the chain's own address, else the account's), setting or clearing a chain's own address, and the USDC
// each chain's payout address holds there (GET /v1/balances, read from each chain).
import { useEffect, useState } from 'react';
import { api, errorMessage, getMode } from '../api.ts';
import type { components } from '../api/generated/openapi.ts';
import { chainName, explorerAddressUrl } from '../chain.ts';
import { formatAmount } from '../format.ts';
import { ActionButton } from './Form.tsx';

type ChainPayout = components['schemas']['ChainPayout'];
type PayoutBalance = components['schemas']['PayoutBalance'];
type List<T> = { object: 'list'; data: T[] };

function AddressLink({ chainId, address }: { chainId: number; address: string }) {
  const url = explorerAddressUrl(chainId, address);
  return url ? (
    <a href={url} target="_blank" rel="noreferrer">
      <code>{address}</code>
    </a>
  ) : (
    <code>{address}</code>
  );
}

export function ChainPayouts() {
  const [payouts, setPayouts] = useState<ChainPayout[] | null>(null);
  const [balances, setBalances] = useState<PayoutBalance[]>([]);
  const [drafts, setDrafts] = useState<Record<number, string>>({});
  const [error, setError] = useState<string | null>(null);
  const mode = getMode();
  const loadBalances = () =>
    api.get<List<PayoutBalance>>('/v1/balances').then(
      (answer) => setBalances(answer.data),
      () => setBalances([]),
    );
  useEffect(() => {
    api.get<List<ChainPayout>>('/v1/merchants/me/payout-addresses').then(
      (answer) => setPayouts(answer.data),
      (e) => setError(errorMessage(e)),
    );
    void loadBalances();
  }, [mode]);

  // The answer is the list again: the effective address of every chain after the change.
  async function save(chainId: number, payoutAddress: string | null) {
    const answer = await api.put<List<ChainPayout>>(`/v1/merchants/me/payout-addresses/${chainId}`, { payoutAddress });
    setPayouts(answer.data);
    setDrafts((all) => ({ ...all, [chainId]: '' }));
    await loadBalances();
  }

  return (
    <section className="card" aria-label="Payouts per chain">
      <h2>Payouts per chain</h2>
      <p>
        Each chain pays the account's payout address unless you set one for that chain. New payment sessions, relayed payments,
        subscriptions and refunds on a chain use its address; sessions created before keep the addresses they were created with.
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {payouts && (
        <div className="table-scroll">
          <table aria-label="Payout addresses per chain">
            <thead>
              <tr>
                <th>Network</th>
                <th>Payout address</th>
                <th>Balance</th>
                <th>Own address</th>
              </tr>
            </thead>
            <tbody>
              {payouts.map((payout) => {
                const balance = balances.find((b) => b.chainId === payout.chainId);
                return (
                  <tr key={payout.chainId} data-testid={`chain-payout-${payout.chainId}`}>
                    <td data-label="Network">{chainName(payout.chainId)}</td>
                    <td data-label="Payout address">
                      {payout.payoutAddress ? <AddressLink chainId={payout.chainId} address={payout.payoutAddress} /> : 'Not set'}{' '}
                      <small className="hint" data-testid="chain-payout-source">
                        {payout.source === 'chain' ? "(this chain's own)" : '(the account’s)'}
                      </small>
                    </td>
                    <td data-label="Balance">
                      {balance?.unavailable ? 'Unavailable' : balance?.amount != null ? formatAmount(balance.amount) : '—'}
                    </td>
                    <td data-label="Own address">
                      <input
                        aria-label={`Payout address for ${chainName(payout.chainId)}`}
                        placeholder="0x…"
                        size={14}
                        value={drafts[payout.chainId] ?? ''}
                        onChange={(e) => setDrafts((all) => ({ ...all, [payout.chainId]: e.target.value }))}
                      />{' '}
                      <ActionButton
                        label="Set"
                        ariaLabel={`Set the payout address for ${chainName(payout.chainId)}`}
                        action={() => save(payout.chainId, (drafts[payout.chainId] ?? '').trim())}
                      />
                      {payout.source === 'chain' && (
                        <ActionButton
                          label="Use the account's"
                          ariaLabel={`Clear the payout address for ${chainName(payout.chainId)}`}
                          action={() => save(payout.chainId, null)}
                        />
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
