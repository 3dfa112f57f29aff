// Polling a condition in a test: read until `done` holds, or fail saying what was awaited and the last value read.

export type UntilOptions = {
  /** How long to keep reading (default a minute). */
  timeoutMs?: number;
  /** Pause between reads (default 100 ms). */
  intervalMs?: number;
};

/** Reads until `done` holds and returns that value; throws with the last value once `timeoutMs` has passed. */
export async function until<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  what: string,
  options: UntilOptions = {},
): Promise<T> {
  const { timeoutMs = 60_000, intervalMs = 100 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
