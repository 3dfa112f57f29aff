// The receipt switches of a merchant's mode: read (the defaults when never set) and changed.
import type { Db } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';
import { findReceiptSwitches, upsertReceiptSwitches } from './repo.js';
import type { ReceiptSettings, ReceiptSettingsBody, ReceiptSwitches } from './schemas.js';

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
      return render(scope, await upsertReceiptSwitches(sql, scope, next, body));
    },
  };
}

export type ReceiptSettingsService = ReturnType<typeof createReceiptSettingsService>;
