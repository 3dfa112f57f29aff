// The time of a workflow that may run on a test clock (issue #30, docs/operations.md "Test clocks").
//
// Off a clock, `now()`, `waitFor()` and `sleep()` are Date.now(), condition(fn, ms) and sleep(ms):
// the same commands as before, so histories recorded before clocks replay unchanged.
//
// On a clock (known at start from the input, or later from testClockAttachedSignal), the workflow
// registers with the clock's workflow, which answers with its time. A wait then sets no timer: it
// ends when the clock's time reaches the deadline (testClockAdvancedSignal). Each time the workflow
// enters a wait after an advance it acknowledges it, and when it ends it detaches: the clock is
// `ready` only once every attached workflow has caught up.
import { condition, getExternalWorkflowHandle, patched, setHandler, sleep as timerSleep, workflowInfo } from '@temporalio/workflow';
import {
  testClockAckSignal,
  testClockAdvancedSignal,
  testClockAttachedSignal,
  testClockDeletedSignal,
  testClockDetachSignal,
  testClockRegisterSignal,
  testClockWorkflowId,
} from './clock-signals.js';

/** Patch: a wait begun off a clock keeps its deadline (business time) when the workflow joins one. */
const ATTACH_KEEPS_DEADLINE = 'test-clock-attach-keeps-deadline';

export type WorkflowClock = {
  /** The clock this run waits on, if any. */
  readonly testClockId: () => string | undefined;
  /** On a clock: registers and waits for the clock's time, so now() is the clock's from here on. Off a clock: nothing. */
  join: () => Promise<void>;
  /** Business time: the clock's time on a clock, else the workflow's Date.now(). */
  now: () => number;
  /** condition(predicate, ms) on the workflow's time: true when the predicate held, false at the deadline. */
  waitFor: (predicate: () => boolean, ms?: number) => Promise<boolean>;
  /** sleep(ms) on the workflow's time. */
  sleep: (ms: number) => Promise<void>;
  /** True once the clock was deleted (the workflow ends its object). */
  deleted: () => boolean;
  /** Tells the clock this run is finished (no-op off a clock). Call before returning a final result. */
  detach: () => Promise<void>;
};

export function workflowClock(initialTestClockId: string | undefined, options: { onDeleted?: () => void } = {}): WorkflowClock {
  let testClockId = initialTestClockId;
  let nowMs: number | null = null;
  let seq = -1;
  let acked = -1;
  let registered = false;
  let deleted = false;
  const workflowId = workflowInfo().workflowId;
  const markDeleted = () => {
    if (deleted) return;
    deleted = true;
    options.onDeleted?.();
  };

  setHandler(testClockAdvancedSignal, (advance) => {
    if (advance.seq < seq) return;
    seq = advance.seq;
    nowMs = Math.max(nowMs ?? advance.nowMs, advance.nowMs);
  });
  setHandler(testClockDeletedSignal, () => markDeleted());
  setHandler(testClockAttachedSignal, ({ testClockId: id }) => void (testClockId ??= id));

  const clockHandle = () => getExternalWorkflowHandle(testClockWorkflowId(testClockId!));
  /**
   * A signal to the clock's workflow fails only when that workflow has ended, which it does only when
   * the clock is deleted (e.g. a session created just before the delete registers after it).
   */
  const tellClock = async (send: (handle: ReturnType<typeof clockHandle>) => Promise<void>) => {
    try {
      await send(clockHandle());
    } catch {
      markDeleted();
    }
  };

  /** Registers once and waits for the clock's first answer: its time. */
  const joinClock = async () => {
    if (!registered) {
      registered = true;
      await tellClock((h) => h.signal(testClockRegisterSignal, { workflowId }));
    }
    await condition(() => nowMs !== null || deleted);
  };

  const waitOnClock = async (predicate: () => boolean, deadline: number): Promise<boolean> => {
    await joinClock();
    for (;;) {
      if (predicate()) return true;
      if (deleted || nowMs! >= deadline) return false;
      if (seq > acked) {
        acked = seq;
        await tellClock((h) => h.signal(testClockAckSignal, { workflowId, seq }));
        continue;
      }
      await condition(() => predicate() || seq > acked || deleted);
    }
  };

  const clock: WorkflowClock = {
    testClockId: () => testClockId,
    join: async () => {
      if (testClockId !== undefined) await joinClock();
    },
    now: () => (testClockId !== undefined && nowMs !== null ? nowMs : Date.now()),
    deleted: () => deleted,
    waitFor: async (predicate, ms) => {
      if (testClockId === undefined) {
        // Off a clock: exactly the old wait, also ended by a later attach (then the rest runs on the clock).
        const started = Date.now();
        const attachedOrDone = () => predicate() || testClockId !== undefined;
        const done = ms === undefined ? (await condition(attachedOrDone), true) : await condition(attachedOrDone, ms);
        if (testClockId === undefined || predicate()) return done && predicate();
        await joinClock();
        if (ms === undefined) return waitOnClock(predicate, Infinity);
        // The wait was for a moment of business time (a period's start, an expiry), which off a clock
        // is wall time: it keeps that moment on the clock. Counting what was left from the clock's
        // time instead moved it by the clock's lead over wall time, so an advance to the period's
        // start (the dashboard's "to the next renewal") charged nothing (issue 39).
        if (patched(ATTACH_KEEPS_DEADLINE)) return waitOnClock(predicate, started + ms);
        return waitOnClock(predicate, clock.now() + ms - (Date.now() - started));
      }
      await joinClock();
      return waitOnClock(predicate, ms === undefined ? Infinity : clock.now() + ms);
    },
    sleep: async (ms) => {
      if (testClockId === undefined) {
        // Exactly the old timer when no clock can join meanwhile (older runs).
        return timerSleep(ms);
      }
      await clock.waitFor(() => false, ms);
    },
    detach: async () => {
      // A deleted clock's workflow has ended: it waits for nobody and takes no signal.
      if (testClockId === undefined || !registered || deleted) return;
      await tellClock((h) => h.signal(testClockDetachSignal, { workflowId }));
    },
  };
  return clock;
}
