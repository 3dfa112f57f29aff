// Request and response shapes of payment sessions (the spec shows only the id;
// these descriptions are the documentation in /openapi.json).
import { z } from 'zod';
import { amountString, chainIdField, chainIdQuery, idParam, pathId, timestamp } from '../http/schemas.js';
import { metadataQuery } from '../http/metadata.js';
import { listOf, listQueryOf } from '../http/pagination.js';
import { createdRangeQuery, searchQuery } from '../http/list-filters.js';

export const PAYMENT_SESSION_STATUSES = ['open', 'processing', 'completed', 'expired', 'cancelled'] as const;
export type PaymentSessionStatus = (typeof PAYMENT_SESSION_STATUSES)[number];

/** Expiry bounds: at least 5 minutes, at most 7 days; 30 minutes by default. */
export const EXPIRY_SECONDS = { min: 300, max: 7 * 24 * 3600, default: 1800 } as const;

const redirectUrl = z.url({ protocol: /^https?$/ }).max(2048);

/** Metadata: at most 20 string keys (<= 40 chars) with string values (<= 500 chars). */
/** A test clock of the caller (test mode only): the object's times follow the clock (docs/operations.md, Test clocks). */
export const testClockRef = z
  .string()
  .regex(/^clock_[0-9A-Za-z]{1,64}$/, 'must be a test clock id (clock_...)')
  .describe(
    "Test mode only: the test clock (`clock_...`) whose time this object follows. Its expiry or due date is counted from the clock's time and passes when the clock is advanced past it; deleting the clock ends it.",
  );

export const metadata = z
  .record(z.string().min(1).max(40), z.string().max(500))
  .refine((value) => Object.keys(value).length <= 20, { message: 'at most 20 keys' })
  .describe(
    'Free-form key/value pairs stored with the object: at most 20 keys of up to 40 characters, string values up to 500 characters.',
  );

export const createPaymentSessionBody = z
  .object({
    amount: amountString.describe('Amount to pay, in USDC base units (6 decimals): "2500000" is 2.50 USDC.'),
    currency: z.enum(['USDC']).default('USDC'),
    expiresInSeconds: z
      .number()
      .int()
      .min(EXPIRY_SECONDS.min)
      .max(EXPIRY_SECONDS.max)
      .default(EXPIRY_SECONDS.default)
      .describe('Seconds until the session expires if unpaid: 300 to 604800, default 1800 (30 minutes).'),
    successUrl: redirectUrl
      .optional()
      .describe(
        'Where the hosted checkout sends the customer after the payment is confirmed. `{PAYMENT_SESSION_ID}` anywhere in it is replaced by the session id, so the page can look the payment up.',
      ),
    cancelUrl: redirectUrl.optional().describe('Where the hosted checkout sends the customer who cancels.'),
    metadata: metadata.default({}),
    testClock: testClockRef.optional(),
    acceptedChainIds: z
      .array(chainIdField)
      .min(1)
      .max(32)
      .optional()
      .describe(
        "The chains (EIP-155 ids) the customer may pay on, in the order the hosted page offers them; each must be one of the mode's configured chains (and of the account's accepted chains when it restricts them). Default: the account's accepted chains, else every chain of the mode. The first is the session's `chainId`.",
      ),
  })
  .strict();

/** Paying by plain transfer to the session's own address (docs/decisions.md, Deposit addresses). */
export const sessionDeposit = z
  .object({
    address: z
      .string()
      .describe(
        "The session's deposit address on its chain `chainId`: send exactly `amount` of `token` there to it from any wallet or exchange. A forwarder contract is deployed there only once funds arrive, and they are swept to the payout address the address was made for (`payTo`). Another accepted chain with a payout address of its own has its own address (`networks`).",
      ),
    amountReceived: z
      .string()
      .describe(
        'What credited transfers to the address add up to, in token base units (transfers seen after the session ended are late deposits, not counted here).',
      ),
    amountRemaining: z
      .string()
      .describe(
        'What is still to be paid for the session to complete: the amount less the credited transfers and a confirmed relayed payment ("0" once completed). A wallet payment through the relay must pay exactly this.',
      ),
    amountExcess: z
      .string()
      .describe(
        'What was paid beyond the amount, by transfers or by transfers and a relayed payment together: recorded and refundable through POST /v1/refunds.',
      ),
    paymentUri: z
      .string()
      .describe(
        "EIP-681 URI of the exact transfer (`ethereum:<token>@<chainId>/transfer?address=<deposit>&uint256=<amount remaining>`), for QR codes, on the session's `chainId`; `networks` has one per accepted chain.",
      ),
    networks: z
      .array(
        z.object({
          chainId: z.number().int(),
          network: z.string().describe('The chain\'s name for people ("Base", "Arbitrum One").'),
          token: z.string().describe('The token to send on this chain (USDC has its own address on each).'),
          address: z
            .string()
            .describe(
              "The deposit address on this chain: `address` when the chain pays the same payout address, else the session's address for this chain's payout (the forwarder's salt binds the payout).",
            ),
          payTo: z.string().describe("The merchant's payout address on this chain, where transfers to `address` are swept."),
          paymentUri: z.string().describe('EIP-681 URI of the exact transfer on this chain (`...@<chainId>/transfer?...`).'),
        }),
      )
      .describe(
        "Every accepted chain with its deposit address: the same address on every chain that pays the same payout address (one CREATE2 factory address per chain). A transfer on any of them counts toward the session; one on a configured chain the session does not accept is recorded as a late deposit and refundable. A transfer to any of the session's addresses is swept to the payout address that address was made for.",
      ),
  })
  .meta({ id: 'PaymentSessionDeposit' });

