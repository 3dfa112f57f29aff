// testClockWorkflow: holds one test clock's time (workflow id = clock id, issue #30).
//
//   ready --(testClockAdvance to T)--> advancing: the test chain's next block time is moved to >= T
//     (activity moveChainTime), then every attached workflow is told the time is T and the clock
//     waits until each one acknowledged reaching its next wait (or finished) --> ready (recorded)
//   any --(testClockDelete)--> attached workflows are told to end their objects; the run ends
//
// Attached workflows join by signalling testClockRegister (workflows/clock.ts); each is answered
// with the clock's time. Advances queue in order. The run continues as new every ADVANCES_PER_RUN
// advances, carrying its time and attached workflows, so history stays bounded.
// BusinessStatus (workflows/business-status.ts) is the clock's status: ready, advancing, deleted.
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import {
  testClockAckSignal,
  testClockAdvancedSignal,
  testClockAdvanceSignal,
  testClockDeletedSignal,
  testClockDeleteSignal,
  testClockDetachSignal,
  testClockRegisterSignal,
  testClockStateQuery,
} from './clock-signals.js';
import { publishBusinessStatus } from './business-status.js';
import { CHAIN_ACTIVITY, DATABASE_ACTIVITY } from './options.js';

const db = proxyActivities<Activities>(DATABASE_ACTIVITY);
const chain = proxyActivities<Activities>(CHAIN_ACTIVITY);

const ADVANCES_PER_RUN = 200;

export type TestClockWorkflowInput = {
  testClockId: string;
  nowMs: number;
  /** Carried across continue-as-new. */
  seq?: number;
  attached?: string[];
};

export async function testClockWorkflow(input: TestClockWorkflowInput): Promise<'deleted'> {
  let nowMs = input.nowMs;
  let seq = input.seq ?? 0;
  let advancing = false;
  let deleting = false;
  /** Attached workflow id -> the last advance it acknowledged. */
  const attached = new Map<string, number>((input.attached ?? []).map((id) => [id, seq]));
  const toAnswer: string[] = [];
  const advances: number[] = [];

  setHandler(testClockRegisterSignal, ({ workflowId }) => {
    if (!attached.has(workflowId)) attached.set(workflowId, -1);
    toAnswer.push(workflowId);
  });
  setHandler(testClockAckSignal, ({ workflowId, seq: acked }) => {
    if (attached.has(workflowId)) attached.set(workflowId, Math.max(attached.get(workflowId)!, acked));
  });
  setHandler(testClockDetachSignal, ({ workflowId }) => void attached.delete(workflowId));
  setHandler(testClockAdvanceSignal, ({ toMs }) => void advances.push(toMs));
  setHandler(testClockDeleteSignal, () => void (deleting = true));
  setHandler(testClockStateQuery, () => ({
    nowMs,
    seq,
    advancing,
    attached: [...attached.keys()],
    waitingFor: [...attached].filter(([, acked]) => acked < seq).map(([id]) => id),
  }));

  /** A workflow that already ended cannot be signalled: it is detached. */
  const tell = async (workflowId: string, send: (handle: ReturnType<typeof getExternalWorkflowHandle>) => Promise<void>) => {
    try {
      await send(getExternalWorkflowHandle(workflowId));
    } catch {
      attached.delete(workflowId);
    }
  };
  const answerRegistrations = async () => {
    while (toAnswer.length > 0) {
      const workflowId = toAnswer.shift()!;
      await tell(workflowId, (h) => h.signal(testClockAdvancedSignal, { nowMs, seq }));
    }
  };

  let advancedThisRun = 0;
  for (;;) {
    await condition(() => toAnswer.length > 0 || advances.length > 0 || deleting);
    await answerRegistrations();
    if (deleting) {
      const told = new Set<string>();
      const tellDeleted = async () => {
        for (const workflowId of [...attached.keys(), ...toAnswer.splice(0)]) {
          if (told.has(workflowId)) continue;
          told.add(workflowId);
          await tell(workflowId, (h) => h.signal(testClockDeletedSignal));
        }
      };
      await tellDeleted();
      await db.markTestClockDeleted({ testClockId: input.testClockId });
      // A workflow that registered meanwhile (a session created just before the delete) ends too;
      // one registering after this run ended finds it gone (workflows/clock.ts).
      await tellDeleted();
      publishBusinessStatus('deleted');
      return 'deleted';
    }
    const toMs = advances.shift();
    if (toMs === undefined || toMs <= nowMs) continue;

    advancing = true;
    publishBusinessStatus('advancing');
    // Chain first: when the attached workflows act at the new time, the contracts agree with it.
    // The clock's own chain when it has one (the activity reads it from the clock's row).
    await chain.moveTestChainTime({ toMs, testClockId: input.testClockId });
    nowMs = toMs;
    seq += 1;
    for (const workflowId of [...attached.keys()]) await tell(workflowId, (h) => h.signal(testClockAdvancedSignal, { nowMs, seq }));
    for (;;) {
      await condition(() => [...attached.values()].every((acked) => acked >= seq) || toAnswer.length > 0 || deleting);
      if (deleting) break;
      if (toAnswer.length === 0) break;
      // A workflow that joined meanwhile (e.g. a recovery child) is answered and waited for too.
      await answerRegistrations();
    }
    if (deleting) continue;
    advancing = false;
    await db.markTestClockReady({ testClockId: input.testClockId, frozenTimeMs: nowMs });
    publishBusinessStatus('ready');
    advancedThisRun += 1;

    if (advancedThisRun >= ADVANCES_PER_RUN && advances.length === 0 && toAnswer.length === 0) {
      await condition(allHandlersFinished);
      return continueAsNew<typeof testClockWorkflow>({ testClockId: input.testClockId, nowMs, seq, attached: [...attached.keys()] });
    }
  }
}
