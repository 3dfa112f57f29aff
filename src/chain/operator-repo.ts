// SQL for the operator's recorded transactions (operator_transactions).
import type { Db } from '../db/client.js';

export type OperatorOutcome = 'success' | 'reverted' | 'dropped';

export type OperatorTransactionRow = {
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
  outcome: OperatorOutcome | null;
  sentAt: Date;
};

const columns = (db: Db) =>
  db`id::text as id, purpose, chain_id::text as "chainId", address, nonce::text as nonce, raw_transaction as "rawTransaction",
     transaction_hash as "transactionHash", all_hashes as "allHashes", max_fee_per_gas::text as "maxFeePerGas",
     max_priority_fee_per_gas::text as "maxPriorityFeePerGas", gas::text as gas, replacements, outcome, sent_at as "sentAt"`;

/** The purpose's open or successful transaction (at most one, by the partial unique index). */
export async function findLivePurpose(db: Db, chainId: number, purpose: string): Promise<OperatorTransactionRow | undefined> {
  const [row] = await db<OperatorTransactionRow[]>`
    select ${columns(db)} from operator_transactions
    where chain_id = ${chainId} and purpose = ${purpose} and (outcome is null or outcome = 'success')`;
  return row;
}

/** Inserts a signed transaction; undefined when another sender recorded one for the purpose first. */
export async function insertOperatorTransaction(
  db: Db,
  tx: { purpose: string; chainId: number; address: string; nonce: bigint; rawTransaction: string; transactionHash: string; gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
): Promise<OperatorTransactionRow | undefined> {
  const [row] = await db<OperatorTransactionRow[]>`
    insert into operator_transactions (purpose, chain_id, address, nonce, raw_transaction, transaction_hash, all_hashes, gas,
                                       max_fee_per_gas, max_priority_fee_per_gas)
    values (${tx.purpose}, ${tx.chainId}, ${tx.address}, ${tx.nonce.toString()}, ${tx.rawTransaction}, ${tx.transactionHash},
            ${[tx.transactionHash]}, ${tx.gas.toString()}, ${tx.maxFeePerGas.toString()}, ${tx.maxPriorityFeePerGas.toString()})
    on conflict (chain_id, purpose) where outcome is null or outcome = 'success' do nothing
    returning ${columns(db)}`;
  return row;
}

/** Records a same-nonce replacement with a higher fee (the old hashes stay watched). */
export async function recordOperatorReplacement(
  db: Db,
  id: string,
  tx: { rawTransaction: string; transactionHash: string; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
): Promise<OperatorTransactionRow> {
  const [row] = await db<OperatorTransactionRow[]>`
    update operator_transactions set raw_transaction = ${tx.rawTransaction}, transaction_hash = ${tx.transactionHash},
      all_hashes = array_append(all_hashes, ${tx.transactionHash}::text), max_fee_per_gas = ${tx.maxFeePerGas.toString()},
      max_priority_fee_per_gas = ${tx.maxPriorityFeePerGas.toString()}, replacements = replacements + 1, sent_at = now()
    where id = ${id}
    returning ${columns(db)}`;
  return row!;
}

/** Settles a transaction: which of its hashes was mined, and how it ended. */
export async function recordOperatorOutcome(db: Db, id: string, outcome: OperatorOutcome, minedHash?: string): Promise<void> {
  await db`
    update operator_transactions set outcome = ${outcome}, transaction_hash = coalesce(${minedHash ?? null}, transaction_hash)
    where id = ${id}`;
}

/** Open transactions of the address with nonces in [from, below): the ones a gap may be waiting for. */
export async function findOpenBetween(db: Db, account: { chainId: number; address: string }, from: bigint, below: bigint): Promise<OperatorTransactionRow[]> {
  return db<OperatorTransactionRow[]>`
    select ${columns(db)} from operator_transactions
    where chain_id = ${account.chainId} and address = ${account.address} and outcome is null
      and nonce >= ${from.toString()} and nonce < ${below.toString()}
    order by operator_transactions.nonce limit 50`;
}
