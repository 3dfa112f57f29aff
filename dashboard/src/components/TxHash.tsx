// A transaction hash with a Copy button, linked to the chain's block explorer when the chain has one
// (a local chain has none: the hash is there to copy into a node or a support request).
import { explorerTxUrl } from '../chain.ts';
import { CopyId } from './CopyId.tsx';

export function TxHash({ hash, chainId }: { hash: string; chainId: number | string }) {
  const url = explorerTxUrl(chainId, hash);
  return (
    <span className="tx-hash">
      <CopyId id={hash} />{' '}
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
