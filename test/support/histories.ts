// Recording workflow histories for the replay test (test/workflows/replay.test.ts).
// A recording is made only with RECORD_HISTORIES=1. The file name carries the
// workflow's shape, so recording after a compatible change (a new patch) adds
// files beside the older shapes, which stay: every shape still running is replayed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT_PATH = fileURLToPath(new URL('../../', import.meta.url));

export const HISTORIES_DIR = fileURLToPath(new URL('../fixtures/histories/', import.meta.url));

export async function recordHistory(handle: { fetchHistory: () => Promise<unknown> }, name: string, shape: string): Promise<void> {
  if (!process.env.RECORD_HISTORIES) return;
  mkdirSync(HISTORIES_DIR, { recursive: true });
  // Failure stack traces carry the checkout's absolute path: keep fixtures free of machine paths.
  const json = JSON.stringify(await handle.fetchHistory(), null, 1)
    .split(PROJECT_ROOT_PATH)
    .join('');
  writeFileSync(`${HISTORIES_DIR}${name}.${shape}.json`, json);
}
