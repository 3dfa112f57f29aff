// Vitest sequencer: runs the slowest test files first (longest-processing-time-first), from the
// committed per-file durations in test/support/test-durations.json, so the workers finish
// together instead of one running a 100 s file alone at the end. A file not in the list counts
// as slow (it runs first): a new file's cost is unknown, and a slow one last would be the tail.
// The summary reporter refreshes the list (UPDATE_TEST_DURATIONS=1 npm test).
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const TEST_DURATIONS_PATH = 'test/support/test-durations.json';

/** Seconds per file (path relative to the project root), as the summary reporter last wrote them. */
export type TestDurations = Record<string, number>;

export function readTestDurations(path: string): TestDurations {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as TestDurations;
  } catch {
    return {}; // no list yet: every file is unknown, the order is vitest's own
  }
}

/** File paths slowest first; unknown files before every known one; ties keep their given order. */
export function slowestFirst(paths: readonly string[], durations: TestDurations): string[] {
  const cost = (path: string) => durations[path] ?? Number.POSITIVE_INFINITY;
  return paths
    .map((path, index) => ({ path, index }))
    .sort((a, b) => {
      const ca = cost(a.path);
      const cb = cost(b.path);
      return ca === cb ? a.index - b.index : cb - ca;
    })
    .map(({ path }) => path);
}

export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const durations = readTestDurations(`${root}/${TEST_DURATIONS_PATH}`);
    const byPath = new Map(files.map((file) => [relative(root, file.moduleId), file]));
    return slowestFirst([...byPath.keys()], durations).map((path) => byPath.get(path)!);
  }
}
