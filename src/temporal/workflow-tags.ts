// What an operator finds a workflow by: search attributes (filterable in the
// Temporal UI and `temporal workflow list --query`) and a memo (shown on the
// run). Every business workflow is started with its merchant and mode, plus the
// field people search by for its object. Registered by `npm start`
// (tools/dev/temporal.ts) and docker compose; test/tooling/docker-compose.unit.test.ts
// checks that every key defined here is registered in both with its type.
import type { Client } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair } from '@temporalio/common';

export const MERCHANT_ID_SEARCH_ATTRIBUTE = defineSearchAttributeKey('MerchantId', SearchAttributeType.KEYWORD);
export const LIVEMODE_SEARCH_ATTRIBUTE = defineSearchAttributeKey('Livemode', SearchAttributeType.BOOL);
export const BUSINESS_STATUS_SEARCH_ATTRIBUTE = defineSearchAttributeKey('BusinessStatus', SearchAttributeType.KEYWORD);
export const CUSTOMER_WALLET_SEARCH_ATTRIBUTE = defineSearchAttributeKey('CustomerWallet', SearchAttributeType.KEYWORD);
export const INVOICE_NUMBER_SEARCH_ATTRIBUTE = defineSearchAttributeKey('InvoiceNumber', SearchAttributeType.KEYWORD);
export const WEBHOOK_ENDPOINT_ID_SEARCH_ATTRIBUTE = defineSearchAttributeKey('WebhookEndpointId', SearchAttributeType.KEYWORD);

/** Plain JSON, so a start queued in the outbox (workflow_starts.tags) carries them too. */
export type WorkflowTags = {
  merchantId: string;
  livemode: boolean;
  businessStatus?: string;
  /** Lower-case hex, so a search matches whatever checksum casing the operator pastes after lower-casing it. */
  customerWallet?: string;
  invoiceNumber?: string;
  webhookEndpointId?: string;
};

export type TaggedStartOptions = { memo: Record<string, unknown>; typedSearchAttributes: SearchAttributePair[] };

export function taggedStartOptions(tags: WorkflowTags): TaggedStartOptions {
  const pairs: SearchAttributePair[] = [
    { key: MERCHANT_ID_SEARCH_ATTRIBUTE, value: tags.merchantId },
    { key: LIVEMODE_SEARCH_ATTRIBUTE, value: tags.livemode },
  ];
  if (tags.businessStatus) pairs.push({ key: BUSINESS_STATUS_SEARCH_ATTRIBUTE, value: tags.businessStatus });
  if (tags.customerWallet) pairs.push({ key: CUSTOMER_WALLET_SEARCH_ATTRIBUTE, value: tags.customerWallet.toLowerCase() });
  if (tags.invoiceNumber) pairs.push({ key: INVOICE_NUMBER_SEARCH_ATTRIBUTE, value: tags.invoiceNumber });
  if (tags.webhookEndpointId) pairs.push({ key: WEBHOOK_ENDPOINT_ID_SEARCH_ATTRIBUTE, value: tags.webhookEndpointId });
  return { memo: { ...tags }, typedSearchAttributes: pairs };
}

const registeredByClient = new WeakMap<Client, Promise<ReadonlySet<string>>>();

/**
 * The custom search attributes the client's namespace has, read once per client. A server that
 * cannot list them (the time-skipping test server) has none. Starting with an unregistered one is
 * refused, and the time-skipping server even leaves a broken run behind, so starts send only these.
 */
export function registeredSearchAttributes(client: Client): Promise<ReadonlySet<string>> {
  let names = registeredByClient.get(client);
  if (!names) {
    names = client.connection.operatorService
      .listSearchAttributes({ namespace: client.options.namespace })
      .then((answer) => new Set(Object.keys(answer.customAttributes ?? {})) as ReadonlySet<string>)
      .catch(() => new Set<string>());
    registeredByClient.set(client, names);
  }
  return names;
}

/** The memo, and the search attributes the namespace has registered (tools/dev/temporal.ts, docker compose). */
export async function startOptionsFor(client: Client, tags: WorkflowTags | undefined): Promise<Partial<TaggedStartOptions>> {
  if (!tags) return {};
  const tagged = taggedStartOptions(tags);
  const registered = await registeredSearchAttributes(client);
  const typedSearchAttributes = tagged.typedSearchAttributes.filter((pair) => registered.has(pair.key.name));
  return { memo: tagged.memo, ...(typedSearchAttributes.length > 0 ? { typedSearchAttributes } : {}) };
}
