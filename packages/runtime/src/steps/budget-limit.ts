import { approvalWaitMs, type LoopState, type PriceTable, type StoredEvent } from '@agentstep/protocol';
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

/**
 * Which budget the session has spent, if any; reads the ledger only when there is a budget. The
 * turn's wall clock leaves out the time its calls waited for people (`log`: the session's log).
 */
export async function budgetLimit(
  state: LoopState,
  log: readonly StoredEvent[],
  deps: SpendDeps,
): Promise<string | undefined> {
  if (Object.keys(state.budget).length === 0) return undefined;
  const spend = sessionSpend(await deps.usage.list(state.session));
  const now = deps.clock.now();
  return spentBudget(state.budget, spend, now - state.startedAt - approvalWaitMs(log, state.turn, now));
}
