// The suite's file order: slowest first from the committed durations, unknown files first of all,
// and the reporter's refresh of the durations list.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readTestDurations, slowestFirst, TEST_DURATIONS_PATH } from '../support/slowest-first-sequencer.js';
import { mergeDurations } from '../support/summary-reporter.js';

describe('slowestFirst', () => {
  it('puts unknown files first, then the known ones slowest first, ties in the given order', () => {
    const durations = { 'a.test.ts': 5, 'b.test.ts': 90, 'c.test.ts': 5, 'd.test.ts': 30 };
    expect(slowestFirst(['a.test.ts', 'b.test.ts', 'new.test.ts', 'c.test.ts', 'd.test.ts'], durations)).toEqual([
      'new.test.ts',
      'b.test.ts',
      'd.test.ts',
      'a.test.ts',
      'c.test.ts',
    ]);
  });

  it('keeps the given order without a durations list', () => {
    expect(slowestFirst(['b.test.ts', 'a.test.ts'], readTestDurations('no/such/file.json'))).toEqual(['b.test.ts', 'a.test.ts']);
  });
});

describe('mergeDurations', () => {
  it('replaces the measured files, keeps the others, drops files that are gone, sorts the keys', () => {
    const merged = mergeDurations(
      { 'z.test.ts': 1, 'gone.test.ts': 7, 'a.test.ts': 3 },
      [{ path: 'a.test.ts', seconds: 9.5 }],
      (path) => path !== 'gone.test.ts',
    );
    expect(merged).toEqual({ 'a.test.ts': 9.5, 'z.test.ts': 1 });
    expect(Object.keys(merged)).toEqual(['a.test.ts', 'z.test.ts']);
  });
});

describe('the committed durations list', () => {
  // A file deleted since the last refresh only leaves a harmless entry: most must still exist.
  it('reads, names mostly existing test files, each with a positive time', () => {
    const entries = Object.entries(readTestDurations(TEST_DURATIONS_PATH));
    expect(entries.length).toBeGreaterThan(100);
    expect(entries.filter(([path]) => existsSync(path)).length).toBeGreaterThan(entries.length * 0.9);
    for (const [path, seconds] of entries) expect(seconds, path).toBeGreaterThan(0);
  });
});