/** Why the latest relayed payment of a session failed, while the session is open again (like Stripe's `last_payment_error`). */
const lastPaymentError = z
  .object({
    code: z
      .string()
      .describe(
        'A refusal code (docs/events.md "Refusal codes", e.g. `token_paused`, `payer_blacklisted`), else the contract error name, `Reverted` or `NonceConsumed`.',
      ),
    reason: z.string().describe('The readable reason.'),
  })
  .nullable();

export const paymentSession = z
  .object({
    id: z.string(),
    object: z.literal('payment_session'),
    amount: z.string().describe('Amount to pay, integer string in token base units.'),
    currency: z.string(),
    status: z
      .enum(PAYMENT_SESSION_STATUSES)
      .describe(
        '`open`: awaiting payment. `processing`: a relayed payment for it was accepted and is on its way to the chain. `completed`: the payment is confirmed on-chain (terminal). `expired`: expiresAt passed without a payment (terminal). `cancelled`: cancelled, e.g. by voiding its invoice (terminal). A failed relayed payment puts a processing session back to open (or expired when past expiresAt).',
      ),
    payTo: z
      .string()
      .describe(
        "The address to pay on the session's chain `chainId`: the merchant's payout address there when the session was created. Another accepted chain may have its own (`deposit.networks[].payTo`).",
      ),
    token: z.string().describe('The token contract (USDC of this mode) on `chainId`.'),
    chainId: z.number().int().describe('The first of `acceptedChainIds`: where `token` and `deposit.paymentUri` point.'),
    acceptedChainIds: z
      .array(z.number().int())
      .describe('The chains the session may be paid on (EIP-155 ids), in the order the hosted page offers them.'),
    transactionChainId: z
      .number()
      .int()
      .nullable()
      .describe('The chain of `transactionHash` (the relayed payment or the completing deposit); null until completed.'),
    expiresAt: timestamp,
    successUrl: z.string().nullable(),
    cancelUrl: z.string().nullable(),
    metadata: z.object({}).catchall(z.string()).describe('The metadata given at creation.'),
    checkoutUrl: z.string().describe('The hosted checkout page of this session.'),
    invoiceId: z.string().nullable().describe('The invoice this session backs, if any.'),
    productId: z
      .string()
      .nullable()
      .describe(
        'The storefront product this session was bought for (the buy button of the public store page), if any; it stays set when the product is archived later.',
      ),
    productName: z.string().nullable().describe("The product's name when it was bought (as the customer saw it on the store page)."),
    payer: z
      .string()
      .nullable()
      .describe(
        'The paying wallet: the signer of the relayed payment once one was submitted, else the `from` of the transfers credited to the deposit address (null while none arrived, or when several wallets sent them).',
      ),
    customerId: z
      .string()
      .nullable()
      .describe(
        'The customer of the paying wallet (`payer`), set when the session completes: found or created by wallet, never by email. Null before, and when several wallets paid it (docs/decisions.md, One-off payers as customers).',
      ),
    customerEmail: z.string().nullable().describe('The email the payer gave on the hosted page (optional, unverified), if any.'),
    transactionHash: z.string().nullable().describe('The transaction that paid the session, once completed.'),
    completedAt: timestamp.nullable(),
    x402: z
      .object({
        scheme: z.string().describe('The x402 scheme (`exact`).'),
        network: z.string().describe('CAIP-2 network, e.g. `eip155:8453`.'),
        payer: z.string().describe("The buyer's wallet."),
        transaction: z.string().nullable().describe('The settlement transaction, once sent.'),
        resource: z
          .object({ url: z.string().nullable(), description: z.string().nullable(), mimeType: z.string().nullable() })
          .describe('The paid resource as the x402 payment named it.'),
      })
      .nullable()
      .describe(
        'Set when the session is an x402 payment (created by `POST /v1/x402/settle` of a seller using this facilitator); null otherwise.',
      ),
    deposit: sessionDeposit
      .nullable()
      .describe('Paying by transfer to a deposit address; null for sessions created before deposit addresses existed.'),
    amountRefundable: z
      .string()
      .describe(
        'What can still be refunded, in token base units: everything received for the session, each receipt once (a confirmed relayed payment, the credited transfers with any overpayment, whether or not the session then completed, expired or was cancelled, and late deposits; a completed session counts at least its amount) minus its pending, processing and succeeded refunds. The most POST /v1/refunds accepts for this session; "0" when nothing was received or all is refunded (docs/refunds.md, What is refundable).',
      ),
    amountRefunded: z
      .string()
      .describe(
        'What its refunds take, in token base units: the sum of its refunds that are awaiting action, pending, processing or succeeded (failed and cancelled ones take nothing). Above "0" with `amountRefundable` "0": refunded in full; above "0" with something still refundable: partly refunded.',
      ),
    testClock: z.string().nullable().describe('The test clock whose time `expiresAt` follows (test mode); null: wall time.'),
    lastPaymentError: lastPaymentError.describe(
      "Why the latest payment relayed for this session failed (its refusal code and reason), while the session is open again after it, like Stripe's `last_payment_error`. Null when the latest payment did not fail, none was relayed, or the session is no longer open. Every try, failed or not, is in `GET /v1/payment-sessions/{id}/transactions`.",
    ),
    livemode: z.boolean(),
    createdAt: timestamp,
  })
  .meta({ id: 'PaymentSession' });

