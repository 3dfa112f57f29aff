// Test clocks: a test-mode clock whose time only its API moves, with its chain's time (its own fork of
// the test chain with TEST_CLOCK_CHAINS=fork, else the test chain) and every workflow of its wallets'
// objects following it (workflows/test-clock.ts, workflows/clock.ts).
import { WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { ChainConfig } from '../chain/config.js';
import { chainTimeMs, isControllableChain, moveChainTimeTo } from '../chain/test-chain-time.js';
import type { Sql } from '../db/client.js';
import { InvalidRequestError, InvalidStateError, NotFoundError, PermissionDeniedError, ServiceUnavailableError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type ListQuery, type Page } from '../http/pagination.js';
import { newId } from '../ids.js';
import { signalIfRunning } from '../temporal/signals.js';
import { startOptionsFor } from '../temporal/workflow-tags.js';
import {
  testClockAdvanceSignal,
  testClockAttachedSignal,
  testClockDeleteSignal,
  testClockWorkflowId,
} from '../../workflows/clock-signals.js';
import { testClockWorkflow } from '../../workflows/test-clock.js';
import type { InvoiceService } from '../invoices/service.js';
import type { ClockChains } from './clock-chains.js';
import * as repo from './repo.js';
import {
  TEST_CLOCK_LIMITS,
  type AdvanceTestClockBody,
  type AttachWalletsBody,
  type CreateTestClockBody,
  type TestClock,
} from './schemas.js';

const DAY_MS = 86_400_000;

export function renderTestClock(row: repo.TestClockRow, wallets: repo.AttachedWallet[]): TestClock {
  return {
    id: row.id,
    object: 'test_clock',
    name: row.name,
    frozenTime: row.frozenTime.toISOString(),
    status: row.status,
    advancingTo: row.advancingTo?.toISOString() ?? null,
    wallets: wallets.map((w) => ({ walletAddress: w.walletAddress, attachedAt: w.attachedAt.toISOString() })),
    livemode: false,
    createdAt: row.createdAt.toISOString(),
    deletedAt: row.deletedAt?.toISOString() ?? null,
  };
}

export type TestClockServiceDeps = {
  sql: Sql;
  temporal?: Client;
  taskQueue: string;
  chain: ChainConfig;
  /** Voids the open invoices of a deleted clock (the same void as the API's). */
  invoices?: Pick<InvoiceService, 'void'>;
  /** Present with TEST_CLOCK_CHAINS=fork: each clock gets a fork of the test chain, whose time only it moves. */
  clockChains?: ClockChains;
};

export function createTestClockService({ sql, temporal, taskQueue, chain, invoices, clockChains }: TestClockServiceDeps) {
  const testModeOnly = (scope: MerchantScope) => {
    if (scope.livemode) throw new PermissionDeniedError('Test clocks exist in test mode only: use a sk_test_ key.');
  };
  const needTemporal = (): Client => {
    if (!temporal) throw new ServiceUnavailableError('temporal', 5);
    return temporal;
  };

  /**
   * The rpc url of the chain a clock moves (`rpcUrl`: its own fork; default the test chain) when there is
   * one; refuses plainly a chain whose time cannot be moved. A fork is anvil whatever it forked.
   */
  const controllableChain = async (rpcUrl = chain.test?.rpcUrl): Promise<string | undefined> => {
    if (!rpcUrl) return undefined;
    if (!(await isControllableChain(rpcUrl))) {
      throw new InvalidStateError(
        "Test clocks need a test chain whose time can be moved (the anvil dev chain of `npm start` or the tests); this service's test chain is not one.",
      );
    }
    return rpcUrl;
  };

  const load = async (scope: MerchantScope, id: string): Promise<repo.TestClockRow> => {
    testModeOnly(scope);
    const row = await repo.findTestClock(sql, scope, id);
    // A deleted clock is gone, as Stripe's are: only the answer to the delete shows it.
    if (!row || row.status === 'deleted') throw new NotFoundError(`No such test clock: ${id}.`, { param: 'id' });
    return row;
  };
  const render = async (row: repo.TestClockRow) => renderTestClock(row, await repo.listWallets(sql, row.id));

  /** Lower-cased, deduplicated; refused when one is on another live clock of this merchant. */
  const checkWallets = async (merchantId: string, input: string[], clockId?: string): Promise<string[]> => {
    const wallets = [...new Set(input.map((w) => w.toLowerCase()))];
    const taken = (await repo.walletsOnClocks(sql, merchantId, wallets)).filter((w) => w.testClockId !== clockId);
    if (taken.length > 0) {
      throw new InvalidRequestError('A wallet can be on one test clock at a time.', {
        param: 'wallets',
        issues: taken.map((w) => ({
          path: `wallets.${wallets.indexOf(w.walletAddress)}`,
          message: `already on test clock ${w.testClockId}`,
        })),
      });
    }
    return wallets;
  };

  /** Tells the open subscription workflows of newly attached wallets to wait on the clock from now on. */
  const attachRunningWorkflows = async (client: Client, merchantId: string, testClockId: string, wallets: string[]) => {
    for (const subscriptionId of await repo.openSubscriptionsOfWallets(sql, merchantId, wallets)) {
      await signalIfRunning(client, subscriptionId, testClockAttachedSignal, { testClockId });
    }
  };

  return {
    async create(scope: MerchantScope, input: CreateTestClockBody): Promise<TestClock> {
      testModeOnly(scope);
      const client = needTemporal();
      if ((await repo.countLiveTestClocks(sql, scope)) >= TEST_CLOCK_LIMITS.clocksPerMerchant) {
        throw new InvalidRequestError(`At most ${TEST_CLOCK_LIMITS.clocksPerMerchant} test clocks may exist at once: delete one first.`);
      }
      const frozenTime = new Date(input.frozenTime);
      // With forks the test chain itself is only read (it may be a public testnet); without, it is moved.
      const testChain = clockChains ? chain.test?.rpcUrl : await controllableChain();
      const chainNow = testChain ? await chainTimeMs(testChain) : undefined;
      if (chainNow !== undefined && frozenTime.getTime() < chainNow) {
        throw new InvalidRequestError(
          `frozenTime may not be before the test chain's time (${new Date(chainNow).toISOString()}): chain time only moves forward.`,
          { param: 'frozenTime' },
        );
      }
      // Bounded as an advance is: creating moves the test chain to frozenTime, and chain time never
      // comes back, so a clock in the year 9999 would leave the test chain there for every clock after it.
      const from = Math.max(Date.now(), chainNow ?? 0);
      if (frozenTime.getTime() - from > TEST_CLOCK_LIMITS.maxAdvanceDays * DAY_MS) {
        throw new InvalidRequestError(
          `frozenTime may be at most ${TEST_CLOCK_LIMITS.maxAdvanceDays} days after now (${new Date(from).toISOString()}), as one advance may move a clock.`,
          { param: 'frozenTime' },
        );
      }
      const wallets = await checkWallets(scope.merchantId, input.wallets);
      const id = newId('testClock');
      // The clock's own chain: a fork of the test chain as it is now, under a chain id of its own.
      const own = clockChains && testChain ? await clockChains.start(id, testChain) : undefined;
      const rpcUrl = own?.rpcUrl ?? testChain;
      let row: repo.TestClockRow;
      try {
        row = await sql.begin(async (tx) => {
          const inserted = await repo.insertTestClock(tx, { id, ...scope, name: input.name, frozenTime, ...own });
          await repo.attachWallets(tx, inserted, wallets);
          return inserted;
        });
      } catch (error) {
        await clockChains?.stop(id);
        throw error;
      }
      // The chain starts at the clock's time, so what is enrolled on it now is anchored there.
      if (rpcUrl) await moveChainTimeTo(rpcUrl, frozenTime.getTime());
      await client.workflow.start(testClockWorkflow, {
        workflowId: testClockWorkflowId(id),
        taskQueue,
        args: [{ testClockId: id, nowMs: frozenTime.getTime() }],
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        ...(await startOptionsFor(client, { ...scope, object: 'test_clock', objectId: id, businessStatus: row.status })),
      });
      await attachRunningWorkflows(client, scope.merchantId, id, wallets);
      return render(row);
    },

    async get(scope: MerchantScope, id: string): Promise<TestClock> {
      return render(await load(scope, id));
    },

    async list(scope: MerchantScope, query: ListQuery): Promise<Page<TestClock>> {
      testModeOnly(scope);
      const rows = await repo.listTestClocks(sql, scope, { before: decodeCursor(query.cursor), limit: query.limit });
      const page = toPage(rows, query.limit, (row) => row);
      return { ...page, data: await Promise.all(page.data.map(render)) };
    },

    async attachWallets(scope: MerchantScope, id: string, input: AttachWalletsBody): Promise<TestClock> {
      const row = await load(scope, id);
      const client = needTemporal();
      const wallets = await checkWallets(scope.merchantId, input.wallets, id);
      const current = await repo.listWallets(sql, id);
      const total = new Set([...current.map((w) => w.walletAddress), ...wallets]).size;
      if (total > TEST_CLOCK_LIMITS.walletsPerClock) {
        throw new InvalidRequestError(`A test clock holds at most ${TEST_CLOCK_LIMITS.walletsPerClock} wallets.`, { param: 'wallets' });
      }
      await repo.attachWallets(sql, row, wallets);
      await attachRunningWorkflows(client, scope.merchantId, id, wallets);
      return render(row);
    },

    async advance(scope: MerchantScope, id: string, input: AdvanceTestClockBody): Promise<TestClock> {
      const row = await load(scope, id);
      const client = needTemporal();
      if (row.status !== 'ready') throw new InvalidStateError(`Test clock ${id} is ${row.status}: it can be advanced once it is ready.`);
      const to = new Date(input.frozenTime);
      if (to.getTime() <= row.frozenTime.getTime()) {
        throw new InvalidRequestError(
          `frozenTime must be after the clock's time (${row.frozenTime.toISOString()}): clocks only move forward.`,
          { param: 'frozenTime' },
        );
      }
      if (to.getTime() - row.frozenTime.getTime() > TEST_CLOCK_LIMITS.maxAdvanceDays * DAY_MS) {
        throw new InvalidRequestError(`One advance may move a clock at most ${TEST_CLOCK_LIMITS.maxAdvanceDays} days.`, {
          param: 'frozenTime',
        });
      }
      await controllableChain(row.rpcUrl ?? undefined);
      if (!(await repo.startAdvance(sql, id, to)))
        throw new InvalidStateError(`Test clock ${id} is not ready: it can be advanced once it is ready.`);
      await client.workflow.getHandle(testClockWorkflowId(id)).signal(testClockAdvanceSignal, { toMs: to.getTime() });
      return render((await repo.findTestClock(sql, scope, id))!);
    },

    /**
     * Ends the clock's objects (docs/operations.md, Test clocks): its open invoices are voided here
     * (their backing sessions cancelled, as the void route does); the clock's workflow then tells every
     * attached workflow, whose subscription is cancelled and whose open session expires. Afterwards
     * the clock is `not_found`.
     */
    async delete(scope: MerchantScope, id: string): Promise<TestClock> {
      await load(scope, id);
      const client = needTemporal();
      for (const invoiceId of await repo.openInvoicesOnClock(sql, id)) {
        try {
          await invoices?.void(scope, invoiceId);
        } catch (error) {
          // Paid meanwhile, or its payment in flight: that invoice's own outcome stands.
          if (!(error instanceof InvalidStateError)) throw error;
        }
      }
      if (!(await repo.markDeleted(sql, id))) throw new NotFoundError(`No such test clock: ${id}.`, { param: 'id' });
      await signalIfRunning(client, testClockWorkflowId(id), testClockDeleteSignal);
      // Its chain goes with it (a clock moved by the test chain has none of its own).
      await clockChains?.stop(id);
      return render((await repo.findTestClock(sql, scope, id))!);
    },
  };
}

export type TestClockService = ReturnType<typeof createTestClockService>;
