// A transaction hash with a Copy button, linked to the chain's block explorer when the chain has one
// (a local chain has none: the hash is there to copy into a node or a support request). `compact`, for a
// list's cell: the shortened hash, itself the explorer link where there is one (the full hash in its title).
import { explorerTxUrl } from '../chain.ts';
import { shortId } from '../format.ts';
import { CopyId } from './CopyId.tsx';

export function TxHash({ hash, chainId, compact = false }: { hash: string; chainId: number | string; compact?: boolean }) {
  const url = explorerTxUrl(chainId, hash);
  if (compact)
    return url ? (
      <a className="tx-hash" href={url} target="_blank" rel="noreferrer" title={hash} aria-label={`Transaction ${hash} on the explorer`}>
        <code>{shortId(hash)}</code>
      </a>
    ) : (
      <code className="tx-hash" title={hash}>
        {shortId(hash)}
      </code>
    );
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
