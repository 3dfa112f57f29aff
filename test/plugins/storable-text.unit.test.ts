// Which request text Postgres could not store, and the path reported for it.
import { describe, expect, it } from 'vitest';
import { findUnstorableText } from '../../src/plugins/storable-text.js';

describe('findUnstorableText', () => {
  it('accepts ordinary text, emoji (surrogate pairs) and non-string values', () => {
    expect(findUnstorableText({ name: 'Gold 🥇', n: 1, ok: true, none: null, list: ['a', 'ß'] })).toBeUndefined();
    expect(findUnstorableText(Buffer.from([0, 1, 2]))).toBeUndefined();
  });

  it('names the first NUL or unpaired surrogate by its dot path, keys included', () => {
    expect(findUnstorableText({ lineItems: [{ description: 'ok' }, { description: 'a\u0000b' }] })).toBe('lineItems.1.description');
    expect(findUnstorableText({ metadata: { 'k\u0000': 'v' } })).toBe('metadata.k\u0000');
    expect(findUnstorableText({ a: '\ud800' })).toBe('a');
    expect(findUnstorableText({ a: 'x\udc00' })).toBe('a');
    expect(findUnstorableText({ a: '\udc00\ud800' })).toBe('a'); // reversed pair: both halves unpaired
    expect(findUnstorableText('\u0000')).toBe('');
  });
});
