// The refund events: recorded in the transaction of the change they announce (the outbox).
import type { RecordEvent } from '../events/commit.js';
import { isRefusalCode, retryOf } from '../chain/refusals.js';
import { renderRefund } from './api-shape.js';
import type { RefundRow } from './repo.js';

/** `data.object` is the refund; a `refund.failed` also says whether the same refund can succeed later (`retry`, docs/events.md). */
export async function recordRefundEvent(
  record: RecordEvent,
  type: 'refund.created' | 'refund.succeeded' | 'refund.failed',
  row: RefundRow,
  publicBaseUrl?: string,
): Promise<void> {
  const code = row.failureCode;
  const retry = type === 'refund.failed' ? { retry: code && isRefusalCode(code) ? retryOf(code) : 'never' } : {};
  await record({ merchantId: row.merchantId, livemode: row.livemode, type, data: { object: renderRefund(row, publicBaseUrl), ...retry } });
}
