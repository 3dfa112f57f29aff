// Which test clock produced an event (issue #30): an event about an object of a payer wallet on a
// live clock, or about a payment session or invoice created on a clock, carries `testClock` (the
// clock id) in its data, so webhooks and the dashboard's timeline can tell clock-driven events apart.
import type { Db } from '../db/client.js';
import { findClockOfWallet } from './repo.js';

type Loose = Record<string, unknown> | undefined;
const field = (value: unknown, key: string): unknown =>
  value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;

/** The payer wallet an event's data is about: a subscription's (as object or beside a charge). */
function payerWallet(data: Record<string, unknown>): string | undefined {
  for (const holder of [data.object as Loose, data.subscription as Loose]) {
    const wallet = field(field(holder, 'customer'), 'walletAddress');
    if (typeof wallet === 'string') return wallet;
  }
  return undefined;
}

export async function testClockOfEvent(
  db: Db,
  event: { merchantId: string; livemode: boolean; data: Record<string, unknown> },
): Promise<string | undefined> {
  if (event.livemode) return undefined;
  // A payment session or invoice names its clock itself (created with `testClock`).
  const own = field(event.data.object, 'testClock');
  if (typeof own === 'string') return own;
  const wallet = payerWallet(event.data);
  return wallet ? findClockOfWallet(db, event.merchantId, wallet) : undefined;
}
