// Queueing a receipt when its money event is processed (the event dispatcher's batch, after the change
// committed: src/receipts/dispatch.ts). One receipt per object and kind (unique in `receipts`): an event
// processed twice, or two events of one object, queue one email. A customer whose email is not known gets
// none. The page link carries a random token; only its hash is stored.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/client.js';
import { queueEmail } from '../email/service.js';
import { newId } from '../ids.js';
import { receiptDraft } from './content.js';
import { receiptEmailText, receiptSubject } from './email-text.js';
import type { ReceiptKind } from './schemas.js';

export const hashReceiptToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const receiptPagePath = (token: string) => `/receipts/${token}`;

export type ReceiptEvent = { merchantId: string; livemode: boolean; data: Record<string, unknown> };

/**
 * The id of the email queued for the receipt of `kind` of the event's object, or null when it gets none (already
 * receipted, not in its final state, no email known). The caller checked the merchant's switch.
 */
export async function queueReceipt(tx: Db, kind: ReceiptKind, event: ReceiptEvent, publicBaseUrl: string): Promise<string | null> {
  const objectId = (event.data.object as { id?: unknown } | undefined)?.id;
  if (typeof objectId !== 'string') return null;
  const scope = { merchantId: event.merchantId, livemode: event.livemode };
  const [already] = await tx`
    select 1 from receipts where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and kind = ${kind} and object_id = ${objectId}`;
  if (already) return null;
  const draft = await receiptDraft(tx, scope, kind, objectId);
  if (!draft?.to) return null;
  const token = randomBytes(32).toString('base64url');
  const pageUrl = new URL(receiptPagePath(token), publicBaseUrl).href;
  const emailId = await queueEmail(tx, {
    ...scope,
    to: draft.to,
    subject: receiptSubject(draft.data),
    text: receiptEmailText(draft.data, pageUrl),
    kind: `receipt_${kind}`,
  });
  // A concurrent batch that got here first wins; this one's email row goes with its rolled-back savepoint.
  const inserted = await tx`
    insert into receipts (id, merchant_id, livemode, kind, object_id, token_hash, email_id, data)
    values (${newId('receipt')}, ${scope.merchantId}, ${scope.livemode}, ${kind}, ${objectId}, ${hashReceiptToken(token)}, ${emailId},
            ${tx.json(draft.data as never)})
    on conflict (merchant_id, livemode, kind, object_id) do nothing returning id`;
  if (inserted.length === 0) throw new ReceiptRaceLost();
  return emailId;
}

/** Another process queued the same receipt between the check and the insert. */
export class ReceiptRaceLost extends Error {}
