import { DEFAULT_PRICES, type LoopState, type PriceTable, priceOf } from '@agentstep/protocol';
import type { Clock } from '../clock/clock.js';
import type { Model } from '../model/model.js';
import type { ModelUsage } from '../model/model-usage.js';
import { costOf } from '../usage/cost-of.js';
import { sessionSpend } from '../usage/session-spend.js';
import { spentBudget } from '../usage/spent-budget.js';
import type { UsageLedger } from '../usage/usage-ledger.js';

/** What spending needs: the ledger, the clock, the model and its prices. */
export interface SpendDeps {
  usage: UsageLedger;
  clock: Clock;
  model: Model;
  /** Prices by model id. @default DEFAULT_PRICES */
  prices?: PriceTable;
}

/** Which budget the session has spent, if any; reads the ledger only when there is a budget. */
export async function budgetLimit(state: LoopState, deps: SpendDeps): Promise<string | undefined> {
  if (Object.keys(state.budget).length === 0) return undefined;
  const spend = sessionSpend(await deps.usage.list(state.session));
  return spentBudget(state.budget, spend, deps.clock.now() - state.startedAt);
}

/** One step's model request, when it started and ended, and what it used. */
export interface StepSpend {
  session: string;
  batch: string;
  startedAt: number;
  endedAt: number;
  usage: ModelUsage;
}

/** Records a step's usage with its cost estimate at today's prices. */
export async function recordSpend(step: StepSpend, deps: SpendDeps): Promise<void> {
  const price = priceOf(deps.prices ?? DEFAULT_PRICES, deps.model.id);
  await deps.usage.record({
    session: step.session,
    batch: step.batch,
    model: deps.model.id,
    at: step.endedAt,
    latencyMs: Math.max(0, Math.round(step.endedAt - step.startedAt)),
    usage: step.usage,
    ...(price ? { costUsd: costOf(price, step.usage) } : {}),
  });
}
