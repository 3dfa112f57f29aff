// SQL of deposits: token Transfers into payment sessions' deposit addresses, their crediting to
// the session (amount_received, amount_excess) and their sweep to the merchant's payout address.
import { getAddress } from 'viem';
import type { Db } from '../db/client.js';
import type { AcceptedChain } from './repo.js';

export type DepositStatus = 'pending' | 'credited' | 'late' | 'removed';

export type DepositRow = {
  id: string;
  paymentSessionId: string;
  merchantId: string;
  livemode: boolean;
  chainId: string;
  token: string;
  depositAddress: string;
  payoutAddress: string;
  fromAddress: string;
  amount: string;
  transactionHash: string;
  logIndex: number;
  blockNumber: string;
  status: DepositStatus;
  sweepPurpose: string | null;
  sweepTransactionHash: string | null;
  sweptAt: Date | null;
  /** Which factory made its address (payment_sessions.deposit_factory_version): the one that sweeps it. */
  depositFactoryVersion: 1 | 2;
  /** Set while the token refuses its payout: left out of sweeps until a re-check finds the cause gone. */
  sweepBlockedAt: Date | null;
  sweepBlockedCode: string | null;
  createdAt: Date;
};

const columns = (db: Db) =>
  db`d.id, d.payment_session_id as "paymentSessionId", d.merchant_id as "merchantId", d.livemode, d.chain_id::text as "chainId",
     d.token, d.deposit_address as "depositAddress", d.payout_address as "payoutAddress", d.from_address as "fromAddress",
     d.amount::text as amount, d.transaction_hash as "transactionHash", d.log_index as "logIndex",
     d.block_number::text as "blockNumber", d.status, d.sweep_purpose as "sweepPurpose",
     d.sweep_transaction_hash as "sweepTransactionHash", d.swept_at as "sweptAt", d.deposit_factory_version as "depositFactoryVersion",
     d.sweep_blocked_at as "sweepBlockedAt", d.sweep_blocked_code as "sweepBlockedCode", d.created_at as "createdAt"`;

/**
 * A session a transfer may pay: found by one of its deposit addresses (the same on every chain paying the same
 * payout; a chain with a payout of its own has its own, in `acceptedChains`).
 */
export type DepositTarget = {
  id: string;
  merchantId: string;
  payTo: string;
  token: string;
  chainId: string;
  depositAddress: string | null;
  acceptedChains: AcceptedChain[] | null;
};

/** The session of the mode one of whose deposit addresses is `address`, whichever chain of the mode the transfer is on. */
export async function findSessionByDepositAddress(db: Db, livemode: boolean, address: string): Promise<DepositTarget | undefined> {
  const [row] = await db<DepositTarget[]>`
    select id, merchant_id as "merchantId", pay_to as "payTo", token, chain_id::text as "chainId",
           deposit_address as "depositAddress", accepted_chains as "acceptedChains"
    from payment_sessions
    where livemode = ${livemode}
      and (lower(deposit_address) = ${address.toLowerCase()}
           or (accepted_chains is not null and accepted_chains @> ${db.json([{ depositAddress: getAddress(address) }])}::jsonb))
    order by id limit 1`;
  return row;
}

/**
 * Records a transfer into a deposit address once per log: a second call returns the same row, and a
 * log a reorg removed that the new chain includes again is pending once more.
 */
export async function upsertDeposit(
  db: Db,
  d: Omit<
    DepositRow,
    | 'status'
    | 'sweepPurpose'
    | 'sweepTransactionHash'
    | 'sweptAt'
    | 'createdAt'
    | 'depositFactoryVersion'
    | 'sweepBlockedAt'
    | 'sweepBlockedCode'
  >,
): Promise<DepositRow> {
  // The factory version is the session's: its address, and so its sweep, depend on it.
  await db`
    insert into deposits (id, payment_session_id, merchant_id, livemode, chain_id, token, deposit_address, payout_address,
                          from_address, amount, transaction_hash, log_index, block_number, status, deposit_factory_version)
    values (${d.id}, ${d.paymentSessionId}, ${d.merchantId}, ${d.livemode}, ${d.chainId}, ${d.token}, ${d.depositAddress},
            ${d.payoutAddress}, ${d.fromAddress}, ${d.amount}, ${d.transactionHash}, ${d.logIndex}, ${d.blockNumber}, 'pending',
            (select deposit_factory_version from payment_sessions where id = ${d.paymentSessionId}))
    on conflict (chain_id, transaction_hash, log_index) do update set status = 'pending', block_number = excluded.block_number, updated_at = now()
      where deposits.status = 'removed'`;
  return (await findDepositByLog(db, Number(d.chainId), d.transactionHash, d.logIndex))!;
}

export async function findDepositByLog(
  db: Db,
  chainId: number,
  transactionHash: string,
  logIndex: number,
): Promise<DepositRow | undefined> {
  const [row] = await db<DepositRow[]>`
    select ${columns(db)} from deposits d
    where d.chain_id = ${chainId} and d.transaction_hash = ${transactionHash} and d.log_index = ${logIndex}`;
  return row;
}

export async function findDeposit(db: Db, id: string): Promise<DepositRow | undefined> {
  const [row] = await db<DepositRow[]>`select ${columns(db)} from deposits d where d.id = ${id}`;
  return row;
}

