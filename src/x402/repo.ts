// SQL for x402 settlements (x402_payments). The payment is a payment session
// paid by a relay submission; this row keys it by the authorization and keeps
// the x402 fields.
import type { Db } from '../db/client.js';

/** How the chain knows an EIP-3009 authorization: at most one settlement each, ever. */
export type AuthorizationKey = { chainId: number; token: string; payer: string; nonce: string };

export type X402PaymentRow = {
  chainId: string;
  token: string;
  payer: string;
  nonce: string;
  merchantId: string;
  livemode: boolean;
  paymentSessionId: string;
  relaySubmissionId: string;
  scheme: string;
  network: string;
  resourceUrl: string | null;
  resourceDescription: string | null;
  resourceMimeType: string | null;
  createdAt: Date;
};

const normalised = (key: AuthorizationKey) => ({
  chainId: key.chainId,
  token: key.token.toLowerCase(),
  payer: key.payer.toLowerCase(),
  nonce: key.nonce.toLowerCase(),
});

const columns = (db: Db) =>
  db`chain_id::text as "chainId", token, payer, nonce, merchant_id as "merchantId", livemode,
     payment_session_id as "paymentSessionId", relay_submission_id as "relaySubmissionId", scheme, network,
     resource_url as "resourceUrl", resource_description as "resourceDescription",
     resource_mime_type as "resourceMimeType", created_at as "createdAt"`;

export async function findX402Payment(db: Db, key: AuthorizationKey): Promise<X402PaymentRow | undefined> {
  const k = normalised(key);
  const [row] = await db<X402PaymentRow[]>`
    select ${columns(db)} from x402_payments
    where chain_id = ${k.chainId} and token = ${k.token} and payer = ${k.payer} and nonce = ${k.nonce}`;
  return row;
}

export async function insertX402Payment(
  db: Db,
  payment: AuthorizationKey &
    Pick<
      X402PaymentRow,
      | 'merchantId'
      | 'livemode'
      | 'paymentSessionId'
      | 'relaySubmissionId'
      | 'scheme'
      | 'network'
      | 'resourceUrl'
      | 'resourceDescription'
      | 'resourceMimeType'
    >,
): Promise<void> {
  const k = normalised(payment);
  await db`
    insert into x402_payments (chain_id, token, payer, nonce, merchant_id, livemode, payment_session_id, relay_submission_id,
                               scheme, network, resource_url, resource_description, resource_mime_type)
    values (${k.chainId}, ${k.token}, ${k.payer}, ${k.nonce}, ${payment.merchantId}, ${payment.livemode}, ${payment.paymentSessionId},
            ${payment.relaySubmissionId}, ${payment.scheme}, ${payment.network}, ${payment.resourceUrl},
            ${payment.resourceDescription}, ${payment.resourceMimeType})`;
}
