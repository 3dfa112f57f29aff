// The refund events: recorded in the transaction of the change they announce (the outbox).
import type { RecordEvent } from '../events/commit.js';
import { renderRefund } from './render.js';
import type { RefundRow } from './repo.js';

export async function recordRefundEvent(record: RecordEvent, type: 'refund.created' | 'refund.succeeded' | 'refund.failed', row: RefundRow): Promise<void> {
  await record({ merchantId: row.merchantId, livemode: row.livemode, type, data: { object: renderRefund(row) } });
}
