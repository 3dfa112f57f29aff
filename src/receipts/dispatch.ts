// The dispatcher's side of receipts: for a batch of claimed events, queue the receipt of each money event
// whose merchant has that kind's switch on (read once per merchant and mode in the batch, before the event
// itself is read: on a renewal day most charges are of merchants with the switch off). Each receipt runs in
// its own savepoint and a failure is reported, never thrown: a receipt that cannot be written must not hold
// back the webhooks of the whole batch.
import type { Db } from '../db/client.js';
import { findEvent, type ClaimedEvent } from '../events/outbox.js';
import { RECEIPT_EVENTS } from './content.js';
import { queueReceipt } from './queue.js';
import { findReceiptSwitches } from './repo.js';
import { switchOf, type ReceiptSwitches } from './schemas.js';

/** The ids of the emails queued; start their delivery once `tx` has committed. */
export async function queueReceiptsOfEvents(
  tx: Db,
  events: readonly ClaimedEvent[],
  publicBaseUrl: string,
  onError: (error: unknown, eventId: string) => void,
): Promise<string[]> {
  const switches = new Map<string, ReceiptSwitches>();
  const queued: string[] = [];
  for (const claimed of events) {
    const kind = RECEIPT_EVENTS[claimed.type];
    if (!kind) continue;
    const key = `${claimed.merchantId}/${claimed.livemode}`;
    if (!switches.has(key)) switches.set(key, await findReceiptSwitches(tx, claimed));
    if (!switchOf(switches.get(key)!, kind)) continue;
    // A savepoint by hand: the pool's transactions run on a reserved connection, which has no savepoint helper.
    await tx.unsafe('savepoint receipt');
    try {
      const event = await findEvent(tx, claimed.id);
      const emailId = event ? await queueReceipt(tx, kind, event, publicBaseUrl) : null;
      await tx.unsafe('release savepoint receipt');
      if (emailId) queued.push(emailId);
    } catch (error) {
      await tx.unsafe('rollback to savepoint receipt');
      onError(error, claimed.id);
    }
  }
  return queued;
}
