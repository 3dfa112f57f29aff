// Polls until `probe` answers a value (not undefined), or fails saying what it waited for.
import { setTimeout as sleep } from 'node:timers/promises';

export async function waitUntil<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error; // the dependency may be down on purpose; keep polling
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
    await sleep(everyMs);
  }
}