/** One chain the hosted checkout offers: what the page names, signs for and asks a wallet to switch to. */
export const checkoutChain = z
  .object({
    chainId: z.number().int(),
    network: z.string().describe('The chain\'s name for people ("Base", "Anvil (local chain 31337)").'),
    token: z.string().describe("The session's token (USDC) on this chain."),
    payTo: z
      .string()
      .optional()
      .describe(
        "A payment session's payout address on this chain: a wallet payment on this chain authorizes a transfer to it. Absent on a plan's enrolment offer, whose `terms.merchant` names the chain's payout.",
      ),
    addChain: z
      .object({
        chainId: z.string().describe('0x-prefixed hex.'),
        chainName: z.string(),
        nativeCurrency: z.object({ name: z.string(), symbol: z.string(), decimals: z.number().int() }),
        rpcUrls: z.array(z.string()),
        blockExplorerUrls: z.array(z.string()),
      })
      .nullable()
      .describe(
        "EIP-3085 `wallet_addEthereumChain` parameters from the chain's preset (its public RPC and explorer), for a wallet that does not know the chain; null for a chain without a preset (a local chain).",
      ),
  })
  .meta({ id: 'CheckoutChain' });

/** What the public hosted checkout page may see of a session. */
export const checkoutSession = z
  .object({
    id: z.string(),
    object: z.literal('checkout_session'),
    amount: z.string(),
    currency: z.string(),
    token: z.string(),
    chainId: z.number().int(),
    acceptedChainIds: z.array(z.number().int()).describe('The chains the customer may choose among, first the default.'),
    chains: z
      .array(checkoutChain)
      .describe('The accepted chains as the page offers them (the order of `acceptedChainIds`): name, token and how a wallet adds it.'),
    payTo: z.string(),
    status: z.enum(PAYMENT_SESSION_STATUSES),
    expiresAt: timestamp,
    merchantName: z.string().describe("The merchant's business name (or account name) to show the customer."),
    successUrl: z.string().nullable(),
    cancelUrl: z.string().nullable(),
    livemode: z.boolean(),
    network: z.string().describe('The name of the chain to pay on, for people ("Base", "Anvil (local chain 31337)").'),
    deposit: sessionDeposit.nullable(),
    storeName: z.string().nullable().describe("The merchant's storefront name in this mode, if it has a storefront."),
    logoUrl: z.string().nullable().describe("The storefront's logo URL (https), if any."),
    supportEmail: z
      .string()
      .nullable()
      .describe("Where the customer can ask the merchant for help (the storefront's support email), if any."),
    productName: z.string().nullable().describe('The storefront product being bought, if any.'),
    invoice: z
      .object({
        number: z.string(),
        lineItems: z.array(z.object({ description: z.string(), quantity: z.number().int(), unitAmount: z.string() })),
      })
      .nullable()
      .describe('The invoice this session pays: its number and line items.'),
    lastPaymentError: lastPaymentError.describe(
      'Why the latest payment posted for this session failed, while the session is open again after it: a page opened or reloaded while that payment was processing can still tell the payer why. Null when the latest payment did not fail, or the session is no longer open.',
    ),
  })
  .meta({ id: 'CheckoutSession' });

