import { approvalWaitMs, type LoopState, type PriceTable, type StoredEvent } from '@agentstep/protocol';
import type { Clock } from '../clock/clock.js';
import { type ContextStart, carryOf } from '../event-log/context-start.js';
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
 * turn's wall clock leaves out the time its calls waited for people (`log`: the session's log,
 * from seq 1 or from `start.from`).
 */
export async function budgetLimit(
  state: LoopState,
  log: readonly StoredEvent[],
  deps: SpendDeps,
  start?: ContextStart,
): Promise<string | undefined> {
  if (Object.keys(state.budget).length === 0) return undefined;
  const spend = sessionSpend(await deps.usage.list(state.session));
  const now = deps.clock.now();
  return spentBudget(state.budget, spend, now - state.startedAt - turnWaitMs(state.turn, log, start, now));
}

/**
 * How long `turn`'s calls waited for people (`approvalWaitMs`), with what the turn carried past a
 * compaction (`start`) instead of the events it counted.
 */
export function turnWaitMs(
  turn: string,
  log: readonly StoredEvent[],
  start: ContextStart | undefined,
  now: number,
): number {
  const carried = carryOf(start, turn);
  if (carried === undefined || start === undefined) return approvalWaitMs(log, turn, now);
  const after = log.filter((stored) => stored.seq > start.through);
  return carried.approvalWaitMs + approvalWaitMs(after, turn, now);
}
