// The refund allowance: what the payout wallet lets the operator send for refunds, and granting it
// once with an EIP-2612 permit signed in the browser wallet (or the approve alternative, explained).
// Each chain of the mode has its own (issue 39): its payout wallet, its token, its allowance; a refund
// of a payment draws on the allowance of the chain the payment came in on.
import { useEffect, useState } from 'react';
import { api, errorMessage, getMode } from '../api.ts';
import { chainName } from '../chain.ts';
import { amountError, formatAmount, parseAmount } from '../format.ts';
import { useModeChains } from '../modeChains.ts';
import { AmountPreview } from './MoneyField.tsx';
import { EIP712_DOMAIN_TYPE, PERMIT_TYPES } from '../shared.ts';
import type { RefundAllowance as RefundAllowanceInfo } from '../types.ts';

const PERMIT_TYPED_DATA_TYPES = { EIP712Domain: EIP712_DOMAIN_TYPE, Permit: PERMIT_TYPES.Permit };

export function RefundAllowance() {
  const chains = useModeChains();
  const mode = getMode();
  // Until the mode's chains are read (or when that read fails): the API's default, the mode's first chain.
  const chainIds = chains.length > 0 ? chains.map((chain) => chain.chainId) : [undefined];
  return (
    <section className="card" aria-label="Refund allowance">
      <h2>Refund allowance</h2>
      <p>
        While this allowance covers a refund, the platform's operator sends it from your payout wallet to the customer (
        <code>transferFrom</code>) and it completes by itself. It can move your USDC only for refunds, up to the cap.
        {chains.length > 1 &&
          ' Each chain has its own: a refund is sent on the chain the payment came in on, from that chain’s payout wallet.'}
      </p>
      {chainIds.map((chainId) => (
        <ChainAllowance key={`${mode}:${chainId ?? 'first'}`} chainId={chainId} named={chains.length > 1} />
      ))}
    </section>
  );
}

/** One chain's allowance (`chainId` absent: the mode's first), headed with the chain's name when the mode has several. */
function ChainAllowance({ chainId, named }: { chainId: number | undefined; named: boolean }) {
  const [info, setInfo] = useState<RefundAllowanceInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [cap, setCap] = useState('1000');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let current = true;
    api.get<RefundAllowanceInfo>(`/v1/refunds/allowance${chainId === undefined ? '' : `?chainId=${chainId}`}`).then(
      (answer) => current && setInfo(answer),
      (e) => current && setError(errorMessage(e)),
    );
    return () => {
      current = false;
    };
  }, [chainId]);
  const network = chainName(info?.chainId ?? chainId ?? '');

  async function grant() {
    if (!info?.permit || !info.owner || !info.spender) return;
    const value = parseAmount(cap);
    if (!value) return setError(`Cap: ${amountError(cap)}`);
    setBusy(true);
    setError(null);
    try {
      const deadline = String(Math.floor(Date.now() / 1000) + 3600);
      const { signTypedDataAs } = await import('./wallet.ts');
      const signature = await signTypedDataAs(info.owner, {
        domain: info.permit.domain,
        types: PERMIT_TYPED_DATA_TYPES,
        primaryType: 'Permit',
        message: { owner: info.owner, spender: info.spender, value, nonce: info.permit.nonce, deadline },
      });
      setInfo(await api.post<RefundAllowanceInfo>('/v1/refunds/allowance/permit', { chainId: info.chainId, value, deadline, signature }));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div
      aria-label={named ? `Refund allowance on ${network}` : undefined}
      data-testid={`refund-allowance-${info?.chainId ?? chainId ?? 'first'}`}
    >
      {named && <h3>{network}</h3>}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {info && !info.owner && <p>Set a payout address first: the allowance is granted by the payout wallet.</p>}
      {info && info.owner && !info.spender && <p>This mode has no operator on this deployment: refunds are sent from your wallet.</p>}
      {info?.owner && info.spender && (
        <>
          <dl className="facts">
            <dt>Available for refunds</dt>
            <dd data-testid="refund-allowance-available">{formatAmount(info.available)}</dd>
            <dt>Allowance</dt>
            <dd>{formatAmount(info.allowance)}</dd>
            <dt>Refunds in progress</dt>
            <dd>{formatAmount(info.inUse)}</dd>
            <dt>Payout wallet balance</dt>
            <dd>{formatAmount(info.balance)}</dd>
            <dt>Payout wallet</dt>
            <dd>
              <code>{info.owner}</code>
            </dd>
            <dt>Operator</dt>
            <dd>
              <code>{info.spender}</code>
            </dd>
          </dl>
          <label>
            Cap (USDC)
            <input
              name={`refundAllowanceCap-${info.chainId}`}
              aria-label={named ? `Cap (USDC) on ${network}` : undefined}
              inputMode="decimal"
              value={cap}
              onChange={(e) => setCap(e.target.value)}
            />
            <AmountPreview text={cap} />
          </label>
          <button type="button" disabled={busy} onClick={() => void grant()}>
            {named ? `Sign permit with payout wallet on ${network}` : 'Sign permit with payout wallet'}
          </button>
          <details>
            <summary>Without a signature: approve</summary>
            <p>
              From the payout wallet <code>{info.owner}</code>, call <code>approve({info.spender}, cap in base units)</code> on the USDC
              contract <code>{info.token}</code> (chain {info.chainId}). Your wallet pays the gas. To revoke, approve 0.
            </p>
          </details>
        </>
      )}
    </div>
  );
}
