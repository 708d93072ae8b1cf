import type { LoopState, PriceTable } from '@agentstep/protocol';
import type { Clock } from '../clock/clock.js';
import type { Model } from '../model/model.js';
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
