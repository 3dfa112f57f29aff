// agentDailyWorkflow: the agent's daily run, started by the Temporal Schedule
// `agent-daily` (src/temporal/schedules.ts) once a day. For the finished UTC day
// (yesterday, unless `day` is given): for each merchant and mode with `cashflow`
// enabled, the revenue anomaly check and, with digestEnabled, the digest email
// (activities/agent-daily.ts), then with autoConvertToYield the agent wallet's
// rebalancing against the ERC-4626 vault (activities/agent-yield.ts); for each
// with `pricing_intelligence`, the pricing suggestions. Each step is idempotent per (merchant, mode, day),
// so an overlapping or re-run schedule sends and records nothing twice.
import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { CashflowDayResult } from '../activities/agent-daily.js';
import type { YieldRebalance } from '../activities/agent-yield.js';
import { CHAIN_ACTIVITY, DATABASE_ACTIVITY } from './options.js';

const db = proxyActivities<Activities>(DATABASE_ACTIVITY);
/** Bounded: a wallet without gas must not hold up the other merchants' day; the next day tries again. */
const chain = proxyActivities<Activities>({ ...CHAIN_ACTIVITY, scheduleToCloseTimeout: '30 minutes' });

export type AgentDailyInput = { /** UTC date (YYYY-MM-DD) to judge; default: the day before the run. */ day?: string };
type Scope = { merchantId: string; livemode: boolean };
export type AgentDailyResult = {
  day: string;
  cashflow: (CashflowDayResult & Scope & { yield: YieldRebalance | { action: 'failed' } })[];
  pricing: ({ suggested: string[] } & Scope)[];
};

export const AGENT_DAILY_SCHEDULE_ID = 'agent-daily';

export async function agentDailyWorkflow(input: AgentDailyInput = {}): Promise<AgentDailyResult> {
  const day = input.day ?? new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const result: AgentDailyResult = { day, cashflow: [], pricing: [] };
  for (const scope of await db.listAgentScopes({ capability: 'cashflow' })) {
    const cashflow = await db.runCashflowDay({ ...scope, day });
    let rebalanced: YieldRebalance | { action: 'failed' };
    try {
      rebalanced = await chain.rebalanceAgentYield({ ...scope, day });
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      rebalanced = { action: 'failed' };
    }
    result.cashflow.push({ ...scope, ...cashflow, yield: rebalanced });
  }
  for (const scope of await db.listAgentScopes({ capability: 'pricing_intelligence' }))
    result.pricing.push({ ...scope, ...(await db.runPricingSuggestions({ ...scope, day })) });
  return result;
}
