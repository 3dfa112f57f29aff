// The operator's sender (and the one transaction sender beneath it, which the
// relayer uses too) against a real anvil and Postgres: one nonce ledger for
// several senders with one key (several worker processes), group commit, one
// transaction per purpose, replacement of a stuck transaction, and the gap a
// sender leaves when it dies between recording a transaction and sending it.
import { type Address, type Hex, type PublicClient, createPublicClient, custom, http, keccak256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil, type AnvilInstance } from '../../src/chain/anvil.js';
import { allocateNonces, insertTransaction, recordOutcome } from '../../src/chain/ledger-repo.js';
import { createOperatorSender, type OperatorSender } from '../../src/chain/operator-sender.js';
import { createReceiptWaiter } from '../../src/chain/receipts.js';
import { BatchStalled, createTransactionSender, type TransactionRow } from '../../src/chain/sender.js';
import { createSql } from '../../src/db/client.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { until } from '../support/until.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';

let anvil: AnvilInstance;
let pub: PublicClient;
let db: TestDatabase;
const operator = privateKeyToAccount(DEV_ACCOUNTS.operator.privateKey);
const to = DEV_ACCOUNTS.merchant.address;
/** Runtime code that always reverts (PUSH1 0 PUSH1 0 REVERT), installed with anvil_setCode. */
const REVERTER: Address = '0x00000000000000000000000000000000000bad00';

beforeAll(async () => {
  [anvil, db] = await Promise.all([startAnvil(), createTestDatabase()]);
  pub = createPublicClient({
    chain: chainDefinition(anvil.chainId, anvil.rpcUrl),
    transport: http(anvil.rpcUrl, { batch: { batchSize: 100 } }),
  }) as PublicClient;
  await rpc('anvil_setCode', [REVERTER, '0x60006000fd']);
});
afterAll(async () => {
  await db?.drop();
  await anvil?.stop();
});

function rpc(method: string, params: unknown[]) {
  return pub.request({ method: method as never, params: params as never });
}

/** A sender as one worker process has it: its own clients and receipt waiter, the shared database. */
function newSender(stuckAfterMs = 60_000): OperatorSender {
  const client = createPublicClient({
    chain: chainDefinition(anvil.chainId, anvil.rpcUrl),
    transport: http(anvil.rpcUrl, { batch: { batchSize: 100 } }),
  }) as PublicClient;
  return createOperatorSender({
    sql: db.sql,
    client,
    account: operator,
    chainId: anvil.chainId,
    receipts: createReceiptWaiter(client, 50),
    stuckAfterMs,
  });
}

const call = (purpose: string, target: Address = to) => ({ purpose, to: target, data: '0x' as Hex, gas: 50_000n });

/** A transaction recorded under its own nonce and never sent: what a sender that died in between leaves. */
async function recordUnsent(purpose: string): Promise<TransactionRow> {
  const chainNonce = BigInt(await pub.getTransactionCount({ address: operator.address, blockTag: 'pending' }));
  const row = await db.sql.begin(async (tx) => {
    const nonce = await allocateNonces(tx, { chainId: anvil.chainId, address: operator.address }, chainNonce, 1);
    const fees = await pub.estimateFeesPerGas();
    const raw = await operator.signTransaction({
      type: 'eip1559',
      chainId: anvil.chainId,
      to,
      data: '0x',
      nonce: Number(nonce),
      gas: 50_000n,
      ...fees,
    });
    return insertTransaction(tx, {
      purpose,
      chainId: anvil.chainId,
      address: operator.address,
      nonce,
      rawTransaction: raw,
      transactionHash: keccak256(raw),
      gas: 50_000n,
      ...fees,
    });
  });
  return row!;
}

const rowsOf = (prefix: string) =>
  db.sql<{ purpose: string; nonce: string; outcome: string | null; replacements: number; allHashes: string[]; transactionHash: string }[]>`
    select purpose, nonce::text as nonce, outcome, replacements, all_hashes as "allHashes", transaction_hash as "transactionHash"
    from chain_transactions where purpose like ${`${prefix}%`} order by chain_transactions.nonce`;

