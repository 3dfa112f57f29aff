// The refund claim: when nobody can be shown to be the payer (several senders paid, or the merchant
// asks for it), the refund waits (`requires_action`) until the customer names the address on a
// hosted page. The link's token is the capability: 32 random bytes, unguessable, one per refund.
import { randomBytes } from 'node:crypto';
import { formatMoney } from '../money/format.js';

/** The email kind of the claim link (outbound_emails.kind). */
export const REFUND_CLAIM_EMAIL_KIND = 'refund_claim';

export const newClaimToken = (): string => randomBytes(32).toString('base64url');

/** A claim token as it may appear in a link: base64url of 32 bytes. */
export const CLAIM_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function claimEmail(input: { merchantName: string; amount: string; currency: string; url: string }): {
  subject: string;
  text: string;
} {
  const money = formatMoney(input.amount, input.currency);
  return {
    subject: `${input.merchantName} is refunding ${money}: tell us where to send it`,
    text: [
      `${input.merchantName} is refunding ${money} to you.`,
      '',
      'Your payment came from more than one address (or the merchant asked you to choose), so the refund waits for you',
      'to name the wallet address that should receive it. Open this link to give it:',
      '',
      input.url,
      '',
      'The link is yours alone; the address can be given once. Do not give an exchange deposit address unless it accepts',
      `${input.currency} on this network.`,
    ].join('\n'),
  };
}
