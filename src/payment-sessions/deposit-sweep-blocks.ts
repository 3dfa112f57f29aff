// Deposits whose payout the token refuses (docs/decisions.md, Deposit forwarders v2). A v2 sweep reports
// each deposit address it swept (`Swept`) or the token refused (`SweepFailed`); the refused ones are
// blocked with the refusal's code and one `payment.deposit_sweep_blocked` event each, for their own
// merchant only, and left out of sweeps until a re-check finds the cause gone (payout unblacklisted,
// token resumed). A zero payout never clears. The chain reads are here; the SQL in deposits-repo.ts.
import {
  type Address,
  type Hex,
  type Log,
  type PublicClient,
  decodeErrorResult,
  getAddress,
  isAddressEqual,
  parseEventLogs,
  zeroAddress,
} from 'viem';
import { depositForwarderFactoryV2Abi } from '../chain/generated/contracts.js';
import { classifyRevert, describeRefusal, isRefusalCode } from '../chain/refusals.js';
import { isBlacklisted, isPaused, nameBlacklistedSide } from '../chain/token-standing.js';
import type { Db } from '../db/client.js';
import type { RecordEvent } from '../events/commit.js';
import { renderDepositRecord } from './deposit-accounting.js';
import * as deposits from './deposits-repo.js';
import { renderPaymentSession } from './api-shape.js';
import * as sessions from './repo.js';

/** The code of a refusal the token did not name (a reason we cannot classify). */
export const UNNAMED_SWEEP_FAILURE = 'sweep_failed';

export type SweepItemOutcomes = {
  swept: { depositId: Hex; forwarder: Address }[];
  failed: { depositId: Hex; forwarder: Address; payout: Address; reason: Hex }[];
};

/** What the factory reported per deposit address in a mined v2 sweep (logs of other contracts ignored). */
export function sweepItemOutcomes(factory: Address, logs: Log[]): SweepItemOutcomes {
  const own = logs.filter((l) => isAddressEqual(l.address, factory));
  const outcomes: SweepItemOutcomes = { swept: [], failed: [] };
  for (const event of parseEventLogs({ abi: depositForwarderFactoryV2Abi, logs: own })) {
    if (event.eventName === 'Swept') outcomes.swept.push({ depositId: event.args.depositId, forwarder: event.args.forwarder });
    else
      outcomes.failed.push({
        depositId: event.args.depositId,
        forwarder: event.args.forwarder,
        payout: event.args.payout,
        reason: event.args.reason,
      });
  }
  return outcomes;
}

/**
 * The refusal code of a failed item: from the token's revert data (bounded by the contract), with the
 * blacklisted side read as of the sweep's block; `sweep_failed` when the data names nothing we know.
 */
export async function refusalCodeOfSweepFailure(
  client: PublicClient,
  token: Address,
  item: SweepItemOutcomes['failed'][number],
  blockNumber: bigint,
): Promise<string> {
  let refusal;
  try {
    const decoded = decodeErrorResult({ abi: [], data: item.reason });
    refusal = classifyRevert({ errorName: decoded.errorName, args: decoded.args ?? [] });
  } catch {
    refusal = undefined;
  }
  if (!refusal) return UNNAMED_SWEEP_FAILURE;
  // The deposit address is the sending side; the payout is the merchant's.
  return (await nameBlacklistedSide(client, token, item.forwarder, item.payout, refusal, blockNumber)).code;
}

/** Whether the token would still refuse a sweep from `forwarder` to `payout` (the re-check of a block). */
export async function sweepStillRefused(client: PublicClient, token: Address, forwarder: Address, payout: Address): Promise<boolean> {
  if (isAddressEqual(payout, zeroAddress)) return true;
  const [paused, payoutBlocked, forwarderBlocked] = await Promise.all([
    isPaused(client, token),
    isBlacklisted(client, token, getAddress(payout)),
    isBlacklisted(client, token, getAddress(forwarder)),
  ]);
  return paused || payoutBlocked || forwarderBlocked;
}

/** Blocks the sweep's deposits into `addresses` (deposit addresses) and records one event per newly blocked deposit. */
export async function blockDepositSweeps(
  tx: Db,
  record: RecordEvent,
  publicBaseUrl: string,
  purpose: string,
  addresses: string[],
  code: string,
): Promise<number> {
  const blocked = await deposits.blockSweptAddresses(tx, purpose, addresses, code);
  for (const deposit of blocked) {
    const session = (await sessions.findPaymentSessionById(tx, deposit.paymentSessionId))!;
    await record({
      merchantId: deposit.merchantId,
      livemode: deposit.livemode,
      type: 'payment.deposit_sweep_blocked',
      data: {
        object: renderPaymentSession(session, publicBaseUrl),
        deposit: renderDepositRecord(deposit),
        payoutAddress: deposit.payoutAddress,
        failureCode: code,
        failureReason: isRefusalCode(code) ? describeRefusal(code) : 'The token refused to move this deposit to the payout address.',
        retry: 'later',
      },
    });
  }
  return blocked.length;
}
