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
import { insertReceipt, receiptExists } from './repo.js';
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
  const key = { ...scope, kind, objectId };
  if (await receiptExists(tx, key)) return null;
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
  // A concurrent writer that got here first wins; this one's email row goes with the caller's savepoint.
  const inserted = await insertReceipt(tx, { ...key, id: newId('receipt'), tokenHash: hashReceiptToken(token), emailId, data: draft.data });
  if (!inserted) throw new ReceiptRaceLost();
  return emailId;
}

/** Another process queued the same receipt between the check and the insert. */
export class ReceiptRaceLost extends Error {}
