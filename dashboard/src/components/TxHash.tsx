// A transaction hash, linked to the chain's block explorer when the chain has one.
import { explorerTxUrl } from '../chain.ts';

export function TxHash({ hash, chainId }: { hash: string; chainId: number | string }) {
  const url = explorerTxUrl(chainId, hash);
  return (
    <span className="tx-hash">
      <code>{hash}</code>{' '}
      {url ? (
        <a href={url} target="_blank" rel="noreferrer">
          View on explorer
        </a>
      ) : (
        <small className="hint">(local chain: no explorer)</small>
      )}
    </span>
  );
}