export async function depositsOfSession(db: Db, sessionId: string): Promise<DepositRow[]> {
  return db<
    DepositRow[]
  >`select ${columns(db)} from deposits d where d.payment_session_id = ${sessionId} order by d.block_number, d.log_index`;
}

export async function setDepositStatus(db: Db, id: string, from: DepositStatus[], to: DepositStatus): Promise<boolean> {
  const rows = await db`update deposits set status = ${to}, updated_at = now() where id = ${id} and status = any(${from}) returning id`;
  return rows.length === 1;
}

/** The session's received and excess amounts from its credited deposits. */
export async function recomputeReceived(db: Db, sessionId: string): Promise<{ amountReceived: string; amountExcess: string }> {
  const [row] = await db<{ amountReceived: string; amountExcess: string }[]>`
    update payment_sessions s
    set amount_received = c.total, amount_excess = greatest(c.total - s.amount, 0), updated_at = now()
    from (select coalesce(sum(amount), 0) as total from deposits where payment_session_id = ${sessionId} and status = 'credited') c
    where s.id = ${sessionId}
    returning s.amount_received::text as "amountReceived", s.amount_excess::text as "amountExcess"`;
  return row!;
}

/** Late deposits of a merchant (after expiry, completion or cancellation), newest first. */
export async function listLateDeposits(db: Db, scope: { merchantId: string; livemode: boolean }, limit: number): Promise<DepositRow[]> {
  return db<DepositRow[]>`
    select ${columns(db)} from deposits d
    where d.merchant_id = ${scope.merchantId} and d.livemode = ${scope.livemode} and d.status = 'late'
    order by d.id desc limit ${limit}`;
}

/**
 * Puts up to `limit` unswept deposits of the chain, mode, token and factory version (always `first`,
 * when it is still unclaimed) under one sweep purpose; deposits already claimed by another sweep are
 * left to it, and deposits whose payout is blocked wait for their re-check. Grouped by payout address,
 * so one payout's deposits go in one claim as far as the limit allows.
 */
export async function claimForSweep(
  db: Db,
  ref: { chainId: number; livemode: boolean; token: string; depositFactoryVersion: number },
  first: string,
  purpose: string,
  limit: number,
): Promise<void> {
  await db`
    update deposits set sweep_purpose = ${purpose}, updated_at = now()
    where id in (
      select id from deposits
      where chain_id = ${ref.chainId} and livemode = ${ref.livemode} and token = ${ref.token} and sweep_purpose is null
        and deposit_factory_version = ${ref.depositFactoryVersion} and swept_at is null and status <> 'removed'
        and sweep_blocked_at is null
      order by (id = ${first}) desc, lower(payout_address), id
      limit ${limit}
      for update skip locked)`;
}

export async function depositsOfSweep(db: Db, purpose: string): Promise<DepositRow[]> {
  return db<DepositRow[]>`select ${columns(db)} from deposits d where d.sweep_purpose = ${purpose} order by d.id`;
}

export async function markSwept(db: Db, purpose: string, transactionHash: string): Promise<void> {
  await db`
    update deposits set sweep_transaction_hash = ${transactionHash}, swept_at = now(), updated_at = now()
    where sweep_purpose = ${purpose} and swept_at is null`;
}

/**
 * The deposits of a mined v2 sweep whose addresses the factory reported `Swept` (by deposit address: a session
 * has one per distinct payout, and two of them may be in one sweep).
 */
export async function markSweptAddresses(db: Db, purpose: string, addresses: string[], transactionHash: string): Promise<void> {
  await db`
    update deposits set sweep_transaction_hash = ${transactionHash}, swept_at = now(), updated_at = now()
    where sweep_purpose = ${purpose} and swept_at is null and lower(deposit_address) = any(${addresses.map((a) => a.toLowerCase())})`;
}

/**
 * The deposits of a sweep whose payout the token refused: let go of the sweep and blocked with the
 * refusal's code. Returns the deposits newly blocked (an event each; a retry blocks nothing twice).
 */
export async function blockSweptAddresses(db: Db, purpose: string, addresses: string[], code: string): Promise<DepositRow[]> {
  const ids = await db<{ id: string }[]>`
    update deposits set sweep_purpose = null, sweep_blocked_at = now(), sweep_blocked_code = ${code}, updated_at = now()
    where sweep_purpose = ${purpose} and swept_at is null and lower(deposit_address) = any(${addresses.map((a) => a.toLowerCase())})
    returning id`;
  if (ids.length === 0) return [];
  return db<DepositRow[]>`select ${columns(db)} from deposits d where d.id = any(${ids.map((r) => r.id)}) order by d.id`;
}

/** A re-check found the payout's refusal gone: the deposit is claimed by sweeps again. */
export async function unblockDeposit(db: Db, id: string): Promise<void> {
  await db`update deposits set sweep_blocked_at = null, sweep_blocked_code = null, updated_at = now() where id = ${id} and swept_at is null`;
}

/** A sweep whose transaction failed lets its deposits go: the next sweep claims them again. */
export async function releaseSweep(db: Db, purpose: string): Promise<void> {
  await db`update deposits set sweep_purpose = null, updated_at = now() where sweep_purpose = ${purpose} and swept_at is null`;
}
