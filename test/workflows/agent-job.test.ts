// agentJobWorkflow on the time-skipping server: the approval window of a
// proposed job (72 hours, skipped) and a funding that fails for good. The
// escrow path on anvil is in test/agents/agent-job.test.ts.
import { randomBytes } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createActivities } from '../../activities/index.js';
import { createAgentService } from '../../src/agents/service.js';
import { agentJobWorkflow, agentJobWorkflowId } from '../../workflows/agent-job.js';
import { PROPOSAL_TTL_SECONDS } from '../../src/agents/schemas.js';
import { DEV_SECRETS_KEY } from '../../src/config.js';
import type { EventDispatcher } from '../../src/events/dispatch.js';
import { createSecretBox } from '../../src/security/encryption.js';
import { seedMerchant, type SeededMerchant } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { recordHistory } from '../support/histories.js';
import { workflowBundle } from '../support/temporal.js';

const outboxOnly: EventDispatcher = { dispatch: async () => {} };
const VENDOR = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

let db: TestDatabase;
let env: TestWorkflowEnvironment;
let bundle: { code: string };
let merchant: SeededMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  [env, bundle] = await Promise.all([
    TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path: inject('temporalTestServerPath') } },
    }),
    workflowBundle(),
  ]);
  merchant = await seedMerchant(db.sql);
}, 180_000);
afterAll(async () => {
  await env?.teardown();
  await db?.drop();
});

function setup() {
  const taskQueue = `agents-${randomBytes(4).toString('hex')}`;
  // No chain configured in this worker: funding fails permanently.
  const worker = Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities: createActivities({ sql: db.sql, temporal: env.client, taskQueue, events: outboxOnly, chain: {} }),
    shutdownGraceTime: '200ms',
    shutdownForceTime: '1s',
  });
  const service = createAgentService({ sql: db.sql, secretBox: createSecretBox(DEV_SECRETS_KEY), events: outboxOnly, taskQueue });
  const scope = { merchantId: merchant.merchantId, livemode: false };
  const start = (jobId: string) =>
    env.client.workflow.start(agentJobWorkflow, { workflowId: agentJobWorkflowId(jobId), taskQueue, args: [{ jobId }] });
  return { worker, service, scope, start };
}

describe('agentJobWorkflow (time-skipping)', () => {
  it('expires a proposed job nobody approves after the approval window', async () => {
    const { worker, service, scope, start } = setup();
    const job = await service.createJob(scope, {
      vendorAddress: VENDOR,
      description: 'Unapproved',
      amount: '500000000',
      currency: 'USDC',
      expiresInSeconds: 3600,
    });
    expect(job.status).toBe('proposed');
    const began = await env.currentTimeMs();
    const handle = await start(job.id);
    expect(await (await worker).runUntil(handle.result())).toBe('expired');
    expect((await env.currentTimeMs()) - began).toBeGreaterThanOrEqual((PROPOSAL_TTL_SECONDS - 60) * 1000);
    const row = await service.getJob(scope, job.id);
    expect(row).toMatchObject({ status: 'expired', onchainJobId: null, approvedAt: null });
    const feed = await service.listActivity(scope, { jobId: job.id, actionType: 'job_expired', limit: 10 });
    expect(feed.data).toHaveLength(1);
    expect(feed.data[0]).toMatchObject({ outcome: 'failed', capability: 'commerce' });
    // Approving it now is refused.
    await expect(service.approveJob(scope, job.id)).rejects.toMatchObject({ code: 'session_invalid_state' });
    await recordHistory(handle, 'agent-job', 'proposal-expired');
  }, 60_000);

  it('a job approved a day later, whose funding fails for good, ends failed with the reason', async () => {
    const { worker, service, scope, start } = setup();
    const job = await service.createJob(scope, {
      vendorAddress: VENDOR,
      description: 'Approved late',
      amount: '500000000',
      currency: 'USDC',
      expiresInSeconds: 3600,
    });
    // Skipped time is global to the environment (the test before skipped 72 hours): the window starts at its clock.
    const deadline = new Date((await env.currentTimeMs()) + PROPOSAL_TTL_SECONDS * 1000);
    await db.sql`update agent_jobs set approval_deadline = ${deadline} where id = ${job.id}`;
    const handle = await start(job.id);
    const w = await worker;
    const result = await w.runUntil(async () => {
      await env.sleep('24 hours');
      expect((await service.getJob(scope, job.id)).status).toBe('proposed');
      await service.approveJob(scope, job.id);
      await handle.signal('approveAgentJob');
      return handle.result();
    });
    expect(result).toBe('failed');
    const row = await service.getJob(scope, job.id);
    expect(row.status).toBe('failed');
    expect(row.failureReason).toContain('no chain configured');
    const feed = await service.listActivity(scope, { jobId: job.id, limit: 10 });
    expect(feed.data.map((a) => a.actionType)).toEqual(['job_failed', 'job_approved', 'job_proposed']);
    await recordHistory(handle, 'agent-job', 'approved-funding-failed');
  }, 60_000);
});
