// The signals between a test clock's workflow (workflows/test-clock.ts) and the workflows on its
// time (workflows/clock.ts). Kept apart so either side imports them without the other's code.
import { defineQuery, defineSignal } from '@temporalio/workflow';

/** The one workflow of a clock: its id is the clock's. */
export const testClockWorkflowId = (testClockId: string): string => testClockId;

/** Clock -> attached workflow: the clock's time is now `nowMs` (advance number `seq`). */
export const testClockAdvancedSignal = defineSignal<[{ nowMs: number; seq: number }]>('testClockAdvanced');
/** Clock -> attached workflow: the clock was deleted; its objects end. */
export const testClockDeletedSignal = defineSignal<[]>('testClockDeleted');
/** API -> workflow of a wallet attached after the workflow started: from now on it waits on this clock. */
export const testClockAttachedSignal = defineSignal<[{ testClockId: string }]>('testClockAttached');

/** Attached workflow -> clock: put me on your time (answered with testClockAdvanced). */
export const testClockRegisterSignal = defineSignal<[{ workflowId: string }]>('testClockRegister');
/** Attached workflow -> clock: I reached my next wait after advance `seq`. */
export const testClockAckSignal = defineSignal<[{ workflowId: string; seq: number }]>('testClockAck');
/** Attached workflow -> clock: I finished; wait for me no more. */
export const testClockDetachSignal = defineSignal<[{ workflowId: string }]>('testClockDetach');

/** API -> clock: move to `toMs` (forward only; the API checked it). */
export const testClockAdvanceSignal = defineSignal<[{ toMs: number }]>('testClockAdvance');
/** API -> clock: end every attached object and stop. */
export const testClockDeleteSignal = defineSignal<[]>('testClockDelete');

export type TestClockState = { nowMs: number; seq: number; advancing: boolean; attached: string[]; waitingFor: string[] };
export const testClockStateQuery = defineQuery<TestClockState>('testClockState');
