// SQL for test clocks and the wallets attached to them.
import type { Db } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';

export type TestClockStatus = 'ready' | 'advancing' | 'deleted';

export type TestClockRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  name: string;
  frozenTime: Date;
  status: TestClockStatus;
  advancingTo: Date | null;
  createdAt: Date;
  deletedAt: Date | null;
  /** The clock's own chain (a fork of the test chain, TEST_CLOCK_CHAINS=fork); null: it moves the test chain. */
  chainId: string | null;
  rpcUrl: string | null;
};

const columns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, name, frozen_time as "frozenTime", status, advancing_to as "advancingTo",
     created_at as "createdAt", deleted_at as "deletedAt", chain_id::text as "chainId", rpc_url as "rpcUrl"`;

export async function insertTestClock(
  db: Db,
  clock: Pick<TestClockRow, 'id' | 'merchantId' | 'livemode' | 'name' | 'frozenTime'> & { chainId?: number; rpcUrl?: string },
): Promise<TestClockRow> {
  const [row] = await db<TestClockRow[]>`
    insert into test_clocks (id, merchant_id, livemode, name, frozen_time, status, chain_id, rpc_url)
    values (${clock.id}, ${clock.merchantId}, ${clock.livemode}, ${clock.name}, ${clock.frozenTime}, 'ready',
      ${clock.chainId ?? null}, ${clock.rpcUrl ?? null})
    returning ${columns(db)}`;
  return row!;
}

export async function findTestClock(
  db: Db,
  scope: MerchantScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<TestClockRow | undefined> {
  const [row] = await db<TestClockRow[]>`
    select ${columns(db)} from test_clocks
    where id = ${id} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
    ${options.forUpdate ? db`for update` : db``}`;
  return row;
}

/** The invoices on a clock that can still be voided (draft, sent, overdue). */
export async function openInvoicesOnClock(db: Db, testClockId: string): Promise<string[]> {
  const rows = await db<{ id: string }[]>`
    select id from invoices where test_clock_id = ${testClockId} and status in ('draft', 'sent', 'overdue') order by id`;
  return rows.map((r) => r.id);
}

export async function listTestClocks(db: Db, scope: MerchantScope, page: { before?: string; limit: number }): Promise<TestClockRow[]> {
  return db<TestClockRow[]>`
    select ${columns(db)} from test_clocks
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and status <> 'deleted'
      ${page.before ? db`and id < ${page.before}` : db``}
    order by id desc limit ${page.limit + 1}`;
}

export async function countLiveTestClocks(db: Db, scope: MerchantScope): Promise<number> {
  const [row] = await db<{ n: number }[]>`
    select count(*)::int as n from test_clocks
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and status <> 'deleted'`;
  return row!.n;
}

/** ready -> advancing; false when the clock is not ready (advancing already, or deleted). */
export async function startAdvance(db: Db, id: string, to: Date): Promise<boolean> {
  const rows =
    await db`update test_clocks set status = 'advancing', advancing_to = ${to} where id = ${id} and status = 'ready' returning id`;
  return rows.length === 1;
}

/** advancing -> ready at the time reached (idempotent: a retry finds it ready). */
export async function finishAdvance(db: Db, id: string, frozenTime: Date): Promise<void> {
  await db`
    update test_clocks set status = 'ready', frozen_time = greatest(frozen_time, ${frozenTime}), advancing_to = null
    where id = ${id} and status = 'advancing'`;
}

export async function markDeleted(db: Db, id: string): Promise<boolean> {
  const rows =
    await db`update test_clocks set status = 'deleted', deleted_at = now(), advancing_to = null where id = ${id} and status <> 'deleted' returning id`;
  await db`update test_clock_wallets set detached_at = now() where test_clock_id = ${id} and detached_at is null`;
  return rows.length === 1;
}

export type AttachedWallet = { walletAddress: string; attachedAt: Date };

export async function listWallets(db: Db, testClockId: string): Promise<AttachedWallet[]> {
  return db<AttachedWallet[]>`
    select wallet_address as "walletAddress", attached_at as "attachedAt" from test_clock_wallets
    where test_clock_id = ${testClockId} order by attached_at, wallet_address`;
}

/** The wallets among `wallets` already on a live clock of this merchant (another one or this one). */
export async function walletsOnClocks(
  db: Db,
  merchantId: string,
  wallets: string[],
): Promise<{ walletAddress: string; testClockId: string }[]> {
  if (wallets.length === 0) return [];
  return db<{ walletAddress: string; testClockId: string }[]>`
    select wallet_address as "walletAddress", test_clock_id as "testClockId" from test_clock_wallets
    where merchant_id = ${merchantId} and detached_at is null and wallet_address in ${db(wallets)}`;
}

export async function attachWallets(db: Db, clock: { id: string; merchantId: string }, wallets: string[]): Promise<void> {
  for (const wallet of wallets) {
    await db`
      insert into test_clock_wallets (test_clock_id, merchant_id, wallet_address)
      values (${clock.id}, ${clock.merchantId}, ${wallet})
      on conflict do nothing`;
  }
}

/** The live clock a payer wallet of this merchant is attached to (test mode only). */
export async function findClockOfWallet(db: Db, merchantId: string, wallet: string): Promise<string | undefined> {
  const [row] = await db<{ id: string }[]>`
    select w.test_clock_id as id from test_clock_wallets w join test_clocks c on c.id = w.test_clock_id
    where w.merchant_id = ${merchantId} and w.wallet_address = ${wallet.toLowerCase()} and w.detached_at is null and c.status <> 'deleted'`;
  return row?.id;
}

/** The chain id of the live clock with a chain of its own that this merchant's wallet is on (TEST_CLOCK_CHAINS=fork), if any. */
export async function clockChainOfWallet(db: Db, merchantId: string, wallet: string): Promise<number | undefined> {
  const [row] = await db<{ chainId: string }[]>`
    select c.chain_id::text as "chainId" from test_clock_wallets w join test_clocks c on c.id = w.test_clock_id
    where w.merchant_id = ${merchantId} and w.wallet_address = ${wallet.toLowerCase()} and w.detached_at is null
      and c.status <> 'deleted' and c.chain_id is not null`;
  return row ? Number(row.chainId) : undefined;
}

/** The workflows (subscription ids) of this merchant's subscriptions paid by these wallets that may still run. */
export async function openSubscriptionsOfWallets(db: Db, merchantId: string, wallets: string[]): Promise<string[]> {
  if (wallets.length === 0) return [];
  const rows = await db<{ id: string }[]>`
    select id from subscriptions
    where merchant_id = ${merchantId} and livemode = false and lower(subscriber_address) in ${db(wallets)}
      and status not in ('cancelled', 'lapsed', 'completed')`;
  return rows.map((r) => r.id);
}

/** The chain a clock moves: its own fork's RPC URL, or null when it moves the test chain (or is unknown). */
export async function clockChainRpcUrl(db: Db, testClockId: string): Promise<string | null> {
  const [row] = await db<{ rpcUrl: string | null }[]>`select rpc_url as "rpcUrl" from test_clocks where id = ${testClockId}`;
  return row?.rpcUrl ?? null;
}

/** The live clocks with a chain of their own (TEST_CLOCK_CHAINS=fork): what a restarted owner forks again. */
export async function liveClockChains(db: Db): Promise<{ id: string; chainId: string; rpcUrl: string; frozenTime: Date }[]> {
  return db<{ id: string; chainId: string; rpcUrl: string; frozenTime: Date }[]>`
    select id, chain_id::text as "chainId", rpc_url as "rpcUrl", frozen_time as "frozenTime"
    from test_clocks where chain_id is not null and status <> 'deleted' order by id`;
}

/** A re-forked clock chain answers on a new port. */
export async function updateClockChainRpcUrl(db: Db, id: string, rpcUrl: string): Promise<void> {
  await db`update test_clocks set rpc_url = ${rpcUrl} where id = ${id} and status <> 'deleted'`;
}
