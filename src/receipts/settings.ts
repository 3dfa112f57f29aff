// The receipt switches of a merchant's mode: read (defaults when never set) and changed in one upsert.
import type { Db } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';
import { DEFAULT_RECEIPT_SETTINGS, type ReceiptSettings, type ReceiptSettingsBody, type ReceiptSwitches } from './schemas.js';

const columns = (db: Db) =>
  db`payment, subscription_charge as "subscriptionCharge", refund, invoice`;

export async function findReceiptSwitches(db: Db, scope: MerchantScope): Promise<ReceiptSwitches> {
  const [row] = await db<ReceiptSwitches[]>`
    select ${columns(db)} from receipt_settings where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}`;
  return row ?? { ...DEFAULT_RECEIPT_SETTINGS };
}

function render(scope: MerchantScope, switches: ReceiptSwitches): ReceiptSettings {
  return { object: 'receipt_settings', livemode: scope.livemode, ...switches };
}

export function createReceiptSettingsService({ sql }: { sql: Db }) {
  return {
    async get(scope: MerchantScope): Promise<ReceiptSettings> {
      return render(scope, await findReceiptSwitches(sql, scope));
    },

    /** Changes the named switches; the others keep their value (the defaults on a first change). */
    async set(scope: MerchantScope, body: ReceiptSettingsBody): Promise<ReceiptSettings> {
      const current = await findReceiptSwitches(sql, scope);
      const next: ReceiptSwitches = {
        payment: body.payment ?? current.payment,
        subscriptionCharge: body.subscriptionCharge ?? current.subscriptionCharge,
        refund: body.refund ?? current.refund,
        invoice: body.invoice ?? current.invoice,
      };
      // On conflict only the named switches change: two requests naming different switches both keep theirs.
      const [row] = await sql<ReceiptSwitches[]>`
        insert into receipt_settings (merchant_id, livemode, payment, subscription_charge, refund, invoice)
        values (${scope.merchantId}, ${scope.livemode}, ${next.payment}, ${next.subscriptionCharge}, ${next.refund}, ${next.invoice})
        on conflict (merchant_id, livemode) do update set
          payment = coalesce(${body.payment ?? null}::boolean, receipt_settings.payment),
          subscription_charge = coalesce(${body.subscriptionCharge ?? null}::boolean, receipt_settings.subscription_charge),
          refund = coalesce(${body.refund ?? null}::boolean, receipt_settings.refund),
          invoice = coalesce(${body.invoice ?? null}::boolean, receipt_settings.invoice),
          updated_at = now()
        returning ${columns(sql)}`;
      return render(scope, row!);
    },
  };
}

export type ReceiptSettingsService = ReturnType<typeof createReceiptSettingsService>;
