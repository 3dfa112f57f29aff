// Chaos: the worker process is SIGKILLed while the deposit sweep is in flight, on a chain that mines a
// block every 2 seconds (the sweep transaction is sent and not yet mined when it dies). Payment
// sessions are paid by plain transfers to their deposit addresses, seen by the real indexer process; a
// new worker takes over. Every deposit must be swept exactly once: the payout address receives exactly
// the sum, each deposit records the one sweep transaction that moved it, the operator sent one
// transaction per sweep, and every forwarder ends empty.
import { createWalletClient, erc20Abi, http, parseEventLogs, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { useRelayedPaymentsChaos } from './support/relayed-payments.js';
import { saveServiceLogs } from './support/stack.js';
import { waitUntil } from './support/wait.js';

const DEPOSITS = 5;
const AMOUNT = 1_250_000n;

const merchantOnChain = useRelayedPaymentsChaos();

describe('worker SIGKILLed mid sweep', () => {
  it('sweeps every deposit once after a new worker takes over', async () => {
    const { stack, merchant, pub, payTo: payout } = merchantOnChain();
    const info = stack.chain.info;
    const chain = chainDefinition(info.chainId, info.rpcUrl);
    const balanceOf = (who: Address) => pub.readContract({ address: info.token, abi: erc20Abi, functionName: 'balanceOf', args: [who] });
    const api = async (path: string, body?: object) =>
      fetch(`${stack.apiUrl}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${merchant.secretKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    await stack.start('api');
    const indexer = await stack.start('indexer');
    let worker = await stack.start('worker');

    const sessions: { id: string; deposit: { address: Address } }[] = [];
    for (let i = 0; i < DEPOSITS; i++) {
      const res = await api('/v1/payment-sessions', { amount: AMOUNT.toString() });
      expect(res.status).toBe(200);
      sessions.push((await res.json()) as { id: string; deposit: { address: Address } });
    }
    const addresses = sessions.map((s) => s.deposit.address);
    const payoutBefore = await balanceOf(payout);
    const operatorNonceBefore = await pub.getTransactionCount({ address: info.operator });

    // One plain transfer per deposit address, each from its own payer, sent at once (so they share blocks).
    const hashes = await Promise.all(
      addresses.map((to, i) => {
        const account = privateKeyToAccount(DEV_ACCOUNTS.payers[i]!.privateKey);
        const wallet = createWalletClient({ account, chain, transport: http(info.rpcUrl) });
        return wallet.writeContract({ address: info.token, abi: erc20Abi, functionName: 'transfer', args: [to, AMOUNT], gas: 100_000n });
      }),
    );
    // Kill once a sweep transaction is sent and not yet mined (watched from now on: the first sweep may
    // go out before every transfer's receipt is read).
    const sweepInFlight = waitUntil(
      'a sweep sent and not yet mined',
      120_000,
      async () => {
        const [row] = await stack.sql<
          { n: number }[]
        >`select count(*)::int as n from chain_transactions where purpose like 'deposit-sweep:%' and outcome is null`;
        return row!.n > 0 ? true : undefined;
      },
      50,
    );
    // Killed as soon as it is seen: waiting for the transfers' receipts first once let every sweep finish.
    await sweepInFlight;
    await worker.kill();
    const [atKill] = await stack.sql<{ n: number }[]>`select count(*)::int as n from deposits where swept_at is not null`;
    expect(atKill!.n).toBeLessThan(DEPOSITS);
    for (const hash of hashes) expect((await waitForDevReceipt(pub, hash)).status).toBe('success');

    const killed = worker;
    worker = await stack.start('worker');
    const ids = sessions.map((s) => s.id);
    // Where the sweep stands, on chain and in the ledger, and the services' logs: a failure in CI can be explained.
    const explain = async (error: Error): Promise<never> => {
      const [state] = await stack.sql`
        select (select json_agg(json_build_object('id', id, 'status', status, 'purpose', sweep_purpose, 'hash', sweep_transaction_hash, 'sweptAt', swept_at) order by id)
                  from deposits where payment_session_id in ${stack.sql(ids)}) as deposits,
               (select json_agg(status) from payment_sessions where id in ${stack.sql(ids)}) as sessions,
               (select json_agg(json_build_object('purpose', purpose, 'nonce', nonce, 'hashes', all_hashes, 'outcome', outcome) order by nonce)
                  from chain_transactions where purpose like 'deposit-sweep:%') as sweeps`;
      const held = await Promise.all(addresses.map(async (address) => `${address}=${await balanceOf(address)}`));
      const logs = saveServiceLogs('chaos-crash-sweep', { killed, worker, indexer });
      throw new Error(`${error.message}; ${JSON.stringify(state)}; deposit addresses hold ${held.join(', ')}; logs in ${logs}`);
    };
    await waitUntil('every deposit swept and every session completed', 180_000, async () => {
      const [swept] = await stack.sql<
        { n: number }[]
      >`select count(*)::int as n from deposits where payment_session_id in ${stack.sql(ids)} and swept_at is not null`;
      const [completed] = await stack.sql<
        { n: number }[]
      >`select count(*)::int as n from payment_sessions where id in ${stack.sql(ids)} and status = 'completed'`;
      return swept!.n === DEPOSITS && completed!.n === DEPOSITS ? true : undefined;
    }).catch(explain);

    // The payout address received exactly the sum, and the forwarders hold nothing.
    try {
      expect((await balanceOf(payout)) - payoutBefore).toBe(AMOUNT * BigInt(DEPOSITS));
      for (const address of addresses) expect(await balanceOf(address)).toBe(0n);
    } catch (error) {
      await explain(error as Error);
    }

    // One deposit each, and its recorded sweep transaction is the one that moved it to the payout address.
    const rows = await stack.sql<{ address: string; sweepPurpose: string; sweepTransactionHash: `0x${string}` }[]>`
      select s.deposit_address as address, d.sweep_purpose as "sweepPurpose", d.sweep_transaction_hash as "sweepTransactionHash"
      from deposits d join payment_sessions s on s.id = d.payment_session_id where s.id in ${stack.sql(ids)}`;
    expect(rows).toHaveLength(DEPOSITS);
    for (const row of rows) {
      const receipt = await pub.getTransactionReceipt({ hash: row.sweepTransactionHash });
      expect(receipt.status).toBe('success');
      const moved = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs }).filter(
        (log) => log.address.toLowerCase() === info.token.toLowerCase() && log.args.from.toLowerCase() === row.address.toLowerCase(),
      );
      expect(moved.map((log) => [log.args.to, log.args.value])).toEqual([[payout, AMOUNT]]);
    }

    // Nothing sent twice: one ledger transaction per sweep, and the operator's nonce moved once for each.
    const purposes = [...new Set(rows.map((r) => r.sweepPurpose))];
    const sent = await stack.sql<
      { purpose: string; outcome: string }[]
    >`select purpose, outcome from chain_transactions where purpose like 'deposit-sweep:%'`;
    expect(sent.map((s) => s.purpose).sort()).toEqual(purposes.sort());
    expect(sent.every((s) => s.outcome === 'success')).toBe(true);
    expect((await pub.getTransactionCount({ address: info.operator })) - operatorNonceBefore).toBe(purposes.length);
  }, 600_000);
});
