import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decodeCursor, encodeCursor, listQueryOf, toPage } from '../../src/http/pagination.js';
import { amountString } from '../../src/http/schemas.js';
import { responseSerializerCompiler } from '../../src/http/serializer.js';

describe('cursors', () => {
  const planList = listQueryOf('plan');

  it("are the id of the last object of a page, typed with the pattern of that list's ids", () => {
    expect(decodeCursor(encodeCursor('plan_01ARZ3NDEKTSV4RRFFQ69G5FAV'))).toBe('plan_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(decodeCursor(undefined)).toBeUndefined();
    expect(planList.safeParse({ cursor: 'plan_01ARZ3NDEKTSV4RRFFQ69G5FAV' }).success).toBe(true);
  });

  it.each([
    '',
    'not an id !!',
    'inv_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    'plan_01ARZ3NDEKTSV4RRFFQ69G5FA',
    'plan_01ARZ3NDEKTSV4RRFFQ69G5FAU',
    Buffer.from('{"before":"plan_01ARZ3NDEKTSV4RRFFQ69G5FAV"}').toString('base64url'),
  ])('refuses %j', (cursor) => {
    const parsed = planList.safeParse({ cursor });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path).toEqual(['cursor']);
  });

  it('builds pages from limit + 1 rows', () => {
    const rows = [{ id: 'c' }, { id: 'b' }, { id: 'a' }];
    expect(toPage(rows, 2, (r) => r.id)).toEqual({ data: ['c', 'b'], nextCursor: encodeCursor('b'), hasMore: true });
    expect(toPage(rows, 3, (r) => r.id)).toEqual({ data: ['c', 'b', 'a'], nextCursor: '', hasMore: false });
  });

  it('limit defaults to 25 and stays within 1..100', () => {
    expect(planList.parse({}).limit).toBe(25);
    expect(planList.safeParse({ limit: '100' }).success).toBe(true);
    for (const limit of ['0', '101', 'abc', '1.5']) expect(planList.safeParse({ limit }).success).toBe(false);
  });
});

describe('amounts', () => {
  it('are positive integer strings', () => {
    for (const ok of ['1', '10000000', '9'.repeat(30)]) expect(amountString.safeParse(ok).success).toBe(true);
    for (const bad of ['0', '01', '-1', '1.0', '1e6', ' 1', '', '9'.repeat(31)]) expect(amountString.safeParse(bad).success).toBe(false);
    expect(amountString.safeParse(5).success).toBe(false);
  });
});

describe('response serializer', () => {
  it('writes only the declared fields', () => {
    const serialize = responseSerializerCompiler({
      schema: z.object({ id: z.string(), nextCursor: z.string().nullable(), items: z.array(z.object({ n: z.number() })) }),
    });
    const json = serialize({ id: 'x', nextCursor: null, items: [{ n: 1, hidden: true }], secretHash: 'leak' });
    expect(JSON.parse(json)).toEqual({ id: 'x', nextCursor: null, items: [{ n: 1 }] });
  });
});
