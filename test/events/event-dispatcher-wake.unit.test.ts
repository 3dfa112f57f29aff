// The api's wake-ups of the event dispatcher are coalesced per process: a burst
// of commits costs at most one signal per round trip and per interval, and every caller is answered
// by a signal sent after it asked (so the dispatcher's next look sees its events).
import { afterEach, describe, expect, it, vi } from 'vitest';
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
    const request = coalescedWake(wake, 0);
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
    const request = coalescedWake(wake, 0);
    const first = request();
    const second = request();
    sent[0]!.finish(new Error('unreachable'));
    await expect(first).rejects.toThrow('unreachable');
    await flush();
    expect(sent).toHaveLength(2);
    sent[1]!.finish();
    await expect(second).resolves.toBeUndefined();
  });

  describe('with a least interval between signals', () => {
    afterEach(() => vi.useRealTimers());

    it('a burst of commits over a second costs one signal per interval, each caller answered by a signal sent after it asked', async () => {
      vi.useFakeTimers();
      const sentAt: number[] = [];
      const wake = () => {
        sentAt.push(Date.now());
        return Promise.resolve();
      };
      const request = coalescedWake(wake, 250);
      const answers: Array<{ askedAt: number; answered: Promise<void> }> = [];
      // A commit every 10 ms for a second, each signal accepted at once.
      for (let t = 0; t < 1000; t += 10) {
        answers.push({ askedAt: Date.now(), answered: request() });
        await vi.advanceTimersByTimeAsync(10);
      }
      await vi.advanceTimersByTimeAsync(300);
      await Promise.all(answers.map((a) => a.answered));
      // 100 commits, a signal at 0, 250, 500, 750 and 1000 ms.
      expect(sentAt.length).toBeLessThanOrEqual(5);
      expect(sentAt.length).toBeGreaterThanOrEqual(4);
      for (let i = 1; i < sentAt.length; i++) expect(sentAt[i]! - sentAt[i - 1]!).toBeGreaterThanOrEqual(250);
      // Every caller's answer is a signal sent at or after its commit.
      for (const { askedAt } of answers) expect(sentAt.some((at) => at >= askedAt)).toBe(true);
      expect(sentAt.at(-1)).toBeGreaterThanOrEqual(answers.at(-1)!.askedAt);
    });

    it('an idle process sends at once', async () => {
      vi.useFakeTimers();
      let sent = 0;
      const request = coalescedWake(() => {
        sent++;
        return Promise.resolve();
      }, 250);
      await request();
      await vi.advanceTimersByTimeAsync(1000);
      const started = Date.now();
      await request();
      expect(sent).toBe(2);
      expect(Date.now()).toBe(started);
    });
  });
});
