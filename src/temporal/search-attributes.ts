// The custom search attributes of business workflows, as typed keys. A pure module (it imports only
// @temporalio/common): starts use them (src/temporal/workflow-tags.ts) and so do workflows
// (workflows/business-status.ts). Registered by `npm start` (tools/dev/temporal.ts) and docker compose.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const MERCHANT_ID_SEARCH_ATTRIBUTE = defineSearchAttributeKey('MerchantId', SearchAttributeType.KEYWORD);
export const LIVEMODE_SEARCH_ATTRIBUTE = defineSearchAttributeKey('Livemode', SearchAttributeType.BOOL);
export const BUSINESS_STATUS_SEARCH_ATTRIBUTE = defineSearchAttributeKey('BusinessStatus', SearchAttributeType.KEYWORD);
export const CUSTOMER_WALLET_SEARCH_ATTRIBUTE = defineSearchAttributeKey('CustomerWallet', SearchAttributeType.KEYWORD);
export const INVOICE_NUMBER_SEARCH_ATTRIBUTE = defineSearchAttributeKey('InvoiceNumber', SearchAttributeType.KEYWORD);
export const WEBHOOK_ENDPOINT_ID_SEARCH_ATTRIBUTE = defineSearchAttributeKey('WebhookEndpointId', SearchAttributeType.KEYWORD);
/**
 * The EIP-155 id of the chain a chain-bound run moves money on (issue 39). 0 on a payment session that accepts
 * several chains until it is paid: the run then upserts the paying chain (0 is no chain's id, so it never matches one).
 */
export const CHAIN_ID_SEARCH_ATTRIBUTE = defineSearchAttributeKey('ChainId', SearchAttributeType.INT);
/** ChainId of a run whose chain is not known at its start (a session that accepts several chains, before it is paid). */
export const CHAIN_ID_NOT_YET_KNOWN = 0;
