import { describe, expect, it } from 'vitest';
import { isId, newId, ulid } from '../../src/ids.js';

describe('ids', () => {
  it('are prefixed, 26-character Crockford bodies', () => {
    const id = newId('plan');
    expect(id).toMatch(/^plan_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isId('plan', id)).toBe(true);
    expect(isId('event', id)).toBe(false);
    expect(isId('plan', 'plan_lowercase0000000000000000')).toBe(false);
  });

  it('sort by creation time, also within one millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => ulid());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ulid(Date.UTC(2030, 0, 1)) > ulid(Date.UTC(2029, 0, 1))).toBe(false); // monotonic: never goes back
  });

  it('encode the timestamp in the first ten characters', () => {
    const a = ulid(Date.UTC(2040, 0, 1));
    const b = ulid(Date.UTC(2041, 0, 1));
    expect(a.slice(0, 10) < b.slice(0, 10)).toBe(true);
  });
});
