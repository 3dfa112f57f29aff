// The shared set-up of the chaos tests that strike while payments are in flight (the relay crash,
// Postgres outage and Temporal restart tests here, test/x402/worker-crash.test.ts through the x402
// facilitator; the refund and sweep crash tests use its stack and merchant): a stack on a chain that
// mines a block every 2 seconds, so transactions are sent and not yet mined when the blow lands; a
// merchant paid at the dev merchant address; signed EIP-3009 transfers to it; waits for a payment
// in flight and for every payment confirmed; and the on-chain check that each payment moved its
// amount once and cost the relayer one transaction.
import { type Address, type Hex, type PublicClient, createPublicClient, erc20Abi, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect } from 'vitest';
import { chainDefinition } from '../../../src/chain/chain-definition.js';
import { type ContractDomain, randomNonce, readDomain, signAuthorization } from '../../../src/chain/typed-data.js';
import { DEV_ACCOUNTS } from '../../../tools/dev/chain/test-accounts.js';
import { seedMerchant, type SeededMerchant } from '../../support/app.js';
import { saveServiceLogs, startChaosStack, type ChaosStack, type Service } from './stack.js';
import { waitUntil } from './wait.js';

export type RelayedPaymentsChaos = {
  stack: ChaosStack;
  merchant: SeededMerchant;
  pub: PublicClient;
  /** Where every payment goes: the merchant's payout address. */
  payTo: Address;
};

/** The stack (2-second blocks) and a merchant whose payout address is the dev merchant account. */
export async function startRelayedPaymentsChaos(): Promise<RelayedPaymentsChaos> {
  const stack = await startChaosStack({ blockTime: 2 });
  const merchant = await seedMerchant(stack.sql);
  const payTo = DEV_ACCOUNTS.merchant.address as Address;
  await stack.sql`update merchants set payout_address = ${payTo} where id = ${merchant.merchantId}`;
  const info = stack.chain.info;
  const pub = createPublicClient({ chain: chainDefinition(info.chainId, info.rpcUrl), transport: http(info.rpcUrl) }) as PublicClient;
  return { stack, merchant, pub, payTo };
}

/** Starts the stack before the file's tests and stops it after them; the getter is for use inside a test. */
export function useRelayedPaymentsChaos(): () => RelayedPaymentsChaos {
  let chaos: RelayedPaymentsChaos | undefined;
  beforeAll(async () => {
    chaos = await startRelayedPaymentsChaos();
  }, 240_000);
  afterAll(async () => chaos?.stack.stop(), 60_000);
  return () => {
    if (!chaos) throw new Error('the chaos stack did not start');
    return chaos;
  };
}

/** The process has neither exited nor been killed: the same one kept running. */
export function expectStillRunning(service: Service): void {
  expect({ exitCode: service.child.exitCode, signal: service.child.signalCode }).toEqual({ exitCode: null, signal: null });
}

/** Waits until one of the merchant's payments is sent and not yet confirmed (the window a test strikes in). */
export async function waitForPaymentInFlight(chaos: RelayedPaymentsChaos): Promise<void> {
  await waitUntil(
    'a payment sent and not yet confirmed',
    120_000,
    async () => ((await relayStatus(chaos)).submitted > 0 ? true : undefined),
    50,
  );
}

/**
 * Waits until `count` of the merchant's payments are confirmed. On a timeout the error says where the
 * payments stood and the worker's log is saved under .data/test-logs, so a failure in CI can be explained.
 */
export async function waitForPaymentsConfirmed(
  chaos: RelayedPaymentsChaos,
  count: number,
  worker: Service,
  logName: string,
): Promise<void> {
  try {
    await waitUntil(
      `${count} payments confirmed`,
      180_000,
      async () => ((await relayStatus(chaos).catch(() => undefined))?.confirmed === count ? true : undefined),
      500,
    );
  } catch (error) {
    const status = await relayStatus(chaos).catch((e: unknown) => String(e));
    const logs = saveServiceLogs(logName, { worker });
    throw new Error(`${(error as Error).message}; relay status: ${JSON.stringify(status)}; the worker's log is in ${logs}`, {
      cause: error,
    });
  }
}

