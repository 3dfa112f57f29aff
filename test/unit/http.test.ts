import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidRequestError } from '../../src/errors.js';
import { decodeCursor, encodeCursor, listQuery, toPage } from '../../src/http/pagination.js';
import { amountString } from '../../src/http/schemas.js';
import { responseSerializerCompiler } from '../../src/http/serializer.js';

describe('cursors', () => {
  it('round-trip the last id of a page', () => {
    expect(decodeCursor(encodeCursor('plan_01ABC'))).toBe('plan_01ABC');
    expect(decodeCursor(undefined)).toBeUndefined();
  });

  it.each(['', 'not base64 !!', Buffer.from('{"x":1}').toString('base64url'), Buffer.from('[]').toString('base64url')])(
    'refuses %j as invalid_request on cursor',
    (cursor) => {
      try {
        decodeCursor(cursor);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidRequestError);
        expect((error as InvalidRequestError).param).toBe('cursor');
      }
    },
  );

  it('builds pages from limit + 1 rows', () => {
    const rows = [{ id: 'c' }, { id: 'b' }, { id: 'a' }];
    expect(toPage(rows, 2, (r) => r.id)).toEqual({ data: ['c', 'b'], nextCursor: encodeCursor('b'), hasMore: true });
    expect(toPage(rows, 3, (r) => r.id)).toEqual({ data: ['c', 'b', 'a'], nextCursor: '', hasMore: false });
  });

  it('limit defaults to 25 and stays within 1..100', () => {
    expect(listQuery.parse({}).limit).toBe(25);
    expect(listQuery.safeParse({ limit: '100' }).success).toBe(true);
    for (const limit of ['0', '101', 'abc', '1.5']) expect(listQuery.safeParse({ limit }).success).toBe(false);
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
