// Migration 00012 on a database that ran the two old ledgers: every recorded
// transaction of relayer_transactions and operator_transactions moves to
// chain_transactions, and one that was recorded but never sent (its sender died
// in between, just before the deploy) is still sent and followed by the new
// code, with no second transaction for its purpose. Real anvil and Postgres.
import { readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { type Address, type Hex, type LocalAccount, type PublicClient, createPublicClient, http, keccak256, zeroAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startAnvil, type AnvilInstance } from '../../src/chain/anvil.js';
import type { ChainSettings } from '../../src/chain/config.js';
import { createOperatorSender } from '../../src/chain/operator-sender.js';
import { createReceiptWaiter } from '../../src/chain/receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { createSql, type Sql } from '../../src/db/client.js';
import { ensureDatabase } from '../../src/db/databases.js';
import { checkSubmission, submitSubmission } from '../../src/relay/relayer.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';

const MIGRATIONS = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
const LEDGER_MIGRATION = '00012_transaction_ledger.sql';

let anvil: AnvilInstance;
let pub: PublicClient;
let sql: Sql;
let settings: ChainSettings;
const relayer = privateKeyToAccount(DEV_ACCOUNTS.relayer.privateKey);
const operator = privateKeyToAccount(DEV_ACCOUNTS.operator.privateKey);
const to = DEV_ACCOUNTS.merchant.address;

/** Applies the migration files before (or exactly) the ledger migration, in one transaction as postgres-shift does. */
async function applyMigrations(which: (file: string) => boolean): Promise<void> {
  const files = readdirSync(MIGRATIONS)
    .filter((f) => /^\d{5}_.*\.sql$/.test(f) && which(f))
    .sort();
  await sql.begin(async (tx) => {
    for (const file of files) await tx.file(`${MIGRATIONS}${file}`);
  });
}

async function signed(
  account: LocalAccount,
  nonce: bigint,
): Promise<{ raw: Hex; hash: Hex; fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } }> {
  const fees = await pub.estimateFeesPerGas();
  const raw = await account.signTransaction({
    type: 'eip1559',
    chainId: anvil.chainId,
    to,
    data: '0x',
    nonce: Number(nonce),
    gas: 50_000n,
    ...fees,
  });
  return { raw, hash: keccak256(raw), fees };
}

/** A row of either old table, with the columns they shared. */
async function recordOld(
  table: 'relayer_transactions' | 'operator_transactions',
  key: { submissionId: string } | { purpose: string; outcome: string | null },
  account: Address,
  nonce: bigint,
  tx: Awaited<ReturnType<typeof signed>>,
): Promise<void> {
  const common = {
    chain_id: anvil.chainId,
    address: account,
    nonce: nonce.toString(),
    raw_transaction: tx.raw,
    transaction_hash: tx.hash,
    all_hashes: [tx.hash],
    max_fee_per_gas: tx.fees.maxFeePerGas.toString(),
    max_priority_fee_per_gas: tx.fees.maxPriorityFeePerGas.toString(),
    gas: '50000',
  };
  const row =
    'submissionId' in key ? { submission_id: key.submissionId, ...common } : { purpose: key.purpose, outcome: key.outcome, ...common };
  await sql`insert into ${sql(table)} ${sql(row as Record<string, unknown>)}`;
}

