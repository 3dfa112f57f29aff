// The merchant's receipt switches, one set per mode (issue 40, item 5).
import { z } from 'zod';

export const RECEIPT_KINDS = ['payment', 'subscription_charge', 'refund', 'invoice'] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];

/** The switches of a mode that never set them: Stripe's (successful payments and refunds), docs/decisions.md "Receipts". */
export const DEFAULT_RECEIPT_SETTINGS = { payment: true, subscriptionCharge: false, refund: true, invoice: false } as const;

const switches = {
  payment: z.boolean().describe('Email a receipt when a payment session is paid (not one backing an invoice: `invoice` covers it).'),
  subscriptionCharge: z
    .boolean()
    .describe('Email a receipt for each succeeded subscription charge, with the discount line where there is one.'),
  refund: z.boolean().describe('Email a receipt when a refund succeeded on chain.'),
  invoice: z.boolean().describe('Email a receipt when an invoice is paid.'),
};

export const receiptSettings = z
  .object({
    object: z.literal('receipt_settings'),
    livemode: z.boolean().describe('The mode these switches are of: each mode has its own.'),
    ...switches,
  })
  .describe(
    "Which receipts are emailed to the customer, when the customer's email is known. Defaults: payment and refund on, subscription charge and invoice off.",
  )
  .meta({ id: 'ReceiptSettings' });

export const receiptSettingsBody = z
  .object({
    payment: switches.payment.optional(),
    subscriptionCharge: switches.subscriptionCharge.optional(),
    refund: switches.refund.optional(),
    invoice: switches.invoice.optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: 'name at least one of payment, subscriptionCharge, refund, invoice' })
  .describe('The switches to change; the others keep their value.');

export type ReceiptSettings = z.infer<typeof receiptSettings>;
export type ReceiptSettingsBody = z.infer<typeof receiptSettingsBody>;
export type ReceiptSwitches = Omit<ReceiptSettings, 'object' | 'livemode'>;

/** The switch of a kind. */
export function switchOf(settings: ReceiptSwitches, kind: ReceiptKind): boolean {
  return kind === 'subscription_charge' ? settings.subscriptionCharge : settings[kind];
}
