// SQL for the platform's transaction ledger: the nonce counter of each sending
// account (relayer_accounts: one row per chain and address, so every worker
// process allocates from the same counter) and every signed transaction, recorded
// under its purpose before it is sent (chain_transactions, migration 00012).
import type { Db } from '../db/client.js';

export type SendingAccount = { chainId: number; address: string };

export type TransactionOutcome = 'success' | 'reverted' | 'dropped';

export type TransactionRow = {
  id: string;
  purpose: string;
  chainId: string;
  address: string;
  nonce: string;
  rawTransaction: string;
  transactionHash: string;
  allHashes: string[];
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
  gas: string;
  replacements: number;
  outcome: TransactionOutcome | null;
  sentAt: Date;
};

export type NewTransaction = {
  purpose: string;
  chainId: number;
  address: string;
  nonce: bigint;
  rawTransaction: string;
  transactionHash: string;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
};

const columns = (db: Db) =>
  db`id::text as id, purpose, chain_id::text as "chainId", address, nonce::text as nonce, raw_transaction as "rawTransaction",
     transaction_hash as "transactionHash", all_hashes as "allHashes", max_fee_per_gas::text as "maxFeePerGas",
     max_priority_fee_per_gas::text as "maxPriorityFeePerGas", gas::text as gas, replacements, outcome, sent_at as "sentAt"`;

// ------------------------------------------------------------------ nonces

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

// ------------------------------------------------------------------ transactions

/** The purpose's open or successful transaction (at most one, by the partial unique index). */
export async function findLivePurpose(db: Db, chainId: number, purpose: string): Promise<TransactionRow | undefined> {
  const [row] = await db<TransactionRow[]>`
    select ${columns(db)} from chain_transactions
    where chain_id = ${chainId} and purpose = ${purpose} and (outcome is null or outcome = 'success')`;
  return row;
}

/** The newest transaction of each of these purposes, whatever its outcome. */
export async function findLatestOfPurposes(db: Db, chainId: number, purposes: readonly string[]): Promise<TransactionRow[]> {
  if (purposes.length === 0) return [];
  return db<TransactionRow[]>`
    select distinct on (purpose) ${columns(db)} from chain_transactions
    where chain_id = ${chainId} and purpose in ${db(purposes)}
    order by purpose, id desc`;
}

/** Inserts a signed transaction; undefined when another sender recorded a live one for the purpose first. */
export async function insertTransaction(db: Db, tx: NewTransaction): Promise<TransactionRow | undefined> {
  const [row] = await db<TransactionRow[]>`
    insert into chain_transactions (purpose, chain_id, address, nonce, raw_transaction, transaction_hash, all_hashes, gas,
                                    max_fee_per_gas, max_priority_fee_per_gas)
    values (${tx.purpose}, ${tx.chainId}, ${tx.address}, ${tx.nonce.toString()}, ${tx.rawTransaction}, ${tx.transactionHash},
            ${[tx.transactionHash]}, ${tx.gas.toString()}, ${tx.maxFeePerGas.toString()}, ${tx.maxPriorityFeePerGas.toString()})
    on conflict (chain_id, purpose) where outcome is null or outcome = 'success' do nothing
    returning ${columns(db)}`;
  return row;
}

/** Records a same-nonce replacement with a higher fee (the old hashes stay watched). */
export async function recordReplacement(
  db: Db,
  id: string,
  tx: { rawTransaction: string; transactionHash: string; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
): Promise<TransactionRow> {
  const [row] = await db<TransactionRow[]>`
    update chain_transactions set raw_transaction = ${tx.rawTransaction}, transaction_hash = ${tx.transactionHash},
      all_hashes = array_append(all_hashes, ${tx.transactionHash}::text), max_fee_per_gas = ${tx.maxFeePerGas.toString()},
      max_priority_fee_per_gas = ${tx.maxPriorityFeePerGas.toString()}, replacements = replacements + 1, sent_at = now()
    where id = ${id}
    returning ${columns(db)}`;
  return row!;
}

/** The statement that settles a transaction, unsent: for another repo's statement to run it as a CTE (atomic in one round trip). */
export function outcomeUpdate(db: Db, id: string, outcome: TransactionOutcome, minedHash?: string) {
  // A mined outcome is a fact: a look that came too late to see it (two followers of one
  // transaction) cannot turn it into "dropped".
  return db`
    update chain_transactions set outcome = ${outcome}, transaction_hash = coalesce(${minedHash ?? null}, transaction_hash)
    where id = ${id} and (${outcome} <> 'dropped' or outcome is null or outcome = 'dropped')
    returning id`;
}

/** Settles a transaction: which of its hashes was mined, and how it ended. False: it was recorded mined already. */
export async function recordOutcome(db: Db, id: string, outcome: TransactionOutcome, minedHash?: string): Promise<boolean> {
  return (await outcomeUpdate(db, id, outcome, minedHash)).length === 1;
}

/**
 * Every recorded transaction of the address with a nonce in [from, below), whatever its outcome: the
 * ones a gap in the node's nonces may be waiting for (a sender that died before sending, or a reorg
 * that took a mined transaction out). At most 50 nonces: a gap that long is filled a look at a time.
 */
export async function findBetween(db: Db, account: SendingAccount, from: bigint, below: bigint): Promise<TransactionRow[]> {
  const upTo = below < from + 50n ? below : from + 50n;
  return db<TransactionRow[]>`
    select ${columns(db)} from chain_transactions
    where chain_id = ${account.chainId} and address = ${account.address}
      and nonce >= ${from.toString()} and nonce < ${upTo.toString()}
    order by chain_transactions.nonce, chain_transactions.id`;
}
