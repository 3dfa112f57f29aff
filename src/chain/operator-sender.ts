// The operator's transactions (subscription charges, cancels, renewal permits) go
// through the platform's one transaction sender (sender.ts), like the relayer's:
// nonces from the Postgres ledger, so any number of worker processes can share one
// operator key; each transaction signed and recorded before it is sent, under a
// purpose ("charge:<manager>:<id>:<period>") that has at most one open or
// successful transaction, so a retried activity follows the transaction its
// predecessor sent instead of sending another. A transaction that waits too long
// is replaced with a higher fee (same nonce); one whose nonce another sender
// recorded but never sent (it crashed in between) is unblocked by re-sending the
// recorded bytes of the missing nonces. A reverted or dropped transaction frees
// its purpose for a new one.
import type { Address, Hex, LocalAccount, PublicClient } from 'viem';
import type { PoolSql } from '../db/client.js';
import * as ledger from './ledger-repo.js';
import type { ReceiptWaiter } from './receipts.js';
import { createTransactionSender, type Settled, type TransactionRow } from './sender.js';

export type { Settled } from './sender.js';
/** A row of the transaction ledger (chain_transactions). */
export type OperatorTransactionRow = TransactionRow;

export type OperatorCall = { purpose: string; to: Address; data: Hex; gas: bigint };

export type OperatorSender = {
  address: Address;
  /** The purpose's open or successful transaction, if any. */
  find(purpose: string): Promise<OperatorTransactionRow | undefined>;
  /** Allocates a nonce, signs, records and sends the call; if the purpose already has a live transaction, re-sends that one. */
  send(call: OperatorCall): Promise<OperatorTransactionRow>;
  /** Follows a transaction until it is mined (or its nonce went elsewhere), replacing it when stuck; records how it ended. */
  settle(row: OperatorTransactionRow): Promise<Settled>;
};

export function createOperatorSender(deps: {
  /** The pool, never a transaction: sends commit their ledger rows on their own (sender.ts). */
  sql: PoolSql;
  client: PublicClient;
  account: LocalAccount;
  chainId: number;
  receipts: ReceiptWaiter;
  /** How long a transaction may wait for inclusion before it is replaced with a higher fee. */
  stuckAfterMs: number;
}): OperatorSender {
  const { sql, chainId, receipts, stuckAfterMs } = deps;
  const sender = createTransactionSender(deps);
  return {
    address: sender.address,
    find: (purpose) => ledger.findLivePurpose(sql, chainId, purpose),
    send: (call) => sender.send(call),
    settle: (row) => sender.settle(row, { receipts, stuckAfterMs }),
  };
}