export const PAYMENT_TRANSACTION_KINDS = ['payment', 'deposit', 'sweep', 'refund'] as const;
export const PAYMENT_TRANSACTION_STATUSES = ['pending', 'submitted', 'confirmed', 'failed', 'removed', 'cancelled'] as const;

/** One on-chain transaction of a payment session (GET /v1/payment-sessions/{id}/transactions). */
export const paymentSessionTransaction = z
  .object({
    object: z.literal('payment_session_transaction'),
    kind: z
      .enum(PAYMENT_TRANSACTION_KINDS)
      .describe(
        "`payment`: a relayed payment (the payer's signed transfer the relay sent, x402 settlements included). `deposit`: a transfer into the session's deposit address. `sweep`: the transfer forwarding a deposit to the payout address. `refund`: a refund of the session.",
      ),
    chainId: z.number().int().describe('The chain the transaction is on (EIP-155 id).'),
    sourceId: z
      .string()
      .describe(
        'The object the transaction belongs to: the relay submission (`rls_...`), the deposit (`dep_...`, also for its sweep) or the refund (`re_...`).',
      ),
    status: z
      .enum(PAYMENT_TRANSACTION_STATUSES)
      .describe(
        '`pending`: not sent yet. `submitted`: sent (or seen), waiting for inclusion or confirmations. `confirmed`: included with the required confirmations (final). `failed`: reverted, dropped or refused (see failureCode). `removed`: a reorg took the transfer off the chain. `cancelled`: a refund cancelled before it was sent.',
      ),
    transactionHash: z.string().nullable().describe('The transaction, once sent (null for one refused before sending).'),
    blockNumber: z.string().nullable().describe('The block holding it (decimal string), once known.'),
    confirmations: z
      .number()
      .int()
      .nullable()
      .describe(
        "Blocks on top of and including the one holding it, at least: from the relay's tracking and the indexer's last checkpoint, so it can trail the chain head by the indexer's poll interval. Null when the block is not known.",
      ),
    requiredConfirmations: z.number().int().describe("The confirmations this mode's chain needs before a transfer counts (finality)."),
    from: z.string().nullable(),
    to: z.string().nullable(),
    amount: z.string().nullable().describe('What it moves, in token base units.'),
    late: z
      .boolean()
      .describe(
        'A deposit that arrived after the session had ended, or on a configured chain the session does not accept (not credited to it; refundable). False for other kinds.',
      ),
    failureCode: z.string().nullable().describe('The named refusal (e.g. `insufficient_funds`, `authorization_used`) when it failed.'),
    failureReason: z.string().nullable(),
    createdAt: timestamp.describe('When the service recorded it (the submission, the observed transfer, the refund request).'),
    confirmedAt: timestamp.nullable().describe('When it reached the status confirmed, if it did.'),
  })
  .meta({ id: 'PaymentSessionTransaction' });

export const paymentSessionTransactionList = z
  .object({
    data: z.array(paymentSessionTransaction).describe('Every transaction of the session, oldest first (one page: a session has few).'),
  })
  .meta({ id: 'PaymentSessionTransactionList' });

export const paymentSessionParams = z.object({ id: pathId('paymentSession') });
export const paymentSessionList = listOf(paymentSession);
export const paymentSessionListQuery = listQueryOf('paymentSession').extend({
  status: z.enum(PAYMENT_SESSION_STATUSES).optional().describe('Only sessions in this status.'),
  chainId: chainIdQuery.describe('Only sessions that accept this chain (EIP-155 id).'),
  customerId: idParam('customer').optional().describe("Only this customer's payments (`cus_...`)."),
  metadata: metadataQuery,
  ...createdRangeQuery,
  q: searchQuery(
    'the session id, the payer wallet address (any letter case), the transaction hash (exact), or the start of the email of the ' +
      "payer's customer (case-insensitive prefix)",
  ),
});
export type PaymentSessionListQuery = z.infer<typeof paymentSessionListQuery>;

export type CreatePaymentSessionBody = z.infer<typeof createPaymentSessionBody>;
export type PaymentSession = z.infer<typeof paymentSession>;
export type CheckoutSession = z.infer<typeof checkoutSession>;
export type CheckoutChain = z.infer<typeof checkoutChain>;
export type SessionDeposit = z.infer<typeof sessionDeposit>;
export type PaymentSessionTransaction = z.infer<typeof paymentSessionTransaction>;
