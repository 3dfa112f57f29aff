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
