// The nonce ledger of the platform's sending accounts (the relayer, the operator):
// one row per chain and address in Postgres, so every worker process allocates
// from the same counter.
import type { Db } from '../db/client.js';

export type SendingAccount = { chainId: number; address: string };

/** Creates the account's nonce row at `chainNonce` unless it exists. */
export async function ensureSendingAccount(db: Db, account: SendingAccount, chainNonce: bigint): Promise<void> {
  await db`
    insert into relayer_accounts (chain_id, address, next_nonce) values (${account.chainId}, ${account.address}, ${chainNonce.toString()})
    on conflict (chain_id, address) do nothing`;
}

/**
 * Allocates `count` consecutive nonces of the account in one statement and returns the first:
 * never below what the chain says is next (so a key also used elsewhere cannot collide). The row
 * stays locked until the transaction commits, which serialises allocation across concurrent
 * senders and worker instances.
 */
export async function allocateNonces(db: Db, account: SendingAccount, chainNonce: bigint, count: number): Promise<bigint> {
  const allocate = () => db<{ nonce: string }[]>`
    update relayer_accounts set next_nonce = greatest(next_nonce, ${chainNonce.toString()}) + ${count}
    where chain_id = ${account.chainId} and address = ${account.address}
    returning (next_nonce - ${count})::text as nonce`;
  let [row] = await allocate();
  if (!row) {
    await ensureSendingAccount(db, account, chainNonce);
    [row] = await allocate();
  }
  return BigInt(row!.nonce);
}
