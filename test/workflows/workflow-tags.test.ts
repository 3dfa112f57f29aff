// Memo and search attributes on the Temporal dev server (which `npm start` and the test setup start
// with every attribute of src/temporal/workflow-tags.ts registered): a start and a signal-with-start
// carry them, and an operator finds the runs by them. The runs are started on a task queue no worker
// polls, read, then terminated.
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { signalWithStart } from '../../src/temporal/signals.js';
import { startWorkflowOnce } from '../../src/temporal/start-once.js';
import {
  CUSTOMER_WALLET_SEARCH_ATTRIBUTE,
  INVOICE_NUMBER_SEARCH_ATTRIBUTE,
  LIVEMODE_SEARCH_ATTRIBUTE,
  MERCHANT_ID_SEARCH_ATTRIBUTE,
} from '../../src/temporal/search-attributes.js';
import { registeredSearchAttributes } from '../../src/temporal/workflow-tags.js';
import { invoiceWorkflow, sendInvoiceSignal } from '../../workflows/invoice.js';

let client: Client;
const taskQueue = `tags-${randomBytes(4).toString('hex')}`;
const merchantId = `mer_tags${randomBytes(4).toString('hex')}`;
const started: string[] = [];

beforeAll(async () => {
  client = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
});
afterAll(async () => {
  for (const id of started)
    await client.workflow
      .getHandle(id)
      .terminate('test done')
      .catch(() => undefined);
  await client?.connection.close();
});

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let last = await read();
  for (let i = 0; i < 100 && !done(last); i++) {
    await new Promise((r) => setTimeout(r, 100));
    last = await read();
  }
  return last;
}

describe('workflow memo and search attributes', () => {
  it('the dev server has every attribute the code defines registered', async () => {
    const names = await registeredSearchAttributes(client);
    for (const name of ['MerchantId', 'Livemode', 'BusinessStatus', 'CustomerWallet', 'InvoiceNumber', 'WebhookEndpointId', 'ChainId']) {
      expect(names.has(name), name).toBe(true);
    }
  });

  it('a start and a signal-with-start carry the memo and the search attributes, and the runs are found by them', async () => {
    const first = `inv_tags${randomBytes(4).toString('hex')}`;
    const second = `inv_tags${randomBytes(4).toString('hex')}`;
    started.push(first, second);
    const args: Parameters<typeof invoiceWorkflow> = [{ invoiceId: first, dueAt: new Date(Date.now() + 86_400_000).toISOString() }];
    expect(
      await startWorkflowOnce(client, invoiceWorkflow, {
        workflowId: first,
        taskQueue,
        args,
        tags: { merchantId, livemode: false, invoiceNumber: 'INV-TAGS-1' },
      }),
    ).toBe(true);
    await signalWithStart(
      client,
      invoiceWorkflow,
      {
        workflowId: second,
        taskQueue,
        args,
        tags: { merchantId, livemode: true, invoiceNumber: 'INV-TAGS-2', customerWallet: '0xAbC0000000000000000000000000000000000001' },
      },
      sendInvoiceSignal,
    );

    const described = await client.workflow.getHandle(first).describe();
    expect(described.memo).toMatchObject({ merchantId, livemode: false, invoiceNumber: 'INV-TAGS-1' });
    expect(described.typedSearchAttributes.get(MERCHANT_ID_SEARCH_ATTRIBUTE)).toBe(merchantId);
    expect(described.typedSearchAttributes.get(LIVEMODE_SEARCH_ATTRIBUTE)).toBe(false);
    expect(described.typedSearchAttributes.get(INVOICE_NUMBER_SEARCH_ATTRIBUTE)).toBe('INV-TAGS-1');
    const other = await client.workflow.getHandle(second).describe();
    expect(other.typedSearchAttributes.get(CUSTOMER_WALLET_SEARCH_ATTRIBUTE)).toBe('0xabc0000000000000000000000000000000000001');

    const list = async (query: string) => {
      const ids: string[] = [];
      for await (const run of client.workflow.list({ query })) ids.push(run.workflowId);
      return ids.sort();
    };
    expect(
      await eventually(
        () => list(`MerchantId = '${merchantId}'`),
        (ids) => ids.length === 2,
      ),
    ).toEqual([first, second].sort());
    expect(
      await eventually(
        () => list(`MerchantId = '${merchantId}' AND Livemode = true`),
        (ids) => ids.length === 1,
      ),
    ).toEqual([second]);
    expect(
      await eventually(
        () => list(`InvoiceNumber = 'INV-TAGS-1'`),
        (ids) => ids.length === 1,
      ),
    ).toEqual([first]);
  });
});
