// The dispatcher's side of receipts: for a batch of claimed events, queue the receipt of each money event.
// Each receipt runs in its own savepoint and a failure is logged, never thrown: a receipt that cannot be
// written must not hold back the webhooks of the whole batch.
import type { Db } from '../db/client.js';
import { findEvent } from '../events/outbox.js';
import { isReceiptEvent, queueReceipt } from './queue.js';

/** The ids of the emails queued; start their delivery once `tx` has committed. */
export async function queueReceiptsOfEvents(
  tx: Db,
  events: readonly { id: string; type: string }[],
  publicBaseUrl: string,
  onError: (error: unknown, eventId: string) => void,
): Promise<string[]> {
  const queued: string[] = [];
  const savepoint = (tx as { savepoint?: <T>(fn: (sp: Db) => Promise<T>) => Promise<T> }).savepoint;
  if (!savepoint) throw new Error('queueReceiptsOfEvents must run inside a transaction');
  for (const claimed of events) {
    if (!isReceiptEvent(claimed.type)) continue;
    try {
      const emailId = await savepoint.call(tx, async (sp) => {
        const event = await findEvent(sp, claimed.id);
        return event ? queueReceipt(sp, event, publicBaseUrl) : null;
      });
      if (emailId) queued.push(emailId);
    } catch (error) {
      onError(error, claimed.id);
    }
  }
  return queued;
}
