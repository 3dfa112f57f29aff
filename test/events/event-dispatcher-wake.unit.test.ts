// The api's wake-ups of the event dispatcher are coalesced per process: a burst
// of commits costs about one signal per round trip, and every caller is answered
// by a signal sent after it asked (so the dispatcher's next look sees its events).
import { describe, expect, it } from 'vitest';
import { coalescedWake } from '../../src/events/dispatch.js';

function controlledWake() {
  const sent: Array<{ at: number; finish: (error?: Error) => void }> = [];
  let clock = 0;
  const wake = () =>
    new Promise<void>((resolve, reject) => {
      sent.push({ at: ++clock, finish: (error) => (error ? reject(error) : resolve()) });
    });
  return { sent, wake, tick: () => ++clock };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('coalesced dispatcher wake-ups', () => {
  it('sends one signal at once, and one more for every caller that asked while it was on the wire', async () => {
    const { sent, wake, tick } = controlledWake();
    const request = coalescedWake(wake);
    const first = request();
    expect(sent).toHaveLength(1);
    const askedAt = tick();
    const during = Array.from({ length: 10 }, () => request());
    await flush();
    expect(sent).toHaveLength(1); // the ten wait for the next signal
    sent[0]!.finish();
    await first;
    await flush();
    expect(sent).toHaveLength(2);
    expect(sent[1]!.at).toBeGreaterThan(askedAt); // sent after they asked
    let answered = 0;
    for (const p of during) void p.then(() => answered++);
    await flush();
    expect(answered).toBe(0); // not answered by the signal that was already on the wire
    sent[1]!.finish();
    await Promise.all(during);
    expect(answered).toBe(10);
    // Idle again: the next caller sends at once.
    const later = request();
    expect(sent).toHaveLength(3);
    sent[2]!.finish();
    await later;
  });

  it('a failed signal fails its callers only; the next signal is still sent', async () => {
    const { sent, wake } = controlledWake();
    const request = coalescedWake(wake);
    const first = request();
    const second = request();
    sent[0]!.finish(new Error('unreachable'));
    await expect(first).rejects.toThrow('unreachable');
    await flush();
    expect(sent).toHaveLength(2);
    sent[1]!.finish();
    await expect(second).resolves.toBeUndefined();
  });
});
