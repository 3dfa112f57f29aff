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
  const savepoint = (tx as { savepoint?: <T>(fn: (sp: Db) => Promise<T>) => Promise<T> }).savepoint?.bind(tx);
  if (!savepoint) throw new Error('queueReceiptsOfEvents must run inside a transaction');
  const switches = new Map<string, ReceiptSwitches>();
  const queued: string[] = [];
  for (const claimed of events) {
    const kind = RECEIPT_EVENTS[claimed.type];
    if (!kind) continue;
    const key = `${claimed.merchantId}/${claimed.livemode}`;
    if (!switches.has(key)) switches.set(key, await findReceiptSwitches(tx, claimed));
    if (!switchOf(switches.get(key)!, kind)) continue;
    try {
      const emailId = await savepoint(async (sp): Promise<string | null> => {
        const event = await findEvent(sp, claimed.id);
        return event ? queueReceipt(sp, kind, event, publicBaseUrl) : null;
      });
      if (emailId) queued.push(emailId);
    } catch (error) {
      onError(error, claimed.id);
    }
  }
  return queued;
}
