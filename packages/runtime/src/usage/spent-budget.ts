import type { Budget } from '@agentstep/protocol';
import type { SessionSpend } from './session-spend.js';

/**
 * Which budget a session has spent, as a sentence for people, or `undefined` while all of them
 * last. `elapsedMs` is the turn's wall-clock time so far.
 */
export function spentBudget(budget: Budget, spend: SessionSpend, elapsedMs: number): string | undefined {
  const tokens = spend.inputTokens + spend.outputTokens;
  const resume = 'The session is intact: raise the budget and send another message to continue.';
  // What a step of unknown usage spent may be anything: a token or cost budget cannot be kept.
  const bounded = budget.maxTokens !== undefined || budget.maxCostUsd !== undefined;
  if (bounded && spend.unknownSteps > 0) {
    return `The token and cost budgets cannot be kept: the provider reported no usage for ${spend.unknownSteps} model step(s) of this session, so what they spent is unknown. The session is intact: continue it without a token or cost budget, or with a provider that reports usage.`;
  }
  if (budget.maxTokens !== undefined && tokens >= budget.maxTokens) {
    return `The token budget is spent: ${tokens} of ${budget.maxTokens} tokens used (input + output, all turns). ${resume}`;
  }
  if (budget.maxCostUsd !== undefined && spend.costUsd >= budget.maxCostUsd) {
    return `The cost budget is spent: $${spend.costUsd.toFixed(4)} of $${budget.maxCostUsd} estimated (all turns). ${resume}`;
  }
  if (budget.maxWallSeconds !== undefined && elapsedMs >= budget.maxWallSeconds * 1000) {
    return `The time budget is spent: the turn ran ${(elapsedMs / 1000).toFixed(1)} s of ${budget.maxWallSeconds} s. ${resume}`;
  }
  return undefined;
}