/** An authorization as the relay API and x402 carry it: integers as decimal strings. */
export type SignedTransfer = {
  authorization: { from: Address; to: Address; value: string; validAfter: string; validBefore: string; nonce: Hex };
  signature: Hex;
};

/** `count` TransferWithAuthorization of `amount` to the payout address, from the dev payers in turn, valid for an hour. */
export async function signTransfers(
  chaos: RelayedPaymentsChaos,
  count: number,
  amount: bigint,
): Promise<{ domain: ContractDomain; transfers: SignedTransfer[] }> {
  const domain = await readDomain(chaos.pub, chaos.stack.chain.info.token);
  const validBefore = (await chaos.pub.getBlock()).timestamp + 3600n;
  const transfers = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const payer = privateKeyToAccount(DEV_ACCOUNTS.payers[i % DEV_ACCOUNTS.payers.length]!.privateKey);
      const message = { from: payer.address, to: chaos.payTo, value: amount, validAfter: 0n, validBefore, nonce: randomNonce() };
      const signature = await signAuthorization(payer, domain, 'TransferWithAuthorization', message);
      return { authorization: { ...message, value: amount.toString(), validAfter: '0', validBefore: validBefore.toString() }, signature };
    }),
  );
  return { domain, transfers };
}

export type OnChainMark = { payToBalance: bigint; relayerNonce: number };

/** The payout address's balance and the relayer's nonce now. */
export async function markOnChain(chaos: RelayedPaymentsChaos): Promise<OnChainMark> {
  const info = chaos.stack.chain.info;
  return {
    payToBalance: await chaos.pub.readContract({ address: info.token, abi: erc20Abi, functionName: 'balanceOf', args: [chaos.payTo] }),
    relayerNonce: await chaos.pub.getTransactionCount({ address: info.relayer }),
  };
}

/** Since `before`: the merchant received exactly `count` x `amount`, and the relayer sent exactly `count` transactions (none twice). */
export async function expectEachPaidOnce(chaos: RelayedPaymentsChaos, before: OnChainMark, count: number, amount: bigint): Promise<void> {
  const after = await markOnChain(chaos);
  expect(after.payToBalance - before.payToBalance).toBe(amount * BigInt(count));
  expect(after.relayerNonce - before.relayerNonce).toBe(count);
}

/** Posts each transfer to `POST /v1/relay/payments` at once (idempotency keys `<keyPrefix>-<i>`); every answer must be 200. */
export async function requestRelayedPayments(
  chaos: RelayedPaymentsChaos,
  transfers: readonly SignedTransfer[],
  keyPrefix: string,
): Promise<void> {
  const responses = await Promise.all(
    transfers.map((body, i) =>
      fetch(`${chaos.stack.apiUrl}/v1/relay/payments`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${chaos.merchant.secretKey}`,
          'idempotency-key': `${keyPrefix}-${i}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      }),
    ),
  );
  expect(responses.map((r) => r.status)).toEqual(Array(transfers.length).fill(200));
}

/** How many of the merchant's relay submissions are sent and not yet confirmed, and how many are confirmed. */
export async function relayStatus(chaos: RelayedPaymentsChaos): Promise<{ submitted: number; confirmed: number }> {
  const [row] = await chaos.stack.sql<{ submitted: number; confirmed: number }[]>`
    select count(*) filter (where status = 'submitted')::int as submitted, count(*) filter (where status = 'confirmed')::int as confirmed
    from relay_submissions where merchant_id = ${chaos.merchant.merchantId}`;
  return row!;
}

/** The distinct transaction hashes of the merchant's confirmed relay submissions. */
export async function confirmedRelayHashes(chaos: RelayedPaymentsChaos): Promise<string[]> {
  const rows = await chaos.stack.sql<{ hash: string }[]>`
    select distinct transaction_hash as hash from relay_submissions where merchant_id = ${chaos.merchant.merchantId} and status = 'confirmed'`;
  return rows.map((r) => r.hash);
}
