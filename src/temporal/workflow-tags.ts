// What an operator finds a workflow by: search attributes (filterable in the
// Temporal UI and `temporal workflow list --query`) and a memo (shown on the
// run). Every business workflow is started with its merchant and mode, plus the
// field people search by for its object, its business status and (memo) its
// object's name and id. The keys (src/temporal/search-attributes.ts) are registered
// by `npm start` (tools/dev/temporal.ts) and docker compose;
// test/tooling/docker-compose.unit.test.ts checks both against the code.
import type { Client } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import {
  BUSINESS_STATUS_SEARCH_ATTRIBUTE,
  CHAIN_ID_SEARCH_ATTRIBUTE,
  CUSTOMER_WALLET_SEARCH_ATTRIBUTE,
  INVOICE_NUMBER_SEARCH_ATTRIBUTE,
  LIVEMODE_SEARCH_ATTRIBUTE,
  MERCHANT_ID_SEARCH_ATTRIBUTE,
  WEBHOOK_ENDPOINT_ID_SEARCH_ATTRIBUTE,
} from './search-attributes.js';

/** Plain JSON, so a start queued in the outbox (workflow_starts.tags) carries them too. */
export type WorkflowTags = {
  merchantId: string;
  livemode: boolean;
  /** The API object the run is for, as the API names it (`payment_session`, `invoice`, ...): memo `object`. */
  object?: string;
  /** That object's id: memo `id`. */
  objectId?: string;
  /**
   * The object's status at start, in the API's vocabulary (memo `status`, search attribute BusinessStatus).
   * The run upserts both on each change (workflows/business-status.ts).
   */
  businessStatus?: string;
  /** Lower-case hex, so a search matches whatever checksum casing the operator pastes after lower-casing it. */
  customerWallet?: string;
  invoiceNumber?: string;
  webhookEndpointId?: string;
  /**
   * The chain the run moves money on (search attribute ChainId only: the memo is unchanged). CHAIN_ID_NOT_YET_KNOWN where the
   * run learns it later and upserts it (a payment session that accepts several chains, once paid).
   */
  chainId?: number;
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
  if (tags.chainId !== undefined) pairs.push({ key: CHAIN_ID_SEARCH_ATTRIBUTE, value: tags.chainId });
  const { object, objectId, businessStatus, chainId: _chainId, ...rest } = tags;
  const memo: Record<string, unknown> = { ...rest };
  if (object) memo.object = object;
  if (objectId) memo.id = objectId;
  if (businessStatus) memo.status = businessStatus;
  return { memo, typedSearchAttributes: pairs };
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
