// SQL for receipts: the switches per merchant and mode, the receipts sent, and the one lookup of a
// customer's email for a receipt (src/receipts/recipient.ts decides which source to ask).
import type { Db } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';
import type { ReceiptData } from './content.js';
import { DEFAULT_RECEIPT_SETTINGS, type ReceiptKind, type ReceiptSwitches } from './schemas.js';

const switchColumns = (db: Db) => db`payment, subscription_charge as "subscriptionCharge", refund, invoice`;

/** The mode's switches; the defaults when the merchant never set them. */
export async function findReceiptSwitches(db: Db, scope: MerchantScope): Promise<ReceiptSwitches> {
  const [row] = await db<ReceiptSwitches[]>`
    select ${switchColumns(db)} from receipt_settings where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}`;
  return row ?? { ...DEFAULT_RECEIPT_SETTINGS };
}

/**
 * Writes the switches; on a row that exists only the ones in `changed` change, so two requests naming different
 * switches both keep theirs. `next` is the whole set for a first write.
 */
export async function upsertReceiptSwitches(
  db: Db,
  scope: MerchantScope,
  next: ReceiptSwitches,
  changed: Partial<ReceiptSwitches>,
): Promise<ReceiptSwitches> {
  const [row] = await db<ReceiptSwitches[]>`
    insert into receipt_settings (merchant_id, livemode, payment, subscription_charge, refund, invoice)
    values (${scope.merchantId}, ${scope.livemode}, ${next.payment}, ${next.subscriptionCharge}, ${next.refund}, ${next.invoice})
    on conflict (merchant_id, livemode) do update set
      payment = coalesce(${changed.payment ?? null}::boolean, receipt_settings.payment),
      subscription_charge = coalesce(${changed.subscriptionCharge ?? null}::boolean, receipt_settings.subscription_charge),
      refund = coalesce(${changed.refund ?? null}::boolean, receipt_settings.refund),
      invoice = coalesce(${changed.invoice ?? null}::boolean, receipt_settings.invoice),
      updated_at = now()
    returning ${switchColumns(db)}`;
  return row!;
}

export type ReceiptKey = MerchantScope & { kind: ReceiptKind; objectId: string };

export async function receiptExists(db: Db, key: ReceiptKey): Promise<boolean> {
  const rows = await db`
    select 1 from receipts
    where merchant_id = ${key.merchantId} and livemode = ${key.livemode} and kind = ${key.kind} and object_id = ${key.objectId}`;
  return rows.length > 0;
}

/** False when the object already has its receipt of this kind (a concurrent writer won). */
export async function insertReceipt(
  db: Db,
  receipt: ReceiptKey & { id: string; tokenHash: string; emailId: string; data: ReceiptData },
): Promise<boolean> {
  const rows = await db`
    insert into receipts (id, merchant_id, livemode, kind, object_id, token_hash, email_id, data)
    values (${receipt.id}, ${receipt.merchantId}, ${receipt.livemode}, ${receipt.kind}, ${receipt.objectId}, ${receipt.tokenHash},
            ${receipt.emailId}, ${db.json(receipt.data as never)})
    on conflict (merchant_id, livemode, kind, object_id) do nothing returning id`;
  return rows.length > 0;
}

export type StoredReceipt = { merchantId: string; livemode: boolean; data: ReceiptData };

export async function findReceiptByTokenHash(db: Db, tokenHash: string): Promise<StoredReceipt | undefined> {
  const [row] = await db<StoredReceipt[]>`
    select merchant_id as "merchantId", livemode, data from receipts where token_hash = ${tokenHash}`;
  return row;
}

/** The email of the merchant's customer with this id or wallet, in this mode; null when none is known. */
export async function findCustomerEmail(
  db: Db,
  scope: MerchantScope,
  customer: { id: string } | { walletAddress: string },
): Promise<string | null> {
  const [row] = await db<{ email: string }[]>`
    select email from customers
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and email is not null
      and ${'id' in customer ? db`id = ${customer.id}` : db`wallet_address = ${customer.walletAddress.toLowerCase()}`}`;
  return row?.email ?? null;
}