beforeAll(async () => {
  anvil = await startAnvil();
  pub = createPublicClient({
    chain: chainDefinition(anvil.chainId, anvil.rpcUrl),
    transport: http(anvil.rpcUrl, { batch: { batchSize: 100 } }),
  }) as PublicClient;
  const adminUrl = inject('postgresAdminUrl');
  const name = `ledger_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(adminUrl, name);
  sql = createSql(adminUrl.replace(/\/postgres$/, `/${name}`), { max: 5 });
  settings = {
    mode: 'test',
    livemode: false,
    rpcUrl: anvil.rpcUrl,
    chainId: anvil.chainId,
    token: zeroAddress,
    subscriptionManager: zeroAddress,
    escrow: zeroAddress,
    confirmations: 1,
    relayerKey: DEV_ACCOUNTS.relayer.privateKey,
    startBlock: 0n,
    stuckAfterSeconds: 60,
    pollIntervalMs: 100,
  };
});
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await anvil?.stop();
});

describe('migration 00012: one transaction ledger', () => {
  it('moves both old ledgers into chain_transactions; a transaction recorded but never sent before the deploy is sent once and followed', async () => {
    await applyMigrations((f) => f < LEDGER_MIGRATION);

    // The old code at work: a relayed payment confirmed, another recorded but not sent (its worker died),
    // an operator charge mined, and an operator cancel recorded but not sent.
    await sql`insert into merchants (id, name, api_version) values ('mer_ledger', 'Ledger', '2026-01-01')`;
    const submission = (id: string, status: string) => ({
      id,
      merchant_id: 'mer_ledger',
      livemode: false,
      idempotency_key: id,
      kind: 'payment',
      chain_id: anvil.chainId,
      authorization_digest: `0x${id}`,
      call: sql.json({ to, functionName: 'transferWithAuthorization', args: [] }),
      status,
    });
    const r0 = BigInt(await pub.getTransactionCount({ address: relayer.address }));
    const relayedDone = await signed(relayer, r0);
    await pub.sendRawTransaction({ serializedTransaction: relayedDone.raw });
    await pub.waitForTransactionReceipt({ hash: relayedDone.hash });
    const relayedOpen = await signed(relayer, r0 + 1n);
    await sql`insert into relay_submissions ${sql([submission('rs_done', 'confirmed'), submission('rs_open', 'submitted')])}`;
    await sql`update relay_submissions set transaction_hash = ${relayedDone.hash}, block_number = 1 where id = 'rs_done'`;
    await sql`update relay_submissions set transaction_hash = ${relayedOpen.hash} where id = 'rs_open'`;
    await recordOld('relayer_transactions', { submissionId: 'rs_done' }, relayer.address, r0, relayedDone);
    await recordOld('relayer_transactions', { submissionId: 'rs_open' }, relayer.address, r0 + 1n, relayedOpen);

    const o0 = BigInt(await pub.getTransactionCount({ address: operator.address }));
    const charged = await signed(operator, o0);
    await pub.sendRawTransaction({ serializedTransaction: charged.raw });
    await pub.waitForTransactionReceipt({ hash: charged.hash });
    const cancel = await signed(operator, o0 + 1n);
    await recordOld('operator_transactions', { purpose: 'charge:m:1:0', outcome: 'success' }, operator.address, o0, charged);
    await recordOld('operator_transactions', { purpose: 'cancel:m:1', outcome: null }, operator.address, o0 + 1n, cancel);
    await sql`insert into relayer_accounts ${sql([
      { chain_id: anvil.chainId, address: relayer.address, next_nonce: (r0 + 2n).toString() },
      { chain_id: anvil.chainId, address: operator.address, next_nonce: (o0 + 2n).toString() },
    ])}`;

    await applyMigrations((f) => f === LEDGER_MIGRATION);

    const tables = await sql<{ name: string }[]>`
      select table_name as name from information_schema.tables where table_schema = 'public' and table_name like '%_transactions'`;
    expect(tables.map((t) => t.name).sort()).toEqual(['chain_transactions']);
    const rows = await sql<{ purpose: string; address: string; nonce: string; transactionHash: string; outcome: string | null }[]>`
      select purpose, address, nonce::text as nonce, transaction_hash as "transactionHash", outcome from chain_transactions order by purpose`;
    expect(rows).toEqual([
      { purpose: 'cancel:m:1', address: operator.address, nonce: (o0 + 1n).toString(), transactionHash: cancel.hash, outcome: null },
      { purpose: 'charge:m:1:0', address: operator.address, nonce: o0.toString(), transactionHash: charged.hash, outcome: 'success' },
      { purpose: 'relay:rs_done', address: relayer.address, nonce: r0.toString(), transactionHash: relayedDone.hash, outcome: 'success' },
      { purpose: 'relay:rs_open', address: relayer.address, nonce: (r0 + 1n).toString(), transactionHash: relayedOpen.hash, outcome: null },
    ]);

    // The relay picks its open submission up where the old code left it: the recorded bytes, no new nonce.
    expect(await submitSubmission(sql, settings, 'rs_open')).toMatchObject({
      status: 'submitted',
      transactionHash: relayedOpen.hash,
      transaction: { transactionHash: relayedOpen.hash },
    });
    let followed = await checkSubmission(sql, settings, 'rs_open');
    for (let i = 0; i < 50 && followed.status === 'waiting'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      followed = await checkSubmission(sql, settings, 'rs_open');
    }
    expect(followed.status).toBe('confirmed');
    const [done] = await sql`select status, transaction_hash from relay_submissions where id = 'rs_open'`;
    expect(done).toEqual({ status: 'confirmed', transaction_hash: relayedOpen.hash });

    // The operator's retried cancel follows its recorded transaction; its charge is found as done.
    const client = createPublicClient({
      chain: chainDefinition(anvil.chainId, anvil.rpcUrl),
      transport: http(anvil.rpcUrl),
    }) as PublicClient;
    const sender = createOperatorSender({
      sql,
      client,
      account: operator,
      chainId: anvil.chainId,
      receipts: createReceiptWaiter(client, 50),
      stuckAfterMs: 60_000,
    });
    expect((await sender.find('charge:m:1:0'))?.outcome).toBe('success');
    const resent = await sender.send({ purpose: 'cancel:m:1', to, data: '0x', gas: 50_000n });
    expect(resent.transactionHash).toBe(cancel.hash);
    expect((await sender.settle(resent)).outcome).toBe('success');

    const after = await sql<
      { purpose: string; outcome: string | null }[]
    >`select purpose, outcome from chain_transactions order by purpose`;
    expect(after.map((r) => r.outcome)).toEqual(['success', 'success', 'success', 'success']);
    expect(BigInt(await pub.getTransactionCount({ address: relayer.address }))).toBe(r0 + 2n);
    expect(BigInt(await pub.getTransactionCount({ address: operator.address }))).toBe(o0 + 2n);
    const [ledger] = await sql<{ relayer: string; operator: string }[]>`
      select max(next_nonce) filter (where address = ${relayer.address})::text as relayer,
             max(next_nonce) filter (where address = ${operator.address})::text as operator
      from relayer_accounts`;
    expect(ledger).toEqual({ relayer: (r0 + 2n).toString(), operator: (o0 + 2n).toString() });
  });
});