describe('operator sender', () => {
  it('shares one nonce ledger between senders with the same key: 40 concurrent sends, consecutive nonces, all mined', async () => {
    const [a, b] = [newSender(), newSender()];
    const start = BigInt(await pub.getTransactionCount({ address: operator.address, blockTag: 'pending' }));
    const settled = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const sender = i % 2 === 0 ? a : b;
        return sender.settle(await sender.send(call(`many:${i}`)));
      }),
    );
    expect(settled.every((s) => s.outcome === 'success')).toBe(true);
    const rows = await rowsOf('many:');
    expect(rows.map((r) => BigInt(r.nonce))).toEqual(Array.from({ length: 40 }, (_, i) => start + BigInt(i)));
    expect(rows.every((r) => r.outcome === 'success')).toBe(true);
    expect(BigInt(await pub.getTransactionCount({ address: operator.address }))).toBe(start + 40n);
  });

  it('records concurrent sends of one account in one database transaction per batch (group commit), relay and operator purposes alike', async () => {
    // The relayer's sender and the operator's are the same module: any key gets the group commit.
    const client = createPublicClient({
      chain: chainDefinition(anvil.chainId, anvil.rpcUrl),
      transport: http(anvil.rpcUrl, { batch: { batchSize: 100 } }),
    }) as PublicClient;
    const sender = createTransactionSender({ sql: db.sql, client, account: operator, chainId: anvil.chainId });
    const marked: string[] = [];
    const rows = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2 === 0
          ? sender.send(call(`batch:charge:${i}`))
          : sender.send(call(`batch:relay:${i}`), { again: false, onRecord: async (_tx, recorded) => void marked.push(recorded.purpose) }),
      ),
    );
    // The first send goes alone; the 29 queued behind it share the next lock acquisition.
    const [recorded] = await db.sql<{ transactions: number }[]>`
      select count(distinct xmin::text)::int as transactions from chain_transactions where purpose like 'batch:%'`;
    expect(recorded!.transactions).toBe(2);
    expect(marked).toHaveLength(15);
    const nonces = rows.map((r) => BigInt(r.nonce)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (let i = 1; i < nonces.length; i++) expect(nonces[i]).toBe(nonces[i - 1]! + 1n);
    const receipts = createReceiptWaiter(client, 50);
    const settled = await Promise.all(rows.map((row) => sender.settle(row, { receipts, stuckAfterMs: 60_000 })));
    expect(settled.every((s) => s.outcome === 'success')).toBe(true);
  });

  it('never gives a relay purpose a second transaction, even after its first reverted', async () => {
    const sender = createTransactionSender({ sql: db.sql, client: pub, account: operator, chainId: anvil.chainId });
    const first = await sender.send(call('relay:once', REVERTER), { again: false });
    expect((await sender.settle(first, { receipts: createReceiptWaiter(pub, 50), stuckAfterMs: 60_000 })).outcome).toBe('reverted');
    const before = await pub.getTransactionCount({ address: operator.address, blockTag: 'pending' });
    const again = await sender.send(call('relay:once', REVERTER), { again: false });
    expect(again.transactionHash).toBe(first.transactionHash);
    expect(again.outcome).toBe('reverted');
    expect(await rowsOf('relay:once')).toHaveLength(1);
    expect(await pub.getTransactionCount({ address: operator.address, blockTag: 'pending' })).toBe(before);
  });

  it('sends one transaction per purpose: a retry, and a race from another sender, re-send the recorded one', async () => {
    const [a, b] = [newSender(), newSender()];
    const before = await pub.getTransactionCount({ address: operator.address, blockTag: 'pending' });
    const [first, raced] = await Promise.all([a.send(call('once:1')), b.send(call('once:1'))]);
    const retried = await a.send(call('once:1'));
    expect(raced.transactionHash).toBe(first.transactionHash);
    expect(retried.transactionHash).toBe(first.transactionHash);
    expect((await a.settle(retried)).outcome).toBe('success');
    expect(await rowsOf('once:')).toHaveLength(1);
    expect(await pub.getTransactionCount({ address: operator.address, blockTag: 'pending' })).toBe(before + 1);
  });

  it('fails the callers of a batch that stays unsettled and moves on; the batch commits late and a retry sends what it recorded', async () => {
    // A pool of its own: the account's send queue is per pool, so this one has the short stall bound.
    const sql = createSql(db.url, { max: 3 });
    const receipts = createReceiptWaiter(pub, 50);
    const sender = createTransactionSender({ sql, client: pub, account: operator, chainId: anvil.chainId, batchStallMs: 1500 });
    try {
      expect((await sender.settle(await sender.send(call('stall:0')), { receipts, stuckAfterMs: 60_000 })).outcome).toBe('success');
      // Another transaction holds the account's nonce row, so the batches wait as on a stuck client.
      const holder = await db.sql.reserve();
      try {
        await holder`begin`;
        await holder`select 1 from relayer_accounts where chain_id = ${anvil.chainId} and address = ${operator.address} for update`;
        await expect(sender.send(call('stall:1'))).rejects.toBeInstanceOf(BatchStalled);
        // The queue did not wait on the stalled batch: the next send is its own batch, bounded too.
        await expect(sender.send(call('stall:2'))).rejects.toBeInstanceOf(BatchStalled);
      } finally {
        await holder`rollback`;
        holder.release();
      }
      // The stalled batches commit once the row is free; the retries find their transactions.
      const retried = await Promise.all([sender.send(call('stall:1')), sender.send(call('stall:2'))]);
      for (const row of retried) expect((await sender.settle(row, { receipts, stuckAfterMs: 60_000 })).outcome).toBe('success');
      const rows = await rowsOf('stall:');
      expect(rows.map((r) => r.purpose)).toEqual(['stall:0', 'stall:1', 'stall:2']);
      expect(rows.map((r) => BigInt(r.nonce) - BigInt(rows[0]!.nonce))).toEqual([0n, 1n, 2n]);
      expect(rows.every((r) => r.outcome === 'success')).toBe(true);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it('waits for a transaction whose nonce the node reports used before it serves the receipt', async () => {
    // A node (or an RPC load balancer) that counts the nonce as used while its receipt index lags behind.
    let receiptsServed = false;
    const lagging = createPublicClient({
      chain: chainDefinition(anvil.chainId, anvil.rpcUrl),
      transport: custom({
        request: async ({ method, params }) =>
          method === 'eth_getTransactionReceipt' && !receiptsServed ? null : pub.request({ method, params }),
      }),
    }) as PublicClient;
    const sender = createTransactionSender({ sql: db.sql, client: lagging, account: operator, chainId: anvil.chainId });
    const sent = await sender.send(call('lag:1'));
    await until(
      () => pub.getTransactionCount({ address: operator.address }),
      (used) => BigInt(used) > BigInt(sent.nonce),
      'the nonce used',
    );
    expect((await sender.look(sent, { stuckAfterMs: 60_000, recheckDelayMs: 50 })).kind).toBe('waiting');
    receiptsServed = true;
    const seen = await sender.look(sent, { stuckAfterMs: 60_000, recheckDelayMs: 50 });
    expect(seen.kind === 'mined' && seen.receipt.status).toBe('success');
  });

  it('calls a transaction dropped when another transaction took its nonce', async () => {
    const recorded = await recordUnsent('taken:1');
    // The same key sends another transaction with that nonce (a key also used elsewhere).
    const fees = await pub.estimateFeesPerGas();
    const other = await operator.signTransaction({
      type: 'eip1559',
      chainId: anvil.chainId,
      to: operator.address,
      data: '0x',
      nonce: Number(recorded.nonce),
      gas: 50_000n,
      ...fees,
    });
    await pub.waitForTransactionReceipt({ hash: await pub.sendRawTransaction({ serializedTransaction: other }) });
    const sender = createTransactionSender({ sql: db.sql, client: pub, account: operator, chainId: anvil.chainId });
    expect((await sender.look(recorded, { stuckAfterMs: 60_000, recheckDelayMs: 50 })).kind).toBe('dropped');
  });

  it('keeps a mined outcome when a follower that looked too late records the transaction dropped', async () => {
    const sender = newSender();
    const sent = await sender.send(call('late-look:1'));
    expect((await sender.settle(sent)).outcome).toBe('success');
    expect(await recordOutcome(db.sql, sent.id, 'dropped')).toBe(false);
    expect((await rowsOf('late-look:')).map((r) => r.outcome)).toEqual(['success']);
  });

  it('records a revert, which frees the purpose for a new transaction', async () => {
    const sender = newSender();
    const first = await sender.settle(await sender.send(call('revert:1', REVERTER)));
    expect(first.outcome).toBe('reverted');
    const again = await sender.send(call('revert:1', REVERTER));
    const rows = await rowsOf('revert:');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.outcome).toBe('reverted');
    expect(again.transactionHash).toBe(rows[1]!.transactionHash);
    expect((await sender.settle(again)).outcome).toBe('reverted');
  });

  it('replaces a transaction that waits too long with a higher fee under the same nonce', async () => {
    const sender = newSender(500);
    await rpc('evm_setAutomine', [false]);
    try {
      const sent = await sender.send(call('stuck:1'));
      const settling = sender.settle(sent);
      // Wait until the sender has replaced it, then let the chain mine.
      for (let i = 0; i < 100 && (await rowsOf('stuck:'))[0]!.replacements === 0; i++) await new Promise((r) => setTimeout(r, 100));
      const [replaced] = await rowsOf('stuck:');
      expect(replaced!.replacements).toBeGreaterThanOrEqual(1);
      expect(replaced!.allHashes[0]).toBe(sent.transactionHash);
      await rpc('evm_mine', []);
      const settled = await settling;
      expect(settled.outcome).toBe('success');
      if (settled.outcome === 'success') {
        expect(replaced!.allHashes).toContain(settled.receipt.transactionHash);
        expect(settled.receipt.transactionHash).not.toBe(sent.transactionHash);
        const mined = await pub.getTransaction({ hash: settled.receipt.transactionHash });
        expect(BigInt(mined.nonce)).toBe(BigInt(sent.nonce));
        expect(mined.maxFeePerGas! >= (BigInt(sent.maxFeePerGas) * 125n) / 100n).toBe(true);
      }
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
  });

  it('sends the transaction a dead sender recorded but never sent, so the ones behind it are mined', async () => {
    // What a sender leaves when it dies after committing and before sending: a recorded, unsent nonce.
    const orphan = await recordUnsent('gap:orphan');
    const sender = newSender(500);
    const behind = await sender.send(call('gap:behind'));
    expect(BigInt(behind.nonce)).toBe(BigInt(orphan!.nonce) + 1n);
    expect((await sender.settle(behind)).outcome).toBe('success');
    const receipt = await pub.getTransactionReceipt({ hash: orphan!.transactionHash as Hex });
    expect(receipt.status).toBe('success');
  });

  it('sends again a mined transaction a reorg took out, so the ones behind it are mined', async () => {
    const sender = newSender(500);
    const snapshot = await rpc('evm_snapshot', []);
    const mined = await sender.send(call('reorg:mined'));
    expect((await sender.settle(mined)).outcome).toBe('success');
    // The block goes away and the node forgets the transaction (anvil does not put it back in its pool).
    await rpc('evm_revert', [snapshot]);
    await expect(pub.getTransactionReceipt({ hash: mined.transactionHash as Hex })).rejects.toThrow();
    const behind = await sender.send(call('reorg:behind'));
    expect(BigInt(behind.nonce)).toBe(BigInt(mined.nonce) + 1n);
    expect((await sender.settle(behind)).outcome).toBe('success');
    expect((await pub.getTransactionReceipt({ hash: mined.transactionHash as Hex })).status).toBe('success');
  });

  it('fills with a transfer of nothing the nonce of a reverted transaction a reorg took out, never re-sending it', async () => {
    const sender = newSender(500);
    const snapshot = await rpc('evm_snapshot', []);
    const reverted = await sender.send(call('reorg:reverted', REVERTER));
    expect((await sender.settle(reverted)).outcome).toBe('reverted');
    await rpc('evm_revert', [snapshot]);
    const behind = await sender.send(call('reorg:after-revert'));
    expect((await sender.settle(behind)).outcome).toBe('success');
    // The nonce was used by another transaction: ours to ourselves, with no value and no data.
    await expect(pub.getTransactionReceipt({ hash: reverted.transactionHash as Hex })).rejects.toThrow();
    const block = await pub.getBlock({
      blockNumber: (await pub.getTransactionReceipt({ hash: behind.transactionHash as Hex })).blockNumber,
      includeTransactions: true,
    });
    const before = await pub.getBlock({ blockNumber: block.number - 1n, includeTransactions: true });
    const filler = [...before.transactions, ...block.transactions].find(
      (t) => BigInt(t.nonce) === BigInt(reverted.nonce) && t.from.toLowerCase() === operator.address.toLowerCase(),
    );
    expect(filler).toMatchObject({ to: operator.address.toLowerCase(), value: 0n, input: '0x' });
  });
});
