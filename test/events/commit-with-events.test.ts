// commitWithEvents: events recorded by a change commit with it and are dispatched after the
// commit only; a change that rolls back leaves no event and wakes nobody.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitWithEvents } from '../../src/events/commit.js';
import type { EventDispatcher } from '../../src/events/dispatch.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { seedMerchant, type SeededMerchant } from '../support/app.js';

let db: TestDatabase;
let merchant: SeededMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  merchant = await seedMerchant(db.sql);
});
afterAll(async () => db?.drop());

function recordingDispatcher(): EventDispatcher & { calls: string[][]; committedAtCall: number[] } {
  const calls: string[][] = [];
  const committedAtCall: number[] = [];
  return {
    calls,
    committedAtCall,
    async dispatch(_written, ids) {
      calls.push([...ids]);
      // What a dispatcher woken now would find: the events must already be visible to another connection.
      const [row] = await db.sql<{ n: number }[]>`select count(*)::int as n from events where id in ${db.sql([...ids])}`;
      committedAtCall.push(row!.n);
    },
  };
}

describe('commitWithEvents', () => {
  it('commits the change and its events together, then dispatches them once', async () => {
    const events = recordingDispatcher();
    const scope = { merchantId: merchant.merchantId, livemode: false };
    const result = await commitWithEvents(db.sql, events, async (_tx, record) => {
      const first = await record({ ...scope, type: 'subscription_plan.created', data: { object: { id: 'plan_a' } } });
      const second = await record({ ...scope, type: 'subscription_plan.created', data: { object: { id: 'plan_b' } } });
      return [first.id, second.id];
    });
    expect(result).toHaveLength(2);
    expect(events.calls).toEqual([result]);
    expect(events.committedAtCall).toEqual([2]);
  });

  it('dispatches nothing when the change records no event', async () => {
    const events = recordingDispatcher();
    expect(await commitWithEvents(db.sql, events, async () => 'unchanged')).toBe('unchanged');
    expect(events.calls).toEqual([]);
  });

  it('leaves no event and dispatches nothing when the change throws', async () => {
    const events = recordingDispatcher();
    const scope = { merchantId: merchant.merchantId, livemode: false };
    let recordedId = '';
    await expect(
      commitWithEvents(db.sql, events, async (_tx, record) => {
        recordedId = (await record({ ...scope, type: 'subscription_plan.created', data: { object: { id: 'plan_c' } } })).id;
        throw new Error('refused after recording');
      }),
    ).rejects.toThrow('refused after recording');
    expect(recordedId).not.toBe('');
    expect(events.calls).toEqual([]);
    expect(await db.sql`select id from events where id = ${recordedId}`).toHaveLength(0);
  });
});
